#include "store/Schema.h"

#include <string>

#include "core/Errors.h"
#include "store/Database.h"
#include "store/NativeSchema.h"

namespace memviz {

namespace {

// Version 1: traces, devices, summaries, interned names, chunked raw events, series with
// their chunked points and level-of-detail pyramid, per-op aggregates, import warnings.
constexpr const char* kSchemaV1 = R"SQL(
CREATE TABLE traces (
    id              INTEGER PRIMARY KEY,
    source_path     TEXT    NOT NULL,
    format          TEXT    NOT NULL,
    imported_at     TEXT    NOT NULL,
    source_size     INTEGER,
    source_mtime_ns INTEGER,
    epoch_ns        INTEGER,
    time_kind       TEXT    NOT NULL DEFAULT 'time',
    duration_ns     INTEGER NOT NULL DEFAULT 0,
    event_count     INTEGER NOT NULL DEFAULT 0
);
CREATE TABLE trace_metadata (
    trace_id INTEGER NOT NULL REFERENCES traces(id) ON DELETE CASCADE,
    key      TEXT    NOT NULL,
    value    TEXT    NOT NULL,
    PRIMARY KEY (trace_id, key)
) WITHOUT ROWID;
CREATE TABLE devices (
    trace_id INTEGER NOT NULL REFERENCES traces(id) ON DELETE CASCADE,
    device   INTEGER NOT NULL,
    name     TEXT    NOT NULL,
    PRIMARY KEY (trace_id, device)
) WITHOUT ROWID;
CREATE TABLE device_summary (
    trace_id        INTEGER NOT NULL REFERENCES traces(id) ON DELETE CASCADE,
    device          INTEGER NOT NULL,
    events          INTEGER NOT NULL,
    allocs          INTEGER NOT NULL,
    frees           INTEGER NOT NULL,
    unmatched_frees INTEGER NOT NULL,
    peak_bytes      INTEGER NOT NULL,
    peak_time_ns    INTEGER NOT NULL,
    final_bytes     INTEGER NOT NULL,
    duration_ns     INTEGER NOT NULL,
    PRIMARY KEY (trace_id, device)
) WITHOUT ROWID;
CREATE TABLE names (
    trace_id INTEGER NOT NULL REFERENCES traces(id) ON DELETE CASCADE,
    kind     INTEGER NOT NULL,
    id       INTEGER NOT NULL,
    name     TEXT    NOT NULL,
    PRIMARY KEY (trace_id, kind, id)
) WITHOUT ROWID;
CREATE TABLE event_chunks (
    trace_id    INTEGER NOT NULL REFERENCES traces(id) ON DELETE CASCADE,
    chunk       INTEGER NOT NULL,
    first_seq   INTEGER NOT NULL,
    event_count INTEGER NOT NULL,
    t_first     INTEGER NOT NULL,
    t_last      INTEGER NOT NULL,
    codec       INTEGER NOT NULL,
    data        BLOB    NOT NULL,
    PRIMARY KEY (trace_id, chunk)
);
CREATE TABLE series (
    id          INTEGER PRIMARY KEY,
    trace_id    INTEGER NOT NULL REFERENCES traces(id) ON DELETE CASCADE,
    device      INTEGER NOT NULL,
    name        TEXT    NOT NULL,
    unit        TEXT    NOT NULL,
    point_count INTEGER NOT NULL DEFAULT 0,
    t_first     INTEGER,
    t_last      INTEGER,
    v_min       INTEGER,
    v_max       INTEGER,
    v_final     INTEGER
);
CREATE TABLE series_chunks (
    series_id   INTEGER NOT NULL REFERENCES series(id) ON DELETE CASCADE,
    chunk       INTEGER NOT NULL,
    point_count INTEGER NOT NULL,
    t_first     INTEGER NOT NULL,
    t_last      INTEGER NOT NULL,
    codec       INTEGER NOT NULL,
    data        BLOB    NOT NULL,
    PRIMARY KEY (series_id, chunk)
);
CREATE TABLE series_lod (
    series_id INTEGER NOT NULL REFERENCES series(id) ON DELETE CASCADE,
    level     INTEGER NOT NULL,
    t_last    INTEGER NOT NULL,
    bucket    INTEGER NOT NULL,
    t_first   INTEGER NOT NULL,
    v_first   INTEGER NOT NULL,
    v_last    INTEGER NOT NULL,
    v_min     INTEGER NOT NULL,
    t_min     INTEGER NOT NULL,
    v_max     INTEGER NOT NULL,
    t_max     INTEGER NOT NULL,
    PRIMARY KEY (series_id, level, t_last, bucket)
) WITHOUT ROWID;
CREATE TABLE op_stats (
    trace_id        INTEGER NOT NULL REFERENCES traces(id) ON DELETE CASCADE,
    device          INTEGER NOT NULL,
    op              INTEGER NOT NULL,
    allocs          INTEGER NOT NULL,
    frees           INTEGER NOT NULL,
    bytes_allocated INTEGER NOT NULL,
    bytes_freed     INTEGER NOT NULL,
    largest_alloc   INTEGER NOT NULL,
    PRIMARY KEY (trace_id, device, op)
) WITHOUT ROWID;
CREATE TABLE import_warnings (
    trace_id       INTEGER NOT NULL REFERENCES traces(id) ON DELETE CASCADE,
    kind           TEXT    NOT NULL,
    count          INTEGER NOT NULL,
    first_location TEXT    NOT NULL,
    message        TEXT    NOT NULL,
    PRIMARY KEY (trace_id, kind)
) WITHOUT ROWID;
)SQL";

// Indexes are created after the bulk rows of an import are in (see TraceWriter::commit),
// but they must exist for every store, so the schema creates them too.
constexpr const char* kIndexesV1 = R"SQL(
CREATE INDEX event_chunks_by_time ON event_chunks(trace_id, t_last);
CREATE INDEX series_by_trace ON series(trace_id, device);
CREATE INDEX series_chunks_by_time ON series_chunks(series_id, t_last);
)SQL";

// Version 3: thread names; raw record streams other than events (profiler op calls,
// allocation lifetimes) as chunks; per-operator profiler totals.
constexpr const char* kSchemaV3 = R"SQL(
CREATE TABLE threads (
    trace_id INTEGER NOT NULL REFERENCES traces(id) ON DELETE CASCADE,
    thread   INTEGER NOT NULL,
    name     TEXT    NOT NULL,
    PRIMARY KEY (trace_id, thread)
) WITHOUT ROWID;
CREATE TABLE record_chunks (
    trace_id INTEGER NOT NULL REFERENCES traces(id) ON DELETE CASCADE,
    kind     TEXT    NOT NULL,
    chunk    INTEGER NOT NULL,
    count    INTEGER NOT NULL,
    t_first  INTEGER NOT NULL,
    t_last   INTEGER NOT NULL,
    t_end    INTEGER NOT NULL,
    columns  INTEGER NOT NULL,
    codec    INTEGER NOT NULL,
    data     BLOB    NOT NULL,
    PRIMARY KEY (trace_id, kind, chunk)
);
CREATE TABLE profiler_op_calls (
    trace_id INTEGER NOT NULL REFERENCES traces(id) ON DELETE CASCADE,
    name     INTEGER NOT NULL,
    shapes   INTEGER NOT NULL,
    calls    INTEGER NOT NULL,
    PRIMARY KEY (trace_id, name, shapes)
) WITHOUT ROWID;
CREATE TABLE profiler_op_memory (
    trace_id         INTEGER NOT NULL REFERENCES traces(id) ON DELETE CASCADE,
    name             INTEGER NOT NULL,
    shapes           INTEGER NOT NULL,
    device           INTEGER NOT NULL,
    bytes            INTEGER NOT NULL,
    self_bytes       INTEGER NOT NULL,
    allocs           INTEGER NOT NULL,
    alloc_bytes      INTEGER NOT NULL,
    self_allocs      INTEGER NOT NULL,
    self_alloc_bytes INTEGER NOT NULL,
    PRIMARY KEY (trace_id, name, shapes, device)
) WITHOUT ROWID;
)SQL";

struct Step {
    int version;
    const char* sql[2];
};

constexpr Step kSteps[] = {
    {1, {kSchemaV1, kIndexesV1}},
    {2, {kNativeSchemaSql, nullptr}}, // heaptrack and massif tables, series.style
    {3, {kSchemaV3, nullptr}},        // profiler calls and totals, record chunks, threads
};

bool hasForeignTables(Database& db) {
    return queryInt(db, "SELECT count(*) FROM sqlite_schema WHERE type = 'table'").value_or(0) > 0;
}

} // namespace

void migrateSchema(Database& db, bool readOnly) {
    const int version = db.userVersion();
    if (version > kSchemaVersion)
        throw StoreError(db.path() + ": written by a newer memviz (schema version " + std::to_string(version) +
                         ", this build reads up to " + std::to_string(kSchemaVersion) + ")");
    if (version == 0 && hasForeignTables(db))
        throw StoreError(db.path() + ": an SQLite database, but not a memviz store (no schema version)");
    if (version == kSchemaVersion) return;
    if (readOnly)
        throw StoreError(db.path() + ": schema version " + std::to_string(version) +
                         " needs migrating; open it writable once");
    for (const Step& step : kSteps) {
        if (step.version <= version) continue;
        Transaction tx(db);
        for (const char* sql : step.sql)
            if (sql) db.exec(sql);
        db.exec("PRAGMA user_version = " + std::to_string(step.version));
        tx.commit();
    }
}

} // namespace memviz

// SPDX-License-Identifier: MIT
#include "store/Schema.h"

#include <algorithm>
#include <string>

#include "core/Errors.h"
#include "store/Database.h"

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

// Version 2: a display hint for every series (with the heaptrack and massif tables).
constexpr const char* kSchemaV2 = R"SQL(
-- How the timeline draws a series: '' = a step line, 'stacked' = a filled area stacked on
-- the 'stacked' series before it (same device, in creation order).
ALTER TABLE series ADD COLUMN style TEXT NOT NULL DEFAULT '';
)SQL";

// Version 3: thread names; raw record streams other than events (profiler op calls,
// allocation lifetimes) as chunks. (The profiler's per-operator totals: formats/profiler.)
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
)SQL";

// Version 4: call stacks as frames (any importer may use them; `stack_frames.stack` is the
// events' stack id). (The CUDA memory snapshot tables came in the same step: formats/snapshot.)
constexpr const char* kSchemaV4 = R"SQL(
CREATE TABLE frames (
    trace_id INTEGER NOT NULL REFERENCES traces(id) ON DELETE CASCADE,
    id       INTEGER NOT NULL,
    name     TEXT    NOT NULL,
    filename TEXT    NOT NULL,
    line     INTEGER NOT NULL,
    PRIMARY KEY (trace_id, id)
) WITHOUT ROWID;
CREATE TABLE stack_frames (
    trace_id INTEGER NOT NULL REFERENCES traces(id) ON DELETE CASCADE,
    stack    INTEGER NOT NULL,
    depth    INTEGER NOT NULL,
    frame    INTEGER NOT NULL,
    PRIMARY KEY (trace_id, stack, depth)
) WITHOUT ROWID;
)SQL";

// Version 8: event chunks in codec 2, narrow columns (store/ColumnChunk.h). No table changes: the step makes an older memviz refuse these stores
// by their version instead of calling their chunks damaged. Codec 1 chunks are still read.
constexpr const char* kSchemaV8 = "-- version 8: event chunks may use codec 2 (narrow columns)";

// Version 9: the level-of-detail pyramid starts at level 2 (store/SeriesWriter.h), and formats
// may write chunks in new codecs (the CUDA snapshot's allocation chunks, its entry chunks that
// name an event chunk). No table changes: an
// older memviz would look for level 1 and draw nothing, so it refuses the store by its version.
// Stores migrated from before keep their level 1 and old chunks, and both are read.
constexpr const char* kSchemaV9 = "-- version 9: series_lod is stored from level 2; snapshot allocation chunks in codec 2, entry chunks in codec 3";

// Version 10: series chunks, record chunks (profiler calls and allocation lifetimes,
// store/RecordChunks.h) and heaptrack allocation info chunks in codec 2, narrow columns (issue
// 33: zstd compressing 8-byte columns was the writer's longest job on a 240 MB profiler trace).
// No table changes: an older memviz refuses these stores by their version instead of calling
// their chunks damaged. Codec 1 chunks are still read.
constexpr const char* kSchemaV10 = "-- version 10: series, record and heaptrack info chunks in codec 2 (narrow columns)";

// Version 12: an event chunk's address column may be stored as steps from the previous event
// (flag 0x40 in its width byte, the first address after the column), where that needs fewer
// bits (heaptrack's allocation info indices; issue 33). No table changes: an older memviz
// refuses these stores by their version instead of calling their chunks damaged.
constexpr const char* kSchemaV12 = "-- version 12: event chunks' address column may be stored as steps";

// The store's own steps; each format's come from the registry (formatSchemaSteps()).
constexpr SchemaStep kCoreSteps[] = {
    {1, kSchemaV1}, {1, kIndexesV1}, {2, kSchemaV2}, {3, kSchemaV3}, {4, kSchemaV4}, {8, kSchemaV8}, {9, kSchemaV9}, {10, kSchemaV10},
    {12, kSchemaV12},
};

// Every statement of one version: the store's own first, then the formats' in registry order.
std::vector<const char*> stepStatements(int version) {
    std::vector<const char*> out;
    for (const SchemaStep& step : kCoreSteps)
        if (step.version == version) out.push_back(step.sql);
    for (const SchemaStep& step : formatSchemaSteps())
        if (step.version == version) out.push_back(step.sql);
    return out;
}

// PRAGMA application_id: "mviz" in bytes 68-71 of the SQLite header, so a file manager
// recognises a store by its content (packaging/memviz-mime.xml). A store written before this
// existed gets it the next time it is opened writable.
constexpr std::int64_t kApplicationId = 0x6D76697A;

void markAsMemvizStore(Database& db) {
    if (queryInt(db, "PRAGMA application_id").value_or(0) != kApplicationId)
        db.exec("PRAGMA application_id = " + std::to_string(kApplicationId));
}

bool hasForeignTables(Database& db) {
    return queryInt(db, "SELECT count(*) FROM sqlite_schema WHERE type = 'table'").value_or(0) > 0;
}

} // namespace

int currentSchemaVersion() {
    int version = 0;
    for (const SchemaStep& step : kCoreSteps) version = std::max(version, step.version);
    for (const SchemaStep& step : formatSchemaSteps()) version = std::max(version, step.version);
    return version;
}

void migrateSchema(Database& db, bool readOnly) {
    const int version = db.userVersion();
    if (version > kSchemaVersion)
        throw StoreError(db.path() + ": written by a newer memviz (schema version " + std::to_string(version) +
                         ", this build reads up to " + std::to_string(kSchemaVersion) + ")");
    if (version == 0 && hasForeignTables(db))
        throw StoreError(db.path() + ": an SQLite database, but not a memviz store (no schema version)");
    if (!readOnly) markAsMemvizStore(db);
    if (version == kSchemaVersion) return;
    if (readOnly)
        throw StoreError(db.path() + ": schema version " + std::to_string(version) + " needs migrating; open it writable once");
    // All steps in one transaction: the store moves to the current version or stays as it was
    // (a new store's twelve steps, one commit each, were 20 ms of every first import).
    Transaction tx(db);
    for (int next = version + 1; next <= kSchemaVersion; ++next) {
        const std::vector<const char*> statements = stepStatements(next);
        // A version nobody registers a step for is a mistake in this build, not in the file.
        if (statements.empty()) throw StoreError("schema version " + std::to_string(next) + " has no migration step");
        for (const char* sql : statements) db.exec(sql);
    }
    db.exec("PRAGMA user_version = " + std::to_string(kSchemaVersion));
    tx.commit();
}

std::vector<std::string> schemaStepSql(int version) {
    const std::vector<const char*> statements = stepStatements(version);
    return {statements.begin(), statements.end()};
}

} // namespace memviz

#include "store/Schema.h"

#include <string>

#include "core/Errors.h"
#include "store/Database.h"
#include "formats/live/LiveSchema.h"
#include "formats/heaptrack/HeaptrackSchema.h"
#include "formats/massif/MassifSchema.h"

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

// Version 4: call stacks as frames (any importer may use them; `stack_frames.stack` is the
// events' stack id), and the tables of CUDA memory snapshots: the allocator state at the end
// (segments, blocks), every allocation's lifetime (what was alive at any moment), the trace
// entries per device, OOMs, annotations and the per-device replay figures. docs/formats-snapshot.md.
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
CREATE TABLE snapshot_devices (
    trace_id                      INTEGER NOT NULL REFERENCES traces(id) ON DELETE CASCADE,
    device                        INTEGER NOT NULL,
    cuda_device                   INTEGER NOT NULL,
    entries                       INTEGER NOT NULL,
    baseline_bytes                INTEGER NOT NULL,
    baseline_blocks               INTEGER NOT NULL,
    baseline_freed_blocks         INTEGER NOT NULL,
    peak_seq                      INTEGER NOT NULL,
    peak_bytes                    INTEGER NOT NULL,
    final_replayed_bytes          INTEGER NOT NULL,
    final_active_requested_bytes  INTEGER NOT NULL,
    final_pending_requested_bytes INTEGER NOT NULL,
    final_active_bytes            INTEGER NOT NULL,
    unmatched_live_allocations    INTEGER NOT NULL,
    size_mismatches               INTEGER NOT NULL,
    reserved_initial_bytes        INTEGER NOT NULL,
    reserved_final_bytes          INTEGER NOT NULL,
    segments                      INTEGER NOT NULL,
    PRIMARY KEY (trace_id, device)
) WITHOUT ROWID;
CREATE TABLE snapshot_action_counts (
    trace_id INTEGER NOT NULL REFERENCES traces(id) ON DELETE CASCADE,
    device   INTEGER NOT NULL,
    action   TEXT    NOT NULL,
    count    INTEGER NOT NULL,
    PRIMARY KEY (trace_id, device, action)
) WITHOUT ROWID;
CREATE TABLE snapshot_entry_chunks (
    trace_id    INTEGER NOT NULL REFERENCES traces(id) ON DELETE CASCADE,
    device      INTEGER NOT NULL,
    chunk       INTEGER NOT NULL,
    first_seq   INTEGER NOT NULL,
    entry_count INTEGER NOT NULL,
    t_first     INTEGER NOT NULL,
    t_last      INTEGER NOT NULL,
    codec       INTEGER NOT NULL,
    data        BLOB    NOT NULL,
    PRIMARY KEY (trace_id, device, chunk)
);
CREATE TABLE snapshot_segments (
    trace_id       INTEGER NOT NULL REFERENCES traces(id) ON DELETE CASCADE,
    device         INTEGER NOT NULL,
    address        INTEGER NOT NULL,
    total_size     INTEGER NOT NULL,
    allocated_size INTEGER NOT NULL,
    active_size    INTEGER NOT NULL,
    requested_size INTEGER NOT NULL,
    stream         INTEGER NOT NULL,
    segment_type   TEXT    NOT NULL,
    pool_id        TEXT    NOT NULL,
    is_expandable  INTEGER NOT NULL,
    stack          INTEGER NOT NULL
);
CREATE TABLE snapshot_blocks (
    trace_id        INTEGER NOT NULL REFERENCES traces(id) ON DELETE CASCADE,
    device          INTEGER NOT NULL,
    segment_address INTEGER NOT NULL,
    address         INTEGER NOT NULL,
    size            INTEGER NOT NULL,
    requested_size  INTEGER NOT NULL,
    state           TEXT    NOT NULL,
    stack           INTEGER NOT NULL
);
CREATE TABLE snapshot_allocation_chunks (
    trace_id    INTEGER NOT NULL REFERENCES traces(id) ON DELETE CASCADE,
    device      INTEGER NOT NULL,
    chunk       INTEGER NOT NULL,
    row_count   INTEGER NOT NULL,
    codec       INTEGER NOT NULL,
    data        BLOB    NOT NULL,
    PRIMARY KEY (trace_id, device, chunk)
);
CREATE TABLE snapshot_ooms (
    trace_id          INTEGER NOT NULL REFERENCES traces(id) ON DELETE CASCADE,
    device            INTEGER NOT NULL,
    seq               INTEGER NOT NULL,
    t                 INTEGER NOT NULL,
    requested_bytes   INTEGER NOT NULL,
    device_free_bytes INTEGER,
    stack             INTEGER NOT NULL
);
CREATE TABLE snapshot_annotations (
    trace_id    INTEGER NOT NULL REFERENCES traces(id) ON DELETE CASCADE,
    device      INTEGER,
    cuda_device INTEGER,
    t           INTEGER,
    time_us     INTEGER,
    stage       TEXT    NOT NULL,
    name        TEXT    NOT NULL
);
)SQL";

constexpr const char* kIndexesV4 = R"SQL(
CREATE INDEX snapshot_segments_by_device ON snapshot_segments(trace_id, device, address);
CREATE INDEX snapshot_blocks_by_device ON snapshot_blocks(trace_id, device, address);
CREATE INDEX snapshot_ooms_by_device ON snapshot_ooms(trace_id, device, seq);
CREATE INDEX snapshot_annotations_by_trace ON snapshot_annotations(trace_id, t);
)SQL";

struct Step {
    int version;
    const char* sql[2];
};

constexpr Step kSteps[] = {
    {1, {kSchemaV1, kIndexesV1}},
    {2, {kNativeSchemaSql, kMassifSchemaSql}}, // heaptrack and massif tables, series.style
    {3, {kSchemaV3, nullptr}},        // profiler calls and totals, record chunks, threads
    {4, {kSchemaV4, kIndexesV4}},     // CUDA memory snapshots, frames
    {5, {kLiveSchemaSql, nullptr}},   // live recordings: samples, markers, probe ops
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

namespace memviz {

std::vector<std::string> schemaStepSql(int version) {
    for (const Step& step : kSteps)
        if (step.version == version) {
            std::vector<std::string> out;
            for (const char* sql : step.sql)
                if (sql) out.emplace_back(sql);
            return out;
        }
    return {};
}

} // namespace memviz

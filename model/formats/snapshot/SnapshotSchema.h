// SPDX-License-Identifier: MIT
#pragma once
// The tables of CUDA memory snapshots (schema step 4, registered in formats/FormatRegistry.cpp):
// the allocator state at the end (segments, blocks), every allocation's lifetime (what was
// alive at any moment), the trace entries per device, OOMs, annotations and the per-device
// replay figures. Documented in docs/formats-snapshot.md.
namespace memviz {

inline constexpr const char* kSnapshotSchemaSql = R"SQL(
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

inline constexpr const char* kSnapshotIndexesSql = R"SQL(
CREATE INDEX snapshot_segments_by_device ON snapshot_segments(trace_id, device, address);
CREATE INDEX snapshot_blocks_by_device ON snapshot_blocks(trace_id, device, address);
CREATE INDEX snapshot_ooms_by_device ON snapshot_ooms(trace_id, device, seq);
CREATE INDEX snapshot_annotations_by_trace ON snapshot_annotations(trace_id, t);
)SQL";

// Schema step 7: the trace entries' compile_context, user_metadata and forward_frames
// (formats/snapshot/SnapshotContext.h): each distinct text once, and runs of consecutive
// entries of a device that share them (NULL: the entry has none).
inline constexpr const char* kSnapshotContextSchemaSql = R"SQL(
CREATE TABLE snapshot_context_texts (
    trace_id INTEGER NOT NULL REFERENCES traces(id) ON DELETE CASCADE,
    id       INTEGER NOT NULL,
    text     TEXT    NOT NULL,
    PRIMARY KEY (trace_id, id)
) WITHOUT ROWID;
CREATE TABLE snapshot_entry_contexts (
    trace_id        INTEGER NOT NULL REFERENCES traces(id) ON DELETE CASCADE,
    device          INTEGER NOT NULL,
    first_seq       INTEGER NOT NULL,
    last_seq        INTEGER NOT NULL,
    compile_context INTEGER,
    user_metadata   INTEGER,
    forward_frames  INTEGER,
    PRIMARY KEY (trace_id, device, first_seq)
) WITHOUT ROWID;
)SQL";

// Schema step 15: the CUDA stream of the trace entries that name one other than the default
// stream (0), as runs of consecutive entries of a device on the same stream; for the allocator
// replay, whose pools are per stream. A store imported before has no rows: its entries are
// replayed on the stream most final segments are on.
inline constexpr const char* kSnapshotStreamSchemaSql = R"SQL(
CREATE TABLE snapshot_entry_streams (
    trace_id  INTEGER NOT NULL REFERENCES traces(id) ON DELETE CASCADE,
    device    INTEGER NOT NULL,
    first_seq INTEGER NOT NULL,
    last_seq  INTEGER NOT NULL,
    stream    INTEGER NOT NULL,
    PRIMARY KEY (trace_id, device, first_seq)
) WITHOUT ROWID;
)SQL";

} // namespace memviz

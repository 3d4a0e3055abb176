// SPDX-License-Identifier: MIT
#pragma once
// The heaptrack tables (schema steps 2 and 7, registered in formats/FormatRegistry.cpp).
// Documented in docs/formats-native.md.
namespace memviz {

inline constexpr const char* kHeaptrackSchemaSql = R"SQL(
-- heaptrack: one row per trace with heaptrack_print's headline figures.
CREATE TABLE heaptrack_totals (
    trace_id          INTEGER PRIMARY KEY REFERENCES traces(id) ON DELETE CASCADE,
    heaptrack_version INTEGER NOT NULL,
    file_version      INTEGER NOT NULL,
    command           TEXT    NOT NULL,
    calls             INTEGER NOT NULL, -- calls to allocation functions
    temporary         INTEGER NOT NULL, -- temporary allocations
    peak_bytes        INTEGER NOT NULL, -- peak heap memory consumption
    peak_time_ms      INTEGER NOT NULL,
    leaked_bytes      INTEGER NOT NULL, -- total memory leaked, suppressions applied
    suppressed_bytes  INTEGER NOT NULL, -- leaks matched by a suppression
    peak_rss_bytes    INTEGER NOT NULL,
    total_time_ms     INTEGER NOT NULL  -- last timestamp + 1, as heaptrack_print reports it
);
-- heaptrack: instruction pointers and their frames; depth 0 is the frame at the address,
-- depth 1.. the frames inlined into it (innermost first). Empty text = unknown.
CREATE TABLE heaptrack_frames (
    trace_id INTEGER NOT NULL REFERENCES traces(id) ON DELETE CASCADE,
    ip_id    INTEGER NOT NULL,
    depth    INTEGER NOT NULL,
    address  INTEGER NOT NULL,
    module   TEXT    NOT NULL,
    function TEXT    NOT NULL,
    file     TEXT    NOT NULL,
    line     INTEGER NOT NULL,
    PRIMARY KEY (trace_id, ip_id, depth)
) WITHOUT ROWID;
-- heaptrack: the backtrace tree; a node is a frame (ip) and its caller (parent, 0 = root).
CREATE TABLE heaptrack_trace_nodes (
    trace_id  INTEGER NOT NULL REFERENCES traces(id) ON DELETE CASCADE,
    node_id   INTEGER NOT NULL,
    ip_id     INTEGER NOT NULL,
    parent_id INTEGER NOT NULL,
    PRIMARY KEY (trace_id, node_id)
) WITHOUT ROWID;
-- heaptrack: allocation infos (size, backtrace node); an event's address is its info id.
-- There can be millions, so they are packed like series points (ChunkCodec's point columns,
-- t = size, v = node_id), info_count of them from first_info on.
CREATE TABLE heaptrack_alloc_info_chunks (
    trace_id   INTEGER NOT NULL REFERENCES traces(id) ON DELETE CASCADE,
    first_info INTEGER NOT NULL,
    info_count INTEGER NOT NULL,
    codec      INTEGER NOT NULL,
    data       BLOB    NOT NULL,
    PRIMARY KEY (trace_id, first_info)
) WITHOUT ROWID;
-- heaptrack: bottom-up allocation sites (the frame that called the allocation function),
-- merged the way heaptrack_print merges them.
CREATE TABLE heaptrack_sites (
    trace_id     INTEGER NOT NULL REFERENCES traces(id) ON DELETE CASCADE,
    site_id      INTEGER NOT NULL,
    ip_id        INTEGER NOT NULL,
    function     TEXT    NOT NULL,
    module       TEXT    NOT NULL,
    file         TEXT    NOT NULL,
    line         INTEGER NOT NULL,
    allocations  INTEGER NOT NULL,
    temporary    INTEGER NOT NULL,
    peak_bytes   INTEGER NOT NULL,
    leaked_bytes INTEGER NOT NULL,
    PRIMARY KEY (trace_id, site_id)
) WITHOUT ROWID;
-- heaptrack: the backtraces merged into each site, with their own costs.
CREATE TABLE heaptrack_site_stacks (
    trace_id     INTEGER NOT NULL REFERENCES traces(id) ON DELETE CASCADE,
    site_id      INTEGER NOT NULL,
    node_id      INTEGER NOT NULL,
    allocations  INTEGER NOT NULL,
    temporary    INTEGER NOT NULL,
    peak_bytes   INTEGER NOT NULL,
    leaked_bytes INTEGER NOT NULL,
    PRIMARY KEY (trace_id, site_id, node_id)
) WITHOUT ROWID;
)SQL";

} // namespace memviz

namespace memviz {

// Schema step 7: the backtrace tree and the per-site backtraces as compressed column chunks
// (formats/heaptrack/HeaptrackChunks.h) instead of a row per node (2.2M rows for a real
// PyTorch recording). Imports from step 7 on leave heaptrack_trace_nodes and
// heaptrack_site_stacks empty; the readers still read them for traces imported before.
inline constexpr const char* kHeaptrackChunksSchemaSql = R"SQL(
-- heaptrack: the backtrace tree, node_count nodes from first_node on (chunks of 65536 from
-- node 1): columns node - parent and ip_id, u32 each.
CREATE TABLE heaptrack_node_chunks (
    trace_id   INTEGER NOT NULL REFERENCES traces(id) ON DELETE CASCADE,
    first_node INTEGER NOT NULL,
    node_count INTEGER NOT NULL,
    codec      INTEGER NOT NULL,
    data       BLOB    NOT NULL,
    PRIMARY KEY (trace_id, first_node)
);
-- heaptrack: the backtraces merged into each site with their own costs, sorted by site and
-- node, entry_count of them per chunk, sites first_site..last_site.
CREATE TABLE heaptrack_site_stack_chunks (
    trace_id    INTEGER NOT NULL REFERENCES traces(id) ON DELETE CASCADE,
    chunk       INTEGER NOT NULL,
    first_site  INTEGER NOT NULL,
    last_site   INTEGER NOT NULL,
    entry_count INTEGER NOT NULL,
    codec       INTEGER NOT NULL,
    data        BLOB    NOT NULL,
    PRIMARY KEY (trace_id, chunk)
);
-- How many backtraces each site merges (NULL for traces imported before step 7: count
-- their heaptrack_site_stacks rows).
ALTER TABLE heaptrack_sites ADD COLUMN stacks INTEGER;
)SQL";

// Schema step 11: the strings and the instruction pointers with their frames as compressed
// column chunks (formats/heaptrack/HeaptrackFrameChunks.h) instead of a row per frame with its
// texts (77,616 rows, 6 MB of a 13 MB store, for a real PyTorch recording). Imports from step
// 11 on leave heaptrack_frames empty; the readers still read it for traces imported before.
inline constexpr const char* kHeaptrackFrameChunksSchemaSql = R"SQL(
-- heaptrack: the file's strings (module, function and file names), string_count of them from
-- first_string on (ids as in the file, from 1; 0 = none): their lengths, then their bytes.
CREATE TABLE heaptrack_string_chunks (
    trace_id     INTEGER NOT NULL REFERENCES traces(id) ON DELETE CASCADE,
    first_string INTEGER NOT NULL,
    string_count INTEGER NOT NULL,
    codec        INTEGER NOT NULL,
    data         BLOB    NOT NULL,
    PRIMARY KEY (trace_id, first_string)
) WITHOUT ROWID;
-- heaptrack: instruction pointers ip_count of them from first_ip on (from ip 1): address,
-- module, function, file, line and the count of frames inlined into each, then those frames
-- (function, file, line), innermost first. Texts are string ids.
CREATE TABLE heaptrack_frame_chunks (
    trace_id INTEGER NOT NULL REFERENCES traces(id) ON DELETE CASCADE,
    first_ip INTEGER NOT NULL,
    ip_count INTEGER NOT NULL,
    codec    INTEGER NOT NULL,
    data     BLOB    NOT NULL,
    PRIMARY KEY (trace_id, first_ip)
) WITHOUT ROWID;
)SQL";

// Step 12: node and site stack chunks in codec 2, narrow columns (HeaptrackChunks.cpp; issue 33).
// No table changes: an older memviz refuses these stores by their version instead of calling
// their chunks damaged. Codec 1 chunks are still read.
inline constexpr const char* kHeaptrackNarrowChunksSql = "-- version 12: heaptrack node and site stack chunks in codec 2";

} // namespace memviz

// SPDX-License-Identifier: MIT
#pragma once
// The Valgrind massif tables (schema step 2, registered in formats/FormatRegistry.cpp).
// Documented in docs/formats-native.md.
namespace memviz {

inline constexpr const char* kMassifSchemaSql = R"SQL(
-- massif: every snapshot as ms_print lists it; time is in the file's time_unit.
CREATE TABLE massif_snapshots (
    trace_id     INTEGER NOT NULL REFERENCES traces(id) ON DELETE CASCADE,
    snapshot     INTEGER NOT NULL,
    time         TEXT    NOT NULL, -- as written, in the file's time_unit
    x            INTEGER NOT NULL, -- position on the timeline: ns for ms and s files, else the time
    heap_bytes   INTEGER NOT NULL,
    extra_bytes  INTEGER NOT NULL,
    stacks_bytes INTEGER NOT NULL,
    tree         TEXT    NOT NULL, -- 'empty', 'detailed' or 'peak'
    PRIMARY KEY (trace_id, snapshot)
) WITHOUT ROWID;
-- massif: the heap tree of a detailed snapshot, nodes in file order (pre-order).
CREATE TABLE massif_tree_nodes (
    trace_id  INTEGER NOT NULL REFERENCES traces(id) ON DELETE CASCADE,
    snapshot  INTEGER NOT NULL,
    node_id   INTEGER NOT NULL,
    parent_id INTEGER NOT NULL, -- -1 for the root
    bytes     INTEGER NOT NULL,
    address   INTEGER,          -- NULL for the root and "below threshold" entries
    function  TEXT    NOT NULL,
    location  TEXT    NOT NULL, -- "file:line", a module, or empty
    label     TEXT    NOT NULL, -- the label as written
    PRIMARY KEY (trace_id, snapshot, node_id)
) WITHOUT ROWID;
)SQL";

} // namespace memviz

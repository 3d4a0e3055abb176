// SPDX-License-Identifier: MIT
#pragma once
// The profiler's per-operator totals, key_averages style (schema step 3, registered in
// formats/FormatRegistry.cpp; its calls and allocation lifetimes go to the store's
// record_chunks). Documented in docs/schema.md.
namespace memviz {

inline constexpr const char* kProfilerSchemaSql = R"SQL(
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

} // namespace memviz

// SPDX-License-Identifier: MIT
#pragma once
// The table of a native recording (memviz record --native: heaptrack live) beside the live
// tables of LiveSchema.h: schema step 6, registered in formats/FormatRegistry.cpp, documented
// in docs/schema.md. The recording's heap consumed and allocation rate are live_series of
// device 'process' next to its /proc samples; this table holds the top allocation sites as
// the recorder last saw them (replaced at every refresh, so it stays small).
namespace memviz {

inline constexpr const char* kLiveNativeSchemaSql = R"SQL(
CREATE TABLE live_native_sites (
    trace_id   INTEGER NOT NULL REFERENCES traces(id) ON DELETE CASCADE,
    rank       INTEGER NOT NULL, -- 1: the site holding the most bytes at t
    t          INTEGER NOT NULL, -- when the recorder took these figures (ns from its start)
    function   TEXT    NOT NULL, -- innermost frame outside the allocator, as heaptrack_print merges
    location   TEXT    NOT NULL, -- file:line, or the module without debug information
    bytes      INTEGER NOT NULL, -- held at t
    peak_bytes INTEGER NOT NULL, -- most held at once so far
    calls      INTEGER NOT NULL, -- calls to allocation functions so far
    PRIMARY KEY (trace_id, rank)
) WITHOUT ROWID;
)SQL";

} // namespace memviz

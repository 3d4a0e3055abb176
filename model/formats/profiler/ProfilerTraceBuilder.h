// SPDX-License-Identifier: MIT
#pragma once
// Turns a scanned profiler trace into store rows: per-device allocated/reserved series,
// alloc/free events attributed to the innermost op on their thread, allocation lifetimes,
// and every op call with its key_averages memory (inclusive and self, per device).
#include <span>

#include "core/HugePages.h"
#include "formats/profiler/ProfilerRecords.h"

namespace memviz {

class Progress;
class TraceWriter;

void buildProfilerTrace(ScannedTrace& trace, TraceWriter& out, const Progress& progress);

// key_averages' parent of each call: per thread, calls sorted by (start, -end); a call is a
// child of the innermost open call that starts before its end and ends at or after its end.
// Returns the parent index per call (-1 for roots) and counts calls that overlap an open
// call without nesting in it.
// In huge pages (core/HugePages.h), as the records: in 4 KiB pages the tree's arrays were an
// eighth of the 240 MB profiler trace's page faults left.
struct CallTree {
    HugeVector<std::int32_t> parent;
    HugeVector<std::int32_t> depth;
    std::int64_t overlaps = 0;
};
CallTree buildCallTree(std::span<const OpRecord> ops);

} // namespace memviz

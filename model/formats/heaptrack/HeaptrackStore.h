// SPDX-License-Identifier: MIT
#pragma once
// Writes what a heaptrack file defined into the heaptrack_* tables (docs/formats-native.md)
// inside the import's transaction: the totals and the sites (the frames, backtrace nodes and
// allocation infos went in while the file was read: HeaptrackStreamTables).
#include <cstdint>

namespace memviz {

class HeaptrackModel;
class TraceWriter;
struct HeaptrackHeader;

void writeHeaptrackTables(TraceWriter& out, const HeaptrackModel& model, const HeaptrackHeader& header, std::int64_t totalTimeMs);

} // namespace memviz

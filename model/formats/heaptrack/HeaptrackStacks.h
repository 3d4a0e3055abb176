// SPDX-License-Identifier: MIT
#pragma once
// Call trees of a heaptrack import (formats/StackSources.h picks this provider): peak
// contribution, leaked bytes, allocation count and temporary allocations per backtrace as
// heaptrack_print computes them (the site backtraces, HeaptrackChunks.h), and allocated bytes / allocations of
// any time range from the stored allocation events and their allocation infos.
#include <cstdint>
#include <vector>

#include "formats/StackSources.h"

namespace memviz {

std::vector<StackMetric> heaptrackStackMetrics();
StackTree heaptrackStackTree(Database& db, std::int64_t traceId, const StackRequest& request, const Progress* progress);

} // namespace memviz

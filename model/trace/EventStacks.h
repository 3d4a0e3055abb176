// SPDX-License-Identifier: MIT
#pragma once
// Call trees from the `stack` of stored events: bytes alive at a moment (default: the peak of
// each device) or allocated in a time range. A stack name is frames separated by ';',
// outermost first (the allocation log's `stack` column; profiler traces recorded
// with_stack=True: Python frames "file.py(54): forward", then op names, written by
// formats/profiler/ProfilerStacks). Format-independent: any trace whose events carry stack
// names works.
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "store/SeriesQuery.h"
#include "trace/StackTree.h"

namespace memviz {

class Database;
class Progress;

// True when some event of the trace names a stack.
bool eventsHaveStacks(Database& db, std::int64_t traceId);
// metric: "alive" (at `at`, or each device's peak) or "allocated" (in `range`, or all).
StackTree eventStackTree(Database& db, std::int64_t traceId, const std::string& metric, const std::optional<TimeRange>& range,
                         const std::optional<std::int64_t>& at, const FrameFolder& folder, const Progress* progress);

} // namespace memviz

// SPDX-License-Identifier: MIT
#pragma once
// Read side of profiler traces: key_averages-style per-operator memory (optionally by input
// shapes, optionally in a time window), allocation lifetimes, and the calls of one operator.
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "store/SeriesQuery.h"

namespace memviz {

class Database;

struct OpMemory {
    std::int64_t bytes = 0, selfBytes = 0;           // CPU Mem / Self CPU Mem (per device)
    std::int64_t allocs = 0, allocBytes = 0;         // TensorBoard: Allocation Count / Size
    std::int64_t selfAllocs = 0, selfAllocBytes = 0; // Self Allocation Count / Size
};

struct ProfilerOpRow {
    std::string name;
    std::string shapes; // empty unless grouped by input shapes
    std::int64_t calls = 0;
    std::vector<OpMemory> memory; // one per device of the trace, in device order
};

struct ProfilerOpsTable {
    std::vector<std::string> devices; // device names, index = device number
    std::vector<ProfilerOpRow> rows;  // sorted by self bytes of the first device, largest first
};

// True when the trace has op calls (a profiler trace).
bool hasProfilerCalls(Database& db, std::int64_t traceId);

// Calls whose start lies in `range` (all calls when absent).
ProfilerOpsTable queryProfilerOps(Database& db, std::int64_t traceId, std::optional<TimeRange> range, bool groupByShapes);

struct AllocationRow {
    std::int64_t id = 0;
    std::string device;
    std::int64_t address = 0;
    std::int64_t size = 0;
    std::optional<std::int64_t> allocTime; // absent: freed but allocated before the trace
    std::optional<std::int64_t> freeTime;  // absent: still alive at the end
    std::string op;                        // innermost op on the same thread at allocation
    std::string thread;
};

// Allocations and frees with an event in the window (all when absent), by allocation time.
std::vector<AllocationRow> queryAllocations(Database& db, std::int64_t traceId, std::optional<TimeRange> range,
                                            std::size_t limit);
std::int64_t countAllocations(Database& db, std::int64_t traceId);

struct CallSpan {
    std::int64_t begin = 0, end = 0;
};
// The calls of an operator (by name) overlapping the range, at most `limit`.
std::vector<CallSpan> queryCallSpans(Database& db, std::int64_t traceId, const std::string& name, TimeRange range,
                                     std::size_t limit);

struct NamedCallSpan {
    std::string name;
    std::int64_t begin = 0, end = 0;
};
// The calls named `name` (or, with `prefix`, whose name starts with it: "ProfilerStep#"), in
// the order of their start, at most `limit`; one pass over the call records.
std::vector<NamedCallSpan> queryNamedCallSpans(Database& db, std::int64_t traceId, const std::string& name, bool prefix,
                                               std::size_t limit);

} // namespace memviz

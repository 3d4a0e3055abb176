// SPDX-License-Identifier: MIT
#pragma once
// Per-operator memory: allocations, bytes allocated and freed, net bytes and the largest
// single allocation, for the whole trace (precomputed at import) or a time window (read
// from the event chunks that overlap it).
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "store/SeriesQuery.h"

namespace memviz {

class Database;
class Progress;

struct OpRow {
    std::string name;
    std::int64_t allocs = 0;
    std::int64_t frees = 0;
    std::int64_t bytesAllocated = 0;
    std::int64_t bytesFreed = 0;
    std::int64_t largestAlloc = 0;
    std::int64_t netBytes() const { return bytesAllocated - bytesFreed; }
};

// The name shown for events that carry no operator.
constexpr const char* kNoOpName = "(no operator)";

struct OpsFilter {
    std::optional<int> device;      // all devices when absent
    std::optional<TimeRange> range; // whole trace when absent
};

// Rows sorted by bytes allocated, largest first.
std::vector<OpRow> queryOps(Database& db, std::int64_t traceId, const OpsFilter& filter, const Progress* progress = nullptr);

} // namespace memviz

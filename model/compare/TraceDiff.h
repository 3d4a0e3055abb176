// SPDX-License-Identifier: MIT
#pragma once
// Two traces compared (`memviz diff A B`, issue 13): per device the peak, the time of the
// peak, the final bytes and the allocations of each; per operator the bytes and allocations;
// for heaptrack recordings per allocation site the figures heaptrack_print --diff prints.
// Rows are matched by name (devices, operators) or by source location (sites); a row that is
// in one trace only has zeros for the other. Every delta is B - A. Plain functions over query
// results, so they are tested without a store.
#include <cstdint>
#include <string>
#include <vector>

#include "formats/heaptrack/HeaptrackQueries.h"
#include "store/OpsQuery.h"
#include "store/TraceQueries.h"

namespace memviz {

struct DiffValue {
    std::int64_t a = 0;
    std::int64_t b = 0;
    std::int64_t delta() const { return b - a; }
};

struct DeviceDiff {
    std::string name;
    bool inA = false, inB = false;
    DiffValue peakBytes, peakTimeNs, finalBytes, allocs;
};

struct OpDiff {
    std::string name;
    DiffValue bytesAllocated, allocs, netBytes;
};

struct SiteDiff {
    std::string function; // empty when unresolved (then the module names it)
    std::string module, file;
    std::int64_t line = 0;
    DiffValue allocations, temporary, peakBytes, leakedBytes;
};

// Devices in A's order, then those only in B.
std::vector<DeviceDiff> diffDevices(const TraceSummary& a, const TraceSummary& b);
// Largest |delta of bytes allocated| first, then by name.
std::vector<OpDiff> diffOps(const std::vector<OpRow>& a, const std::vector<OpRow>& b);
// Sites matched by function, file, line and module (addresses differ between runs); most
// changed allocation calls first (heaptrack_print --diff's first list), then |delta of peak|.
std::vector<SiteDiff> diffAllocationSites(const std::vector<AllocationSite>& a, const std::vector<AllocationSite>& b);

} // namespace memviz

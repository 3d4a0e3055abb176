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
#include "formats/snapshot/SnapshotRows.h"
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

// A CUDA snapshot's final segment that is in one snapshot only, or in both with other
// allocated or active bytes. Segments match by (address, total size), as
// torch.cuda._memory_viz.compare matches them.
struct SegmentDiff {
    bool inA = false, inB = false;
    std::int64_t address = 0, totalSize = 0, stream = 0;
    DiffValue allocatedBytes, activeBytes;
};

// Devices in A's order, then those only in B.
std::vector<DeviceDiff> diffDevices(const TraceSummary& a, const TraceSummary& b);
// Largest |delta of bytes allocated| first, then by name.
std::vector<OpDiff> diffOps(const std::vector<OpRow>& a, const std::vector<OpRow>& b);
// Sites matched by function, file, line and module (addresses differ between runs); most
// changed allocation calls first (heaptrack_print --diff's first list), then |delta of peak|.
std::vector<SiteDiff> diffAllocationSites(const std::vector<AllocationSite>& a, const std::vector<AllocationSite>& b);

// One device's segments: only in A (A's order), only in B (B's order), then those in both
// whose allocated or active bytes changed.
std::vector<SegmentDiff> diffSegments(const std::vector<SnapshotSegmentRow>& a, const std::vector<SnapshotSegmentRow>& b);

} // namespace memviz

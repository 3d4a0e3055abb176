// SPDX-License-Identifier: MIT
#pragma once
// Two CUDA snapshots compared beyond their segments (`memviz diff`, issue 13): the final blocks
// of the allocator (only in A, only in B, or in both with another size, request or state), and
// the allocations alive at each snapshot's own peak, grouped by call site (the innermost Python
// frame, as the snapshot's allocation list names it). Plain functions over query results, so
// they are tested without a store. B - A throughout (TraceDiff.h).
#include <cstdint>
#include <string>
#include <vector>

#include "compare/TraceDiff.h"
#include "formats/snapshot/SnapshotRows.h"

namespace memviz {

struct StackCatalog;

struct BlockDiff {
    bool inA = false, inB = false;
    std::int64_t segmentAddress = 0, address = 0;
    DiffValue size, requestedSize;
    std::string stateA, stateB; // empty on the side without the block
    std::int32_t stackA = -1, stackB = -1;
};

// Blocks match by their segment (address and total size, as torch.cuda._memory_viz.compare
// matches segments) and their own address, so every block of a segment in one snapshot only
// is in that snapshot only. Order: only in A, only in B, then those in both whose size,
// requested size or state changed; each group by segment and address.
std::vector<BlockDiff> diffBlocks(const std::vector<SnapshotSegmentRow>& segmentsA, const std::vector<SnapshotBlockRow>& a,
                                  const std::vector<SnapshotSegmentRow>& segmentsB, const std::vector<SnapshotBlockRow>& b);

// The requested bytes and the number of the allocations alive after entry `moment`
// (SnapshotQueries' aliveAt), per call site.
struct SiteBytes {
    std::string site;
    std::int64_t bytes = 0, allocations = 0;
};
std::vector<SiteBytes> aliveBySite(const std::vector<SnapshotAllocationRow>& all, std::int64_t moment,
                                   const StackCatalog& stacks);

// The entry after which the allocations alive hold the most requested bytes (the first such;
// -1 when that is before the first entry): the peak of the allocations themselves, so the
// sites' bytes at it add up to it whatever entries share a timestamp.
std::int64_t peakEntry(const std::vector<SnapshotAllocationRow>& all);

struct PeakSiteDiff {
    std::string site;
    DiffValue bytes, allocations;
};
// Sites matched by name; largest |delta of bytes| first, then by site.
std::vector<PeakSiteDiff> diffPeakSites(const std::vector<SiteBytes>& a, const std::vector<SiteBytes>& b);

} // namespace memviz

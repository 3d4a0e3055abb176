// SPDX-License-Identifier: MIT
#include "compare/SnapshotDiff.h"

#include <algorithm>
#include <cstdlib>
#include <map>
#include <tuple>
#include <unordered_map>

#include "formats/snapshot/SnapshotQueries.h"

namespace memviz {

namespace {

// (segment address, segment total size, block address): a block's identity across snapshots.
using BlockKey = std::tuple<std::int64_t, std::int64_t, std::int64_t>;

std::map<BlockKey, const SnapshotBlockRow*> keyed(const std::vector<SnapshotSegmentRow>& segments,
                                                 const std::vector<SnapshotBlockRow>& blocks) {
    std::unordered_map<std::int64_t, std::int64_t> segmentSize;
    for (const SnapshotSegmentRow& s : segments) segmentSize[s.address] = s.totalSize;
    std::map<BlockKey, const SnapshotBlockRow*> out;
    for (const SnapshotBlockRow& b : blocks) {
        const auto it = segmentSize.find(b.segmentAddress);
        out.emplace(BlockKey{b.segmentAddress, it == segmentSize.end() ? -1 : it->second, b.address}, &b);
    }
    return out;
}

BlockDiff oneSide(const SnapshotBlockRow& r, bool isB) {
    BlockDiff d;
    d.segmentAddress = r.segmentAddress;
    d.address = r.address;
    (isB ? d.inB : d.inA) = true;
    (isB ? d.size.b : d.size.a) = r.size;
    (isB ? d.requestedSize.b : d.requestedSize.a) = r.requestedSize;
    (isB ? d.stateB : d.stateA) = r.state;
    (isB ? d.stackB : d.stackA) = r.stack;
    return d;
}

} // namespace

std::vector<BlockDiff> diffBlocks(const std::vector<SnapshotSegmentRow>& segmentsA, const std::vector<SnapshotBlockRow>& a,
                                  const std::vector<SnapshotSegmentRow>& segmentsB, const std::vector<SnapshotBlockRow>& b) {
    const auto inA = keyed(segmentsA, a), inB = keyed(segmentsB, b);
    std::vector<BlockDiff> onlyA, onlyB, changed;
    for (const auto& [key, row] : inA) {
        const auto other = inB.find(key);
        if (other == inB.end()) {
            onlyA.push_back(oneSide(*row, false));
            continue;
        }
        const SnapshotBlockRow& rb = *other->second;
        if (row->size == rb.size && row->requestedSize == rb.requestedSize && row->state == rb.state) continue;
        BlockDiff d = oneSide(*row, false);
        d.inB = true;
        d.size.b = rb.size;
        d.requestedSize.b = rb.requestedSize;
        d.stateB = rb.state;
        d.stackB = rb.stack;
        changed.push_back(std::move(d));
    }
    for (const auto& [key, row] : inB)
        if (!inA.count(key)) onlyB.push_back(oneSide(*row, true));
    // Each side in its own (address) order, as the segments are listed.
    std::vector<BlockDiff> out = std::move(onlyA);
    out.insert(out.end(), onlyB.begin(), onlyB.end());
    out.insert(out.end(), changed.begin(), changed.end());
    return out;
}

std::vector<SiteBytes> aliveBySite(const std::vector<SnapshotAllocationRow>& all, std::int64_t moment,
                                   const StackCatalog& stacks) {
    std::unordered_map<std::int32_t, std::string> siteOfStack;
    std::map<std::string, SiteBytes> bySite;
    for (const std::size_t i : aliveAt(all, moment)) {
        const SnapshotAllocationRow& r = all[i];
        auto it = siteOfStack.find(r.stack);
        if (it == siteOfStack.end()) it = siteOfStack.emplace(r.stack, r.stack < 0 ? std::string() : stacks.siteOf(r.stack)).first;
        SiteBytes& s = bySite[it->second];
        s.site = it->second;
        s.bytes += r.requestedSize;
        ++s.allocations;
    }
    std::vector<SiteBytes> out;
    out.reserve(bySite.size());
    for (auto& [site, s] : bySite) out.push_back(std::move(s));
    return out;
}

std::int64_t peakEntry(const std::vector<SnapshotAllocationRow>& all) {
    std::int64_t live = 0;
    std::map<std::int64_t, std::int64_t> change; // entry -> bytes it adds or frees
    for (const SnapshotAllocationRow& r : all) {
        if (r.allocSeq < 0) live += r.requestedSize;
        else change[r.allocSeq] += r.requestedSize;
        if (r.freeSeq) change[*r.freeSeq] -= r.requestedSize;
    }
    std::int64_t best = live, at = -1;
    for (const auto& [entry, bytes] : change) {
        live += bytes;
        if (live > best) {
            best = live;
            at = entry;
        }
    }
    return at;
}

std::vector<PeakSiteDiff> diffPeakSites(const std::vector<SiteBytes>& a, const std::vector<SiteBytes>& b) {
    std::map<std::string, PeakSiteDiff> bySite;
    for (const SiteBytes& s : a) {
        PeakSiteDiff& d = bySite[s.site];
        d.site = s.site;
        d.bytes.a += s.bytes;
        d.allocations.a += s.allocations;
    }
    for (const SiteBytes& s : b) {
        PeakSiteDiff& d = bySite[s.site];
        d.site = s.site;
        d.bytes.b += s.bytes;
        d.allocations.b += s.allocations;
    }
    std::vector<PeakSiteDiff> out;
    for (auto& [site, d] : bySite) out.push_back(std::move(d));
    std::stable_sort(out.begin(), out.end(), [](const PeakSiteDiff& x, const PeakSiteDiff& y) {
        return std::llabs(x.bytes.delta()) > std::llabs(y.bytes.delta());
    });
    return out;
}

} // namespace memviz

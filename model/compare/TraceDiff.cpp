// SPDX-License-Identifier: MIT
#include "compare/TraceDiff.h"

#include <algorithm>
#include <cstdlib>
#include <map>
#include <tuple>

namespace memviz {

namespace {

// Rows of A and B matched by key, in the order the keys first appear (A first, then B);
// `fill(row, value, isB)` copies a row's figures into the A or B side of its diff.
template <class Diff, class Row, class KeyFn, class FillFn>
std::vector<Diff> matchRows(const std::vector<Row>& a, const std::vector<Row>& b, KeyFn key, FillFn fill) {
    std::vector<Diff> out;
    std::map<decltype(key(a.front())), std::size_t> index;
    auto add = [&](const Row& row, bool isB) {
        const auto [it, added] = index.emplace(key(row), out.size());
        if (added) out.emplace_back();
        fill(row, out[it->second], isB);
    };
    for (const Row& row : a) add(row, false);
    for (const Row& row : b) add(row, true);
    return out;
}

void set(DiffValue& v, std::int64_t value, bool isB) { (isB ? v.b : v.a) += value; }

} // namespace

std::vector<DeviceDiff> diffDevices(const TraceSummary& a, const TraceSummary& b) {
    return matchRows<DeviceDiff>(
        a.devices, b.devices, [](const DeviceSummary& d) { return d.name; },
        [](const DeviceSummary& d, DeviceDiff& out, bool isB) {
            out.name = d.name;
            (isB ? out.inB : out.inA) = true;
            set(out.peakBytes, d.peakBytes, isB);
            set(out.peakTimeNs, d.peakTimeNs, isB);
            set(out.finalBytes, d.finalBytes, isB);
            set(out.allocs, d.allocs, isB);
        });
}

std::vector<OpDiff> diffOps(const std::vector<OpRow>& a, const std::vector<OpRow>& b) {
    auto out = matchRows<OpDiff>(
        a, b, [](const OpRow& r) { return r.name; },
        [](const OpRow& r, OpDiff& d, bool isB) {
            d.name = r.name;
            set(d.bytesAllocated, r.bytesAllocated, isB);
            set(d.allocs, r.allocs, isB);
            set(d.netBytes, r.netBytes(), isB);
        });
    std::stable_sort(out.begin(), out.end(), [](const OpDiff& x, const OpDiff& y) {
        const auto dx = std::llabs(x.bytesAllocated.delta()), dy = std::llabs(y.bytesAllocated.delta());
        return dx != dy ? dx > dy : x.name < y.name;
    });
    return out;
}

std::vector<SiteDiff> diffAllocationSites(const std::vector<AllocationSite>& a, const std::vector<AllocationSite>& b) {
    auto out = matchRows<SiteDiff>(
        a, b, [](const AllocationSite& s) { return std::make_tuple(s.function, s.file, s.line, s.module); },
        [](const AllocationSite& s, SiteDiff& d, bool isB) {
            d.function = s.function;
            d.module = s.module;
            d.file = s.file;
            d.line = s.line;
            set(d.allocations, s.allocations, isB);
            set(d.temporary, s.temporary, isB);
            set(d.peakBytes, s.peakBytes, isB);
            set(d.leakedBytes, s.leakedBytes, isB);
        });
    std::stable_sort(out.begin(), out.end(), [](const SiteDiff& x, const SiteDiff& y) {
        const auto cx = std::llabs(x.allocations.delta()), cy = std::llabs(y.allocations.delta());
        if (cx != cy) return cx > cy;
        return std::llabs(x.peakBytes.delta()) > std::llabs(y.peakBytes.delta());
    });
    return out;
}

std::vector<SegmentDiff> diffSegments(const std::vector<SnapshotSegmentRow>& a, const std::vector<SnapshotSegmentRow>& b) {
    auto all = matchRows<SegmentDiff>(
        a, b, [](const SnapshotSegmentRow& r) { return std::make_pair(r.address, r.totalSize); },
        [](const SnapshotSegmentRow& r, SegmentDiff& d, bool isB) {
            (isB ? d.inB : d.inA) = true;
            d.address = r.address;
            d.totalSize = r.totalSize;
            d.stream = r.stream;
            set(d.allocatedBytes, r.allocatedSize, isB);
            set(d.activeBytes, r.activeSize, isB);
        });
    std::vector<SegmentDiff> out;
    for (const auto& [inA, inB] : {std::pair{true, false}, {false, true}, {true, true}})
        for (const SegmentDiff& d : all)
            if (d.inA == inA && d.inB == inB && (!(inA && inB) || d.allocatedBytes.delta() || d.activeBytes.delta()))
                out.push_back(d);
    return out;
}

} // namespace memviz

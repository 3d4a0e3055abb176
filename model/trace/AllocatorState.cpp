// SPDX-License-Identifier: MIT
#include "trace/AllocatorState.h"

#include <algorithm>
#include <iterator>
#include <map>
#include <unordered_map>

namespace memviz {

std::int64_t StateSegment::usedBytes() const {
    std::int64_t used = 0;
    for (const StateBlock& b : blocks) used += b.size;
    return used;
}

std::int64_t StateSegment::largestFree() const {
    std::int64_t largest = 0, cursor = address;
    for (const StateBlock& b : blocks) {
        largest = std::max(largest, b.address - cursor);
        cursor = std::max(cursor, b.address + b.size);
    }
    return std::max(largest, address + size - cursor);
}

namespace {

struct Seg {
    std::int64_t size = 0, stream = 0;
    std::int32_t stack = kNoName;
    bool expandable = false;
};
using SegMap = std::map<std::int64_t, Seg>;

// The segment that contains [address, address + size), or end().
SegMap::iterator containing(SegMap& segs, std::int64_t address, std::int64_t size) {
    auto it = segs.upper_bound(address);
    if (it == segs.begin()) return segs.end();
    --it;
    return address + size <= it->first + it->second.size ? it : segs.end();
}

// Undoing segment_map: the mapped range leaves the expandable segment holding it.
void unmapRange(SegMap& segs, std::int64_t address, std::int64_t size) {
    const auto it = containing(segs, address, size);
    if (it == segs.end()) return;
    const std::int64_t start = it->first, end = it->first + it->second.size;
    Seg seg = it->second;
    segs.erase(it);
    if (address > start) segs[start] = Seg{address - start, seg.stream, seg.stack, seg.expandable};
    if (address + size < end) segs[address + size] = Seg{end - address - size, seg.stream, seg.stack, seg.expandable};
}

// Undoing segment_unmap: the range comes back and joins the segments it touches.
void mapRange(SegMap& segs, std::int64_t address, std::int64_t size) {
    Seg seg{size, 0, kNoName, true};
    std::int64_t start = address;
    auto next = segs.lower_bound(address);
    if (next != segs.end() && next->first == address + size) {
        seg.size += next->second.size;
        seg.stream = next->second.stream;
        seg.stack = next->second.stack;
        next = segs.erase(next);
    }
    if (next != segs.begin()) {
        auto prev = std::prev(next);
        if (prev->first + prev->second.size == address) {
            start = prev->first;
            seg.size += prev->second.size;
            seg.stream = prev->second.stream;
            seg.stack = prev->second.stack;
            segs.erase(prev);
        }
    }
    segs[start] = seg;
}

} // namespace

AllocatorState reconstructState(std::span<const FinalSegment> segments, std::span<const FinalBlock> blocks,
                                std::span<const Event> later, bool legacyFrees) {
    SegMap segs;
    for (const FinalSegment& s : segments) segs[s.address] = Seg{s.size, s.stream, s.stack, s.expandable};
    std::unordered_map<std::int64_t, StateBlock> live;
    live.reserve(blocks.size() + 64);
    for (const FinalBlock& b : blocks) live[b.address] = StateBlock{b.address, b.size, b.requestedSize, b.stack, b.kind, false};

    for (auto it = later.rbegin(); it != later.rend(); ++it) {
        const Event& e = *it;
        switch (e.kind) {
        case EventKind::Alloc: live.erase(e.address); break;
        case EventKind::Free:
            if (e.flags & kFlagUnmatched) break;
            live[e.address] = StateBlock{
                e.address, e.size, e.size, e.stack, legacyFrees ? StateBlockKind::Allocated : StateBlockKind::PendingFree, true};
            break;
        case EventKind::FreeRequested:
            if (const auto b = live.find(e.address); b != live.end()) b->second.kind = StateBlockKind::Allocated;
            break;
        case EventKind::SegmentAlloc: segs.erase(e.address); break;
        case EventKind::SegmentFree: segs[e.address] = Seg{e.size, 0, e.stack, false}; break;
        case EventKind::SegmentMap: unmapRange(segs, e.address, e.size); break;
        case EventKind::SegmentUnmap: mapRange(segs, e.address, e.size); break;
        default: break;
        }
    }

    AllocatorState state;
    state.segments.reserve(segs.size());
    for (const auto& [address, s] : segs)
        state.segments.push_back(StateSegment{address, s.size, s.stream, s.stack, s.expandable, {}});
    std::vector<StateBlock> sorted;
    sorted.reserve(live.size());
    for (const auto& [address, b] : live) sorted.push_back(b);
    std::sort(sorted.begin(), sorted.end(), [](const StateBlock& a, const StateBlock& b) { return a.address < b.address; });
    StateFigures& f = state.figures;
    std::size_t si = 0;
    for (const StateBlock& b : sorted) {
        while (si < state.segments.size() && state.segments[si].address + state.segments[si].size <= b.address) ++si;
        if (si == state.segments.size() || b.address < state.segments[si].address) {
            ++f.blocksOutsideSegments;
            continue;
        }
        state.segments[si].blocks.push_back(b);
    }
    for (const StateSegment& s : state.segments) {
        ++f.segments;
        f.reserved += s.size;
        std::int64_t used = 0;
        for (const StateBlock& b : s.blocks) {
            ++f.blocks;
            used += b.size;
            if (b.kind == StateBlockKind::Allocated) {
                f.allocated += b.size;
                f.requested += b.requestedSize;
            } else {
                f.pendingFree += b.size;
            }
        }
        if (!s.blocks.empty()) f.inactiveSplit += std::max<std::int64_t>(0, s.size - used);
        f.largestFree = std::max(f.largestFree, s.largestFree());
    }
    f.free = f.reserved - f.allocated - f.pendingFree;
    return state;
}

} // namespace memviz

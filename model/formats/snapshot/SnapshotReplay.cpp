// SPDX-License-Identifier: MIT
#include "formats/snapshot/SnapshotReplay.h"

#include <algorithm>
#include <new>
#include <string>

#include "core/Errors.h"
#include "trace/AddressMap.h"

namespace memviz::snapshot {

namespace {

// Sums of sizes from a file: 64-bit overflow is bad input, not undefined behaviour.
void addChecked(std::int64_t& total, std::int64_t delta, const char* what) {
    if (__builtin_add_overflow(total, delta, &total)) throw ImportError(std::string("snapshot: ") + what + " overflow 64 bits");
}

} // namespace

struct ReplayPass::Addresses {
    // Every address the trace names: the open allocation at it (>= 0), or kFreed when its last
    // record is a free. One open-addressing table (std::unordered_map and _set took a third of
    // the replay, issue 33).
    static constexpr std::int32_t kFreed = -1;
    AddressMap<std::int32_t> map;
};

namespace {

std::int32_t newAllocation(DeviceReplay& r, const Allocation& a) {
    if (r.allocations.size() >= 0x7fffffff) throw ImportError("snapshot: more than 2^31 allocations on one device");
    r.allocations.push_back(a);
    return static_cast<std::int32_t>(r.allocations.size() - 1);
}

} // namespace

ReplayPass::ReplayPass() : at_(std::make_unique<Addresses>()) {
    r_.actionCounts.assign(static_cast<std::size_t>(Action::Unknown) + 1, 0);
}
ReplayPass::~ReplayPass() = default;
ReplayPass::ReplayPass(ReplayPass&&) noexcept = default;
ReplayPass& ReplayPass::operator=(ReplayPass&&) noexcept = default;

// Space reserved but never written costs address space, not memory, and growing by doubling
// would hold the old and the new array at once.
void ReplayPass::reserveAllocations(std::size_t n) {
    try {
        r_.allocations.reserve(std::min<std::size_t>(n, 0x7fffffff));
        r_.frees.reserve(std::min<std::size_t>(n, 0x7fffffff));
    } catch (const std::bad_alloc&) {
        // A hint: they grow as they come.
    }
}

void ReplayPass::feed(std::span<const Entry> next) {
    constexpr std::int32_t kFreed = Addresses::kFreed;
    AddressMap<std::int32_t>& at = at_->map;
    DeviceReplay& r = r_;
    for (const Entry& e : next) {
        const auto seq = static_cast<std::int64_t>(replayed_);
        ++r.actionCounts[static_cast<std::size_t>(e.action)];
        switch (e.action) {
        case Action::Alloc: {
            std::int32_t* state = at.find(e.addr);
            if (state && *state != kFreed) {
                Allocation& old = r.allocations[static_cast<std::size_t>(*state)];
                old.freeSeq = seq;
                r.implicitFrees.emplace_back(seq, *state);
                addChecked(running_, -old.requestedSize, "allocated bytes");
                ++r.allocsOverLive;
                --liveCount_;
            }
            const std::int32_t id = newAllocation(r, {e.addr, e.size, -1, seq, -1, e.stack, kNoName, Origin::Traced});
            if (state) *state = id;
            else at.put(e.addr, id);
            ++liveCount_;
            addChecked(running_, e.size, "allocated bytes");
            break;
        }
        case Action::FreeCompleted:
        case Action::Free: {
            std::int32_t* state = at.find(e.addr);
            if (state && *state != kFreed) {
                Allocation& a = r.allocations[static_cast<std::size_t>(*state)];
                a.freeSeq = seq;
                a.freeStack = e.stack;
                addChecked(running_, -a.requestedSize, "allocated bytes");
                r.frees.push_back(*state);
                *state = kFreed;
                --liveCount_;
            } else if (state) {
                ++r.doubleFrees;
                r.frees.push_back(-1);
            } else {
                // Allocated before the trace began (the ring buffer dropped its alloc).
                r.frees.push_back(
                    newAllocation(r, {e.addr, e.size, -1, -1, seq, e.stack, e.stack, Origin::BeforeTraceFreed}));
                addChecked(r.baselineBytes, e.size, "pre-existing bytes");
                ++r.baselineBlocks;
                ++r.baselineFreedBlocks;
                addChecked(running_, -e.size, "allocated bytes");
                at.put(e.addr, kFreed);
            }
            break;
        }
        case Action::SegmentAlloc:
        case Action::SegmentMap: addChecked(reservedDelta_, e.size, "reserved bytes"); break;
        case Action::SegmentFree:
        case Action::SegmentUnmap: addChecked(reservedDelta_, -e.size, "reserved bytes"); break;
        default: break;
        }
        // Allocated bytes after this entry, relative to the baseline (known only at the end).
        if (seq == 0 || running_ < lowest_) lowest_ = running_;
        if (seq == 0 || running_ > highest_) highest_ = running_;
        if (running_ > peak_) {
            peak_ = running_;
            r.peakSeq = seq; // the first entry at the maximum
        }
        ++replayed_;
    }
}

DeviceReplay ReplayPass::finish(std::span<const ExtrasRun> extras, std::span<const Segment* const> segments,
                                std::size_t unknownActionNames) && {
    constexpr std::int32_t kFreed = Addresses::kFreed;
    AddressMap<std::int32_t>& at = at_->map;
    DeviceReplay r = std::move(r_);
    const std::size_t n = replayed_;
    r.unknownActionCounts.assign(unknownActionNames, 0);
    // Only entries of an unknown action have one, so a run that names one is all such entries.
    for (std::size_t i = 0; i < extras.size(); ++i) {
        const std::int32_t u = extras[i].extras.unknownAction;
        if (u < 0 || static_cast<std::size_t>(u) >= r.unknownActionCounts.size()) continue;
        const std::int64_t end = i + 1 < extras.size() ? extras[i + 1].firstSeq : static_cast<std::int64_t>(n);
        r.unknownActionCounts[static_cast<std::size_t>(u)] += end - extras[i].firstSeq;
    }

    // The end state: what the segments show allocated, matched against the trace.
    for (const Segment* s : segments) {
        addChecked(r.reservedFinal, s->totalSize, "reserved bytes");
        ++r.segments;
        for (const Block& b : s->blocks) {
            if (!isAllocatedState(b.state)) continue;
            if (b.state == BlockState::ActiveAllocated) {
                addChecked(r.finalActiveRequested, b.requestedSize, "allocated block bytes");
                addChecked(r.finalActiveBytes, b.size, "allocated block bytes");
            } else {
                addChecked(r.finalPendingRequested, b.requestedSize, "allocated block bytes");
            }
            std::int32_t* state = at.find(b.address);
            if (state && *state != kFreed) {
                Allocation& a = r.allocations[static_cast<std::size_t>(*state)];
                a.blockSize = b.size;
                if (a.requestedSize != b.requestedSize) ++r.sizeMismatches;
                at.take(b.address); // matched: a second block at the address is another allocation
                --liveCount_;
                continue;
            }
            if (state) ++r.endBlocksFreedInTrace;
            newAllocation(r, {b.address, b.requestedSize, b.size, -1, -1, b.stack, kNoName, Origin::BeforeTraceAlive});
            addChecked(r.baselineBytes, b.requestedSize, "pre-existing bytes");
            ++r.baselineBlocks;
        }
    }
    r.unmatchedLive = liveCount_;
    r.reservedInitial = r.reservedFinal;
    addChecked(r.reservedInitial, -reservedDelta_, "reserved bytes");

    // Every entry's allocated bytes lie between the lowest and the highest: when both fit in 64
    // bits with the baseline, so do all of them (the builder adds them up again while emitting).
    if (n) {
        std::int64_t bound = r.baselineBytes;
        addChecked(bound, lowest_, "allocated bytes");
        bound = r.baselineBytes;
        addChecked(bound, highest_, "allocated bytes");
    }
    r.peakBytes = r.baselineBytes + peak_;
    r.finalReplayed = r.baselineBytes + (n ? running_ : 0);
    at_.reset(); // the emit stage does not need it
    return r;
}

DeviceReplay replayDevice(std::span<const Entry> entries, std::span<const ExtrasRun> extras,
                          std::span<const Segment* const> segments, std::size_t unknownActionNames) {
    // At most one allocation per alloc or free entry and per allocated block at the end.
    std::size_t most = 0;
    for (const Entry& e : entries)
        most += e.action == Action::Alloc || e.action == Action::FreeCompleted || e.action == Action::Free;
    for (const Segment* s : segments)
        for (const Block& b : s->blocks) most += isAllocatedState(b.state);
    ReplayPass pass;
    pass.reserveAllocations(most);
    pass.feed(entries);
    return std::move(pass).finish(extras, segments, unknownActionNames);
}

} // namespace memviz::snapshot

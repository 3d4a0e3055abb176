// SPDX-License-Identifier: MIT
#pragma once
// The semantics of a snapshot's trace, per device (docs/formats-snapshot.md):
// - allocated bytes: `alloc` adds its size, `free_completed` (legacy `free`) subtracts it;
// - the ring buffer drops the oldest entries, so allocations that existed before the trace
//   began show up as frees without an alloc, or as blocks alive at the end without an alloc:
//   both are a pre-existing baseline that allocated bytes start from, so they never go
//   negative;
// - reserved bytes: segment_alloc/segment_map add, segment_free/segment_unmap subtract,
//   anchored so that the end equals the total size of the final segments;
// - consistency: allocated bytes replayed to the end equal the requested sizes of the blocks
//   the final segments show as allocated.
#include <cstdint>
#include <memory>
#include <span>
#include <utility>
#include <vector>

#include "core/HugePages.h"
#include "formats/snapshot/SnapshotData.h"

namespace memviz::snapshot {

enum class Origin : std::uint8_t {
    Traced = 0,           // its alloc is in the trace
    BeforeTraceFreed = 1, // made before the trace began, freed during it
    BeforeTraceAlive = 2, // made before the trace began, still alive at the end
};

struct Allocation {
    std::int64_t address = 0;
    std::int64_t requestedSize = 0; // bytes asked for: what the trace records
    std::int64_t blockSize = -1;    // the allocator's block when the final segments show it, else -1
    std::int64_t allocSeq = -1;     // entry index of the alloc; -1 before the trace began
    std::int64_t freeSeq = -1;      // entry index of the free; -1 when alive at the end
    std::int32_t stack = kNoName;   // where it was allocated (for BeforeTraceFreed: where it was freed)
    std::int32_t freeStack = kNoName;
    Origin origin = Origin::Traced;
};

// Nothing here grows with the number of entries, only with the number of allocations and frees:
// the builder recomputes per-entry figures (allocated bytes after an entry) while it emits the
// entries in order (issue 12: memory of a streamed import).
struct DeviceReplay {
    // In the order the replay made them: at their alloc entry (Traced) or at their free entry
    // (BeforeTraceFreed), in entry order, then the BeforeTraceAlive ones of the final segments.
    // In huge pages where allowed (core/HugePages.h): 4.3M allocations of a 1 GB snapshot are
    // 240 MB filled front to back, a third of its import's page faults in 4 KiB pages.
    HugeVector<Allocation> allocations;
    std::vector<std::pair<std::int64_t, std::int32_t>> implicitFrees; // (alloc entry, allocation it displaced)
    // Per free entry (free_completed, legacy free), in entry order: the allocation it closes,
    // or -1 (an address already freed). 4 bytes a free: the builder used to match frees to
    // allocations again with a heap, the costliest step of its emit stage (issue 33).
    HugeVector<std::int32_t> frees;
    std::vector<std::int64_t> actionCounts;                           // per Action
    std::vector<std::int64_t> unknownActionCounts;                    // per SnapshotData::unknownActions

    std::int64_t baselineBytes = 0, baselineBlocks = 0, baselineFreedBlocks = 0;
    std::int64_t peakSeq = -1, peakBytes = 0; // first entry at the maximum; -1: the baseline itself
    std::int64_t finalReplayed = 0;
    std::int64_t finalActiveRequested = 0, finalPendingRequested = 0, finalActiveBytes = 0;
    std::int64_t unmatchedLive = 0;         // alive at the end of the trace but not allocated in the segments
    std::int64_t sizeMismatches = 0;        // alive in both, with different requested sizes
    std::int64_t doubleFrees = 0;           // frees of an address already freed (ignored)
    std::int64_t allocsOverLive = 0;        // allocs at an address still live (the old one counts as freed)
    std::int64_t endBlocksFreedInTrace = 0; // allocated blocks whose last trace record is a free
    std::int64_t reservedInitial = 0, reservedFinal = 0;
    std::int64_t segments = 0;

    bool consistent() const {
        return finalReplayed == finalActiveRequested + finalPendingRequested && unmatchedLive == 0 && sizeMismatches == 0;
    }
};

// The replay's pass over the entries, which can be fed as they are read (issue 33: it runs
// beside the pickle's parse, on the other core, see ReplayFollower): feed() takes the next
// entries, finish() matches the end state. replayDevice() is the same in one call.
class ReplayPass {
public:
    ReplayPass();
    ~ReplayPass();
    ReplayPass(ReplayPass&&) noexcept;
    ReplayPass& operator=(ReplayPass&&) noexcept;

    // Address space for this many allocations (a hint: more grow as needed).
    void reserveAllocations(std::size_t n);
    // Entries replayed() onwards, in order. Throws ImportError when byte counts overflow.
    void feed(std::span<const Entry> next);
    std::size_t replayed() const { return replayed_; }
    // `extras` and `segments`: of the whole trace fed. Throws ImportError as replayDevice.
    DeviceReplay finish(std::span<const ExtrasRun> extras, std::span<const Segment* const> segments,
                        std::size_t unknownActionNames) &&;

private:
    struct Addresses; // the open allocation at each address the trace names
    DeviceReplay r_;
    std::unique_ptr<Addresses> at_;
    std::size_t replayed_ = 0;
    std::int64_t liveCount_ = 0;
    std::int64_t running_ = 0; // allocated bytes relative to the baseline
    std::int64_t lowest_ = 0, highest_ = 0, peak_ = 0; // of running_ after each entry
    std::int64_t reservedDelta_ = 0;
};

// A pass made while the entries were read: its entries are those of the vector whose data()
// is `entries` when it holds `count` of them (a copy of the list, or more entries, is replayed
// again).
struct ReplayedEntries {
    const Entry* entries = nullptr;
    std::size_t count = 0;
    ReplayPass pass;
};

// `segments`: the final segments of this device. Throws ImportError when byte counts overflow.
DeviceReplay replayDevice(std::span<const Entry> entries, std::span<const ExtrasRun> extras,
                          std::span<const Segment* const> segments, std::size_t unknownActionNames);

} // namespace memviz::snapshot

// SPDX-License-Identifier: MIT
#pragma once
// The CUDA caching allocator's state at a moment of a snapshot's trace: its segments and the
// blocks in them, reconstructed by undoing the trace entries after that moment, starting from
// the segments the snapshot holds at its end (what memory_viz calls "Allocator State
// History"). Blocks known from the final segments keep their allocator size; blocks brought
// back from the trace have the size the trace records (the requested bytes), since the trace
// does not record the allocator's rounding.
#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "trace/Event.h"

namespace memviz {

enum class StateBlockKind : std::uint8_t { Allocated, PendingFree };

struct StateBlock {
    std::int64_t address = 0;
    std::int64_t size = 0;          // bytes the block occupies in its segment
    std::int64_t requestedSize = 0; // bytes asked for
    std::int32_t stack = kNoName;
    StateBlockKind kind = StateBlockKind::Allocated;
    bool sizeFromTrace = false; // size is the requested size (the trace has no rounding)
};

struct StateSegment {
    std::int64_t address = 0;
    std::int64_t size = 0;
    std::int64_t stream = 0;
    std::int32_t stack = kNoName;
    bool expandable = false;
    std::vector<StateBlock> blocks; // allocated and pending-free blocks, by address; the rest is free

    std::int64_t usedBytes() const;   // sum of block sizes
    std::int64_t largestFree() const; // largest gap between blocks
};

// Figures of a state (docs/formats-snapshot.md).
struct StateFigures {
    std::int64_t reserved = 0;      // sum of segment sizes
    std::int64_t allocated = 0;     // sum of allocated block sizes
    std::int64_t requested = 0;     // sum of their requested sizes
    std::int64_t pendingFree = 0;   // sum of pending-free block sizes
    std::int64_t free = 0;          // reserved - allocated - pendingFree
    std::int64_t inactiveSplit = 0; // free bytes in segments that also hold blocks (cannot be released)
    std::int64_t largestFree = 0;
    std::int64_t segments = 0;
    std::int64_t blocks = 0;
    std::int64_t blocksOutsideSegments = 0; // inconsistent data: blocks no segment contains
};

struct AllocatorState {
    std::vector<StateSegment> segments; // by address
    StateFigures figures;
};

// Entries the state is rebuilt from: the final segments and blocks of one device, and its
// trace entries after the moment (in trace order), as stored events.
struct FinalSegment {
    std::int64_t address = 0, size = 0, stream = 0;
    std::int32_t stack = kNoName;
    bool expandable = false;
};
struct FinalBlock {
    std::int64_t address = 0, size = 0, requestedSize = 0;
    std::int32_t stack = kNoName;
    StateBlockKind kind = StateBlockKind::Allocated;
};

// `laterEntries`: the device's entries after the moment, oldest first. `legacyFrees`: the trace
// writes one "free" per release instead of free_requested + free_completed, so undoing a
// free brings back an allocated block rather than a pending-free one.
AllocatorState reconstructState(std::span<const FinalSegment> segments, std::span<const FinalBlock> blocks,
                                std::span<const Event> laterEntries, bool legacyFrees);

} // namespace memviz

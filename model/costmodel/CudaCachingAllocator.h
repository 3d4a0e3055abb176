// SPDX-License-Identifier: MIT
#pragma once
// A model of PyTorch's CUDA caching allocator (c10/cuda/CUDACachingAllocator.cpp), used by the
// cost model's simulation and by the allocator replay of recorded snapshots
// (costmodel/AllocatorReplay.h). Requests are rounded up to 512 B (or to a power-of-two
// division with roundup_power2_divisions); blocks up to 1 MiB come from 2 MiB segments (small
// pool), larger ones from 20 MiB segments when under 10 MiB, else from a segment of the request
// rounded up to 2 MiB (large pool). Free blocks are cached per (stream, pool), the smallest that
// fits is reused (lowest address first), split when the rest is >= 512 B (small pool) or
// > 1 MiB (large pool), and merged with free neighbours when freed. With max_split_size,
// blocks at or above it are never split and not handed to smaller requests. Segments go back to
// the device only at emptyCache() or when a device capacity is set and a new segment would not
// fit (the allocator's OOM retry: oversize cached blocks first, then every whole free segment).
// With expandable_segments, each (stream, pool) grows one virtual segment instead: pages of
// 2 MiB (small pool) or 20 MiB (large pool) are mapped behind the free space at its end when no
// cached block fits, a block is split whenever 512 B or more remain, and a release unmaps the
// whole pages inside free blocks (PyTorch 2.x ExpandableSegment, map_block, unmap_block).
#include <cstdint>
#include <limits>
#include <optional>
#include <set>
#include <tuple>
#include <vector>

#include "trace/CudaAllocatorRules.h"

namespace memviz::costmodel {

// PYTORCH_CUDA_ALLOC_CONF as far as the model follows it (the snapshot's allocator_settings).
struct AllocatorConfig {
    std::int64_t maxSplitSize = std::numeric_limits<std::int64_t>::max(); // bytes; "-1" in a snapshot: unlimited
    // roundup_power2_divisions per power-of-two interval of the size: index 0 = [1 MiB, 2 MiB),
    // ..., 15 = [32 GiB, ...) (the snapshot's keys "1" ... "32768", in MiB). 0 or 1: plain rounding.
    std::vector<int> roundupDivisions;
    bool expandableSegments = false;      // one growing virtual segment per stream and pool
    double garbageCollectionThreshold = 0; // read, not modelled
};

// What the allocator did beside handing out blocks.
struct AllocatorAction {
    enum class Kind : std::uint8_t { SegmentAlloc, SegmentFree, SegmentMap, SegmentUnmap } kind = Kind::SegmentAlloc;
    std::int64_t address = 0, size = 0, stream = 0;
};

// reserved - requested, taken apart (docs/costmodel.md, "Why reserved is not allocated").
struct ReservedGap {
    std::int64_t reserved = 0;
    std::int64_t allocated = 0;        // blocks handed out (allocator sizes)
    std::int64_t requested = 0;        // what their callers asked for
    std::int64_t rounding = 0;         // allocated - requested: 512 B rounding, unsplit remainders
    std::int64_t splitFreeSmall = 0;   // free blocks inside small-pool segments that hold blocks
    std::int64_t splitFreeLarge = 0;   // ... inside large-pool segments
    std::int64_t pendingFree = 0;      // blocks freed but not yet given back (used on another stream)
    std::int64_t cachedSegments = 0;   // segments wholly free (empty_cache would release them)
    std::int64_t cachedSegmentCount = 0;
    std::int64_t largestFreeBlock = 0; // the largest request that fits without a new segment
    std::int64_t segments = 0;
};

class CudaCachingAllocator {
public:
    // The allocator's constants and size rules (trace/CudaAllocatorRules.h).
    static constexpr std::int64_t kMinBlockSize = cuda_allocator::kMinBlockSize;
    static constexpr std::int64_t kSmallSize = cuda_allocator::kSmallSize;
    static constexpr std::int64_t kSmallBuffer = cuda_allocator::kSmallBuffer;
    static constexpr std::int64_t kMinLargeAlloc = cuda_allocator::kMinLargeAlloc;
    static constexpr std::int64_t kLargeBuffer = cuda_allocator::kLargeBuffer;
    static constexpr std::int64_t kRoundLarge = cuda_allocator::kRoundLarge;

    static std::int64_t roundSize(std::int64_t bytes) { return cuda_allocator::roundSize(bytes); }
    static std::int64_t segmentSize(std::int64_t rounded) { return cuda_allocator::segmentSize(rounded); }

    // Unmapped: address space of an expandable segment with no memory behind it.
    enum class BlockState : std::uint8_t { Free, Allocated, PendingFree, Unmapped };
    // An expandable segment's address space (PyTorch reserves 1 1/8 of the card's memory).
    static constexpr std::int64_t kExpandableSpace = std::int64_t{1} << 40;
    struct Block {
        int segment = 0;
        std::int64_t address = 0, size = 0, requested = 0;
        BlockState state = BlockState::Free;
    };
    struct Segment {
        std::int64_t address = 0, size = 0, stream = 0; // expandable: size is the address space
        bool small = false, alive = true, expandable = false;
        std::set<std::pair<std::int64_t, int>> blocks; // (address, block id)
        std::int64_t granule() const { return small ? kSmallBuffer : kLargeBuffer; }
    };
    // A run of mapped memory: a whole segment, or a contiguous mapped part of an expandable one
    // (what a snapshot lists as a segment).
    struct Run {
        int segment = 0;
        std::int64_t address = 0, size = 0;
        std::vector<int> blocks;
    };
    std::vector<Run> runs() const;

    explicit CudaCachingAllocator(AllocatorConfig config = {});

    // The rounding with the configured roundup_power2_divisions.
    std::int64_t roundRequest(std::int64_t bytes) const;

    // Returns a block id for free() (stream 0, no capacity: never fails).
    int allocate(std::int64_t bytes);
    // A request on a stream. `newSegmentAddress`: where the device puts a segment if one is
    // needed (a recorded trace knows it), else the model picks an address above all others.
    // Returns -1 when a capacity is set and the request does not fit even after the retry.
    int allocate(std::int64_t bytes, std::int64_t stream, std::optional<std::int64_t> newSegmentAddress);
    void free(int block);          // the block is given back (free_completed)
    void markPendingFree(int block); // freed, but another stream still uses it (free_requested)
    void emptyCache();             // every wholly free segment goes back to the device
                                   // (expandable: every whole free page is unmapped)

    // The state when a replay starts: a segment the device already gave, then the blocks in
    // use inside it (the rest of the segment is free).
    int addSegment(std::int64_t address, std::int64_t size, std::int64_t stream, bool small);
    // ... an expandable segment's mapped run at its start: [address, address + mapped) mapped,
    // address space after it.
    int addExpandableSegment(std::int64_t address, std::int64_t mapped, std::int64_t stream, bool small);
    // Carves [address, address + size) out of the free block containing it; -1 when no free
    // block of the segment holds that range.
    int placeBlock(int segment, std::int64_t address, std::int64_t size, std::int64_t requested, BlockState state);

    void setCapacity(std::int64_t bytes) { capacity_ = bytes; } // 0: unlimited
    std::vector<AllocatorAction> takeActions();

    std::int64_t reserved() const { return reserved_; }
    std::int64_t allocated() const { return allocated_; } // sum of the blocks handed out (rounded)
    const Block& block(int id) const { return blocks_[static_cast<std::size_t>(id)]; }
    const std::vector<Segment>& segments() const { return segments_; }
    ReservedGap gap() const;
    // Why the last failed allocate() failed, when it did.
    struct Failure {
        std::int64_t requested = 0, rounded = 0, segmentSize = 0, reservedBefore = 0, largestFree = 0;
    };
    const std::optional<Failure>& lastFailure() const { return lastFailure_; }

private:
    using FreeKey = std::tuple<std::int64_t, std::int64_t, std::int64_t, int>; // stream, size, address, id
    std::set<FreeKey>& pool(bool small) { return small ? freeSmall_ : freeLarge_; }
    int newBlock(const Block& b);
    void insertFree(int id);
    void eraseFree(int id);
    int findFree(std::int64_t size, std::int64_t stream, bool small);
    bool shouldSplit(const Block& b, std::int64_t size) const;
    int newSegment(std::int64_t size, std::int64_t stream, bool small, std::optional<std::int64_t> address);
    std::int64_t freeAddress(std::int64_t size, std::optional<std::int64_t> address) const;
    bool allocatable(int id) const;
    int findExpandable(std::int64_t size, std::int64_t stream, bool small, std::optional<std::int64_t> address);
    int tryExpandable(std::int64_t size, std::int64_t stream, bool small, std::optional<std::int64_t> address);
    bool mapBlock(int id, std::int64_t size); // false: the card has no room
    void unmapBlock(int id);
    int neighbour(int id, bool next) const; // -1: none
    int mergeInto(int id, int other);       // merges two adjacent blocks of one state, returns the kept id
    void releaseSegment(int segment);
    bool releaseCached(bool oversizeOnly, std::int64_t stream);

    AllocatorConfig config_;
    std::vector<Block> blocks_;
    std::vector<int> recycled_;
    std::vector<Segment> segments_;
    std::set<FreeKey> freeSmall_, freeLarge_;
    std::vector<AllocatorAction> actions_;
    std::int64_t reserved_ = 0, allocated_ = 0, capacity_ = 0;
    std::int64_t nextAddress_ = std::int64_t{1} << 40;
    std::optional<Failure> lastFailure_;
};

} // namespace memviz::costmodel

// SPDX-License-Identifier: MIT
#pragma once
// A model of PyTorch's CUDA caching allocator (c10/cuda/CUDACachingAllocator.cpp): requests are
// rounded up to 512 B; blocks up to 1 MiB come from 2 MiB segments (small pool), larger ones
// from 20 MiB segments when under 10 MiB, else from a segment of the request rounded up to
// 2 MiB (large pool); free blocks are cached, best-fit reused, split and merged, never released
// (no empty_cache), so `reserved` only grows.
#include <cstdint>
#include <map>
#include <set>
#include <tuple>
#include <vector>

#include "trace/CudaAllocatorRules.h"

namespace memviz::costmodel {

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

    // Returns a block id for free().
    int allocate(std::int64_t bytes);
    void free(int block);

    std::int64_t reserved() const { return reserved_; }
    std::int64_t allocated() const { return allocated_; } // sum of the blocks handed out (rounded)

private:
    struct Block {
        int segment = 0;
        std::int64_t offset = 0, size = 0;
        bool small = false, used = false;
    };
    using FreeKey = std::tuple<std::int64_t, int, std::int64_t>; // size, segment, offset
    std::set<FreeKey>& pool(bool small) { return small ? freeSmall_ : freeLarge_; }
    void markFree(int id);
    void merge(int id);

    std::vector<Block> blocks_;
    std::vector<int> recycled_;
    std::vector<std::map<std::int64_t, int>> segments_; // offset -> block id
    std::set<FreeKey> freeSmall_, freeLarge_;
    std::map<FreeKey, int> freeIds_;
    std::int64_t reserved_ = 0, allocated_ = 0;
};

} // namespace memviz::costmodel

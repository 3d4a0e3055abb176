// SPDX-License-Identifier: MIT
#pragma once
// PyTorch's CUDA caching allocator's size rules (c10/cuda/CUDACachingAllocator.cpp), in one
// place for the cost model's allocator model, the OOM decoder and the snapshot views.
#include <cstdint>
#include <limits>

namespace memviz::cuda_allocator {

inline constexpr std::int64_t kMinBlockSize = 512;       // every request rounds up to this
inline constexpr std::int64_t kSmallSize = 1 << 20;      // up to 1 MiB: the small pool
inline constexpr std::int64_t kSmallBuffer = 2 << 20;    // the small pool's segments
inline constexpr std::int64_t kMinLargeAlloc = 10 << 20; // under 10 MiB: a kLargeBuffer segment
inline constexpr std::int64_t kLargeBuffer = 20 << 20;
inline constexpr std::int64_t kRoundLarge = 2 << 20; // larger segments round up to this

// A request rounded up to the block size (sizes too large to round are returned as they are).
constexpr std::int64_t roundSize(std::int64_t bytes) {
    if (bytes < kMinBlockSize) return kMinBlockSize;
    if (bytes > std::numeric_limits<std::int64_t>::max() - kMinBlockSize) return bytes;
    return kMinBlockSize * ((bytes + kMinBlockSize - 1) / kMinBlockSize);
}

// The segment the allocator asks the driver for when no cached block fits a rounded request.
constexpr std::int64_t segmentSize(std::int64_t rounded) {
    if (rounded <= kSmallSize) return kSmallBuffer;
    if (rounded < kMinLargeAlloc) return kLargeBuffer;
    return kRoundLarge * ((rounded + kRoundLarge - 1) / kRoundLarge);
}

} // namespace memviz::cuda_allocator

// SPDX-License-Identifier: MIT
#include "costmodel/CudaCachingAllocator.h"

namespace memviz::costmodel {

int CudaCachingAllocator::allocate(std::int64_t bytes) {
    const std::int64_t size = roundSize(bytes);
    const bool small = size <= kSmallSize;
    auto& free = pool(small);
    auto it = free.lower_bound({size, -1, -1});
    int id;
    if (it == free.end()) {
        const std::int64_t seg = segmentSize(size);
        reserved_ += seg;
        segments_.emplace_back();
        Block b{static_cast<int>(segments_.size()) - 1, 0, seg, small, false};
        if (!recycled_.empty()) {
            id = recycled_.back();
            recycled_.pop_back();
            blocks_[static_cast<std::size_t>(id)] = b;
        } else {
            id = static_cast<int>(blocks_.size());
            blocks_.push_back(b);
        }
        segments_.back().emplace(0, id);
    } else {
        id = freeIds_.at(*it);
        freeIds_.erase(*it);
        free.erase(it);
    }
    Block& b = blocks_[static_cast<std::size_t>(id)];
    const std::int64_t remaining = b.size - size;
    if (remaining >= (small ? kMinBlockSize : kSmallSize + 1)) { // split off the rest as a free block
        Block rest{b.segment, b.offset + size, remaining, small, false};
        b.size = size;
        int restId;
        if (!recycled_.empty()) {
            restId = recycled_.back();
            recycled_.pop_back();
            blocks_[static_cast<std::size_t>(restId)] = rest;
        } else {
            restId = static_cast<int>(blocks_.size());
            blocks_.push_back(rest);
        }
        segments_[static_cast<std::size_t>(rest.segment)].emplace(rest.offset, restId);
        markFree(restId);
    }
    Block& used = blocks_[static_cast<std::size_t>(id)];
    used.used = true;
    allocated_ += used.size;
    return id;
}

void CudaCachingAllocator::markFree(int id) {
    Block& b = blocks_[static_cast<std::size_t>(id)];
    b.used = false;
    const FreeKey key{b.size, b.segment, b.offset};
    pool(b.small).insert(key);
    freeIds_[key] = id;
}

void CudaCachingAllocator::free(int id) {
    Block& b = blocks_[static_cast<std::size_t>(id)];
    allocated_ -= b.size;
    b.used = false;
    merge(id);
}

void CudaCachingAllocator::merge(int id) {
    auto& seg = segments_[static_cast<std::size_t>(blocks_[static_cast<std::size_t>(id)].segment)];
    auto unlinkFree = [&](int other) {
        Block& o = blocks_[static_cast<std::size_t>(other)];
        const FreeKey key{o.size, o.segment, o.offset};
        pool(o.small).erase(key);
        freeIds_.erase(key);
    };
    auto it = seg.find(blocks_[static_cast<std::size_t>(id)].offset);
    if (auto next = std::next(it); next != seg.end() && !blocks_[static_cast<std::size_t>(next->second)].used) {
        unlinkFree(next->second);
        blocks_[static_cast<std::size_t>(id)].size += blocks_[static_cast<std::size_t>(next->second)].size;
        recycled_.push_back(next->second);
        seg.erase(next);
    }
    if (it != seg.begin()) {
        auto prev = std::prev(it);
        if (!blocks_[static_cast<std::size_t>(prev->second)].used) {
            unlinkFree(prev->second);
            blocks_[static_cast<std::size_t>(prev->second)].size += blocks_[static_cast<std::size_t>(id)].size;
            recycled_.push_back(id);
            seg.erase(it);
            id = prev->second;
        }
    }
    markFree(id);
}

} // namespace memviz::costmodel

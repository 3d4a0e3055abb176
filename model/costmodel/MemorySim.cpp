// SPDX-License-Identifier: MIT
#include "costmodel/MemorySim.h"

#include <algorithm>

namespace memviz::costmodel {

namespace {
// glibc with MALLOC_MMAP_THRESHOLD_=128 KiB (the measurement protocol): c10's 64-byte aligned
// posix_memalign is served from the heap (16-byte granules plus an 8-byte header) or, from the
// threshold on, by mmap (page-rounded, with the alignment slack).
constexpr std::int64_t kMmapThreshold = 128 * 1024;
std::int64_t roundUp(std::int64_t v, std::int64_t to) { return (v + to - 1) / to * to; }
} // namespace

MemorySim::MemorySim(DeviceKind device, bool recordTimeline, std::int64_t fixedOverhead)
    : device_(device), recordTimeline_(recordTimeline), fixedOverhead_(fixedOverhead) {
    if (device_ == DeviceKind::Cuda) cuda_ = std::make_unique<CudaCachingAllocator>();
}

std::int64_t MemorySim::chargeFor(std::int64_t bytes) const {
    if (device_ == DeviceKind::Cuda) return CudaCachingAllocator::roundSize(bytes);
    if (bytes + 64 >= kMmapThreshold) return roundUp(bytes + 64 + 16, 4096);
    return roundUp(std::max<std::int64_t>(bytes, 1) + 8, 16);
}

int MemorySim::allocate(std::int64_t bytes, Category category) {
    int id;
    if (!freeIds_.empty()) {
        id = freeIds_.back();
        freeIds_.pop_back();
    } else {
        id = static_cast<int>(storages_.size());
        storages_.emplace_back();
    }
    Storage& s = storages_[static_cast<std::size_t>(id)];
    s.bytes = bytes;
    s.charged = chargeFor(bytes);
    s.category = category;
    s.refs = 1;
    s.block = cuda_ ? cuda_->allocate(bytes) : -1;
    raw_[static_cast<std::size_t>(category)] += bytes;
    charged_ += s.charged;
    return id;
}

void MemorySim::retain(int storage) { ++storages_[static_cast<std::size_t>(storage)].refs; }

void MemorySim::release(int storage) {
    Storage& s = storages_[static_cast<std::size_t>(storage)];
    if (--s.refs > 0) return;
    raw_[static_cast<std::size_t>(s.category)] -= s.bytes;
    charged_ -= s.charged;
    if (cuda_) cuda_->free(s.block);
    freeIds_.push_back(storage);
}

void MemorySim::recategorize(int storage, Category category) {
    Storage& s = storages_[static_cast<std::size_t>(storage)];
    raw_[static_cast<std::size_t>(s.category)] -= s.bytes;
    s.category = category;
    raw_[static_cast<std::size_t>(category)] += s.bytes;
}

std::int64_t MemorySim::liveBytes() const { return cuda_ ? cuda_->reserved() : charged_; }

void MemorySim::intraOp(std::int64_t bytes) {
    if (bytes <= 0) return;
    truePeak_ = std::max(truePeak_, charged_ + chargeFor(bytes) + fixedOverhead_);
    if (cuda_) { // the workspace goes through the caching allocator and may grow `reserved`
        cuda_->free(cuda_->allocate(bytes));
        peak_ = std::max(peak_, cuda_->reserved() + fixedOverhead_);
    }
}

void MemorySim::sample(const char* name) {
    ++samples_;
    const std::int64_t live = liveBytes() + fixedOverhead_;
    truePeak_ = std::max(truePeak_, charged_ + fixedOverhead_);
    // CUDA: `reserved` only grows, so the breakdown is taken where the allocated bytes peak.
    const std::int64_t key = cuda_ ? charged_ : live;
    if (cuda_) peak_ = std::max(peak_, live);
    if (key > allocatedPeak_ || samples_ == 1) {
        allocatedPeak_ = key;
        peakPhase_ = phase_;
        peakOp_ = name;
        atPeak_ = raw_;
        if (!cuda_) peak_ = live;
    }
    if (recordTimeline_) {
        TimelineSample t{name, phase_, live, raw_};
        std::int64_t rawSum = 0;
        for (std::int64_t b : raw_) rawSum += b;
        t.byCategory[static_cast<std::size_t>(Category::Overhead)] += live - rawSum;
        timeline_.push_back(t);
    }
}

} // namespace memviz::costmodel

// SPDX-License-Identifier: MIT
#pragma once
// The simulated heap of one training step: storages are allocated and released as PyTorch
// would, and the live bytes are sampled after every simulated aten op (like the measurement
// protocol, which reads the heap between ops). Tracks the peak, its phase and op, the
// breakdown by category at the peak, and a per-op timeline.
#include <cstdint>
#include <memory>
#include <vector>

#include "costmodel/CudaCachingAllocator.h"
#include "costmodel/Types.h"

namespace memviz::costmodel {

enum class DeviceKind { Cpu, Cuda };

struct TimelineSample {
    const char* op = ""; // aten-style name of the op after which the heap was sampled
    Phase phase = Phase::Forward;
    std::int64_t bytes = 0;     // live bytes as the device sees them (CPU: chunks; CUDA: reserved)
    CategoryBytes byCategory{}; // requested bytes per category (Overhead: the rest of `bytes`)
};

class MemorySim {
public:
    MemorySim(DeviceKind device, bool recordTimeline, std::int64_t fixedOverhead);

    int allocate(std::int64_t bytes, Category category);
    void retain(int storage);
    void release(int storage);
    void recategorize(int storage, Category category);
    Category category(int storage) const { return storages_[static_cast<std::size_t>(storage)].category; }
    int refs(int storage) const { return storages_[static_cast<std::size_t>(storage)].refs; }

    void setPhase(Phase phase) { phase_ = phase; }
    Phase phase() const { return phase_; }
    // A sample point: the heap right after the op `name` returned.
    void sample(const char* name);
    // Scratch that the current op allocates and frees inside itself: invisible to sampling,
    // but part of the true peak.
    void intraOp(std::int64_t bytes);

    std::int64_t liveBytes() const; // as sampled (device view), without the fixed overhead
    std::int64_t peakBytes() const { return peak_; }
    Phase peakPhase() const { return peakPhase_; }
    const char* peakOp() const { return peakOp_; }
    const CategoryBytes& breakdownAtPeak() const { return atPeak_; }
    std::int64_t truePeakBytes() const { return truePeak_; }
    std::int64_t cudaAllocatedPeak() const { return allocatedPeak_; }
    const std::vector<TimelineSample>& timeline() const { return timeline_; }
    int sampleCount() const { return samples_; }

private:
    struct Storage {
        std::int64_t bytes = 0, charged = 0;
        Category category = Category::Temporaries;
        int refs = 0;
        int block = -1; // CUDA allocator block
    };
    std::int64_t chargeFor(std::int64_t bytes) const;

    DeviceKind device_;
    bool recordTimeline_;
    std::int64_t fixedOverhead_;
    std::vector<Storage> storages_;
    std::vector<int> freeIds_;
    CategoryBytes raw_{};
    std::int64_t charged_ = 0;
    std::unique_ptr<CudaCachingAllocator> cuda_;
    Phase phase_ = Phase::Forward;
    std::int64_t peak_ = -1, truePeak_ = 0, allocatedPeak_ = 0;
    Phase peakPhase_ = Phase::Forward;
    const char* peakOp_ = "";
    CategoryBytes atPeak_{};
    std::vector<TimelineSample> timeline_;
    int samples_ = 0;
};

} // namespace memviz::costmodel

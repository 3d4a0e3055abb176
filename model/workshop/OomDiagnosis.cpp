// SPDX-License-Identifier: MIT
#include "workshop/OomDiagnosis.h"

#include <algorithm>

namespace memviz::workshop {

namespace {

bool usesCachingAllocatorSegments(const OomMessage& m) {
    return (m.form == OomForm::GpuSemicolons || m.form == OomForm::GpuSentences) && (m.backend == "CUDA" || m.backend == "HIP");
}

void tensorRange(const OomMessage& m, OomDiagnosis& d) {
    const PrintedSize& r = *m.request;
    d.tensorLow = r.low;
    d.tensorHigh = r.high;
    if (m.form == OomForm::TorchLegacy && !r.exact()) {
        d.tensorReason = TensorRangeReason::TruncatedGiB;
        return;
    }
    if (r.exact()) {
        d.tensorReason = TensorRangeReason::Exact;
        return;
    }
    d.tensorReason = TensorRangeReason::Printed;
    if (!usesCachingAllocatorSegments(m)) return;
    const auto covers = [&r](std::int64_t bytes) { return r.low <= bytes && bytes <= r.high; };
    // Tensors of 10 MiB and more get a segment of their size rounded up to 2 MiB: those whose
    // segment size is in the printed range lie up to 2 MiB below its multiples of 2 MiB.
    const std::int64_t firstMultiple = std::max(kMinLargeAlloc, (r.low + kRoundLarge - 1) / kRoundLarge * kRoundLarge);
    const std::int64_t lastMultiple = r.high / kRoundLarge * kRoundLarge;
    const bool rounded = firstMultiple <= lastMultiple;
    // Sizes are first rounded up to 512 B: the last 511 bytes below 10 MiB round up to it.
    const std::int64_t lastUnderLarge = kMinLargeAlloc - kMinBlockSize;
    const std::int64_t roundedLow = std::max(lastUnderLarge + 1, firstMultiple - kRoundLarge + 1);
    if (covers(kSmallBuffer)) {
        d.tensorReason = TensorRangeReason::SmallSegment;
        d.tensorLow = 1;
        d.tensorHigh = kSmallSize;
    } else if (covers(kLargeBuffer)) {
        // A 1-10 MiB tensor in a new 20 MiB segment, or an 18-20 MiB tensor rounded up to 20 MiB.
        d.tensorReason = TensorRangeReason::LargeBuffer;
        d.tensorLow = kSmallSize + 1;
        d.tensorHigh = lastUnderLarge;
        if (rounded) {
            d.tensorAlsoLow = roundedLow;
            d.tensorAlsoHigh = lastMultiple;
        }
    } else if (rounded) {
        d.tensorReason = TensorRangeReason::RoundedTo2MiB;
        d.tensorLow = roundedLow;
        d.tensorHigh = lastMultiple;
    }
}

} // namespace

OomDiagnosis diagnose(const OomMessage& m) {
    OomDiagnosis d;
    if (!m.request) return d;
    d.requestBytes = m.request->bytes;
    tensorRange(m, d);
    switch (m.form) {
    case OomForm::CpuNotEnoughMemory:
    case OomForm::CpuCannotAllocate:
    case OomForm::TorchLegacy:
        // The allocator could not find this many bytes at all; how much was free is unknown.
        d.shortfallBytes = m.request->bytes;
        break;
    case OomForm::GpuSemicolons:
    case OomForm::GpuSentences: {
        if (m.reservedUnallocated) d.fragmentedBytes = m.reservedUnallocated->bytes;
        std::int64_t available = m.free ? m.free->bytes : 0;
        if (m.allowed && m.reserved) {
            const std::int64_t underLimit = std::max<std::int64_t>(0, m.allowed->bytes - m.reserved->bytes);
            if (underLimit < available || !m.free) {
                available = underLimit;
                d.limitedByFraction = true;
            }
        }
        if (m.free || m.allowed) d.shortfallBytes = std::max<std::int64_t>(0, m.request->bytes - available);
        const std::optional<PrintedSize>& limit = d.limitedByFraction ? m.allowed : m.total;
        if (limit) {
            d.largerThanDevice = m.request->bytes > limit->bytes;
            if (d.shortfallBytes) d.capacityNeeded = limit->bytes + *d.shortfallBytes;
        }
        d.fragmentationLikely = d.fragmentedBytes > 0 && d.shortfallBytes && *d.shortfallBytes > 0 &&
                                d.fragmentedBytes >= *d.shortfallBytes;
        for (const ProcessMemory& p : m.processes) {
            if (p.pid >= 0) d.otherProcessesBytes += p.inUse.bytes;
            else if (m.reserved) d.nonPyTorchBytes = std::max<std::int64_t>(0, p.inUse.bytes - m.reserved->bytes);
        }
        break;
    }
    case OomForm::MpsBackend:
        if (m.allowed && m.allocated) {
            const std::int64_t other = m.otherAllocations ? m.otherAllocations->bytes : 0;
            const std::int64_t available = std::max<std::int64_t>(0, m.allowed->bytes - m.allocated->bytes - other);
            d.shortfallBytes = std::max<std::int64_t>(0, m.request->bytes - available);
            d.capacityNeeded = m.allowed->bytes + *d.shortfallBytes;
            d.largerThanDevice = m.request->bytes > m.allowed->bytes;
            d.limitedByFraction = true;
        }
        break;
    case OomForm::GpuNoNumbers:
    case OomForm::Unrecognized: break;
    }
    return d;
}

} // namespace memviz::workshop

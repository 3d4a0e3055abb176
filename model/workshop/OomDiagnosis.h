// SPDX-License-Identifier: MIT
#pragma once
// What an out-of-memory message means in numbers: the request in both unit systems, what the
// tensor itself could have been (the CUDA caching allocator asks the driver for whole
// segments: 2 MiB for requests up to 1 MiB, 20 MiB up to 10 MiB, else the request rounded up
// to 2 MiB), how much more memory the failed allocation needed, and whether fragmentation or
// other processes are to blame.
#include <cstdint>
#include <optional>

#include "trace/CudaAllocatorRules.h"
#include "workshop/OomMessage.h"

namespace memviz::workshop {

// The CUDA caching allocator's segment rule (trace/CudaAllocatorRules.h).
using cuda_allocator::kLargeBuffer;
using cuda_allocator::kMinBlockSize;
using cuda_allocator::kMinLargeAlloc;
using cuda_allocator::kRoundLarge;
using cuda_allocator::kSmallBuffer;
using cuda_allocator::kSmallSize;

enum class TensorRangeReason {
    Exact,         // the CPU allocators print the exact byte count
    Printed,       // only the printed rounding is known
    SmallSegment,  // "2.00 MiB": a tensor of at most 1 MiB needed a new small-pool segment
    LargeBuffer,   // "20.00 MiB": a tensor between 1 and 10 MiB needed a 20 MiB segment, or one
                   // of 18-20 MiB was rounded up to it (the second range, tensorAlso*)
    RoundedTo2MiB, // a tensor of 10 MiB or more, rounded up to a multiple of 2 MiB
    TruncatedGiB,  // TH printed whole GB, rounded down
};

struct OomDiagnosis {
    std::int64_t requestBytes = 0;              // as printed
    std::int64_t tensorLow = 0, tensorHigh = 0; // what the tensor itself could have been
    // A second range where the printed size has two readings (0 when it has one).
    std::int64_t tensorAlsoLow = 0, tensorAlsoHigh = 0;
    TensorRangeReason tensorReason = TensorRangeReason::Exact;
    // How much more free memory the failed allocation needed (CPU: all of it; the message does
    // not say how much was free). Absent when the message has no numbers.
    std::optional<std::int64_t> shortfallBytes;
    // A device of this capacity, with everything else the same, would have had room for it.
    std::optional<std::int64_t> capacityNeeded;
    bool largerThanDevice = false;        // the one request exceeds the device's total (or allowed) memory
    bool limitedByFraction = false;       // set_per_process_memory_fraction / the MPS watermark set the limit
    bool fragmentationLikely = false;     // the memory exists, but cached in pieces too small for the request
    std::int64_t fragmentedBytes = 0;     // reserved by PyTorch but unallocated
    std::int64_t otherProcessesBytes = 0; // other processes on the same GPU
    std::int64_t nonPyTorchBytes = 0;     // this process's memory outside PyTorch's allocator (CUDA context, libraries)
};

OomDiagnosis diagnose(const OomMessage& message);

} // namespace memviz::workshop

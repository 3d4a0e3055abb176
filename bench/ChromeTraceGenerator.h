// SPDX-License-Identifier: MIT
#pragma once
// Synthetic torch.profiler Chrome traces for benchmarks, in the modern (1.10-2.3) form:
// training steps of nested cpu_op calls, cuda_runtime launches, kernels, and [memory] events
// with addresses and totals.
#include <cstdint>
#include <string>

namespace memviz::bench {

struct ChromeTraceStats {
    std::int64_t bytes = 0;
    std::int64_t events = 0;
    std::int64_t memoryEvents = 0;
};

// Writes at least `memoryEvents` memory events; returns what was written (bytes 0 on failure).
ChromeTraceStats writeSyntheticChromeTrace(const std::string& path, std::int64_t memoryEvents, std::uint64_t seed = 1);

} // namespace memviz::bench

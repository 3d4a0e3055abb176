// SPDX-License-Identifier: MIT
#pragma once
// Synthetic memviz allocation logs for benchmarks: a training-loop-like pattern whose
// working set grows and shrinks, 40 operators, a few stacks, power-of-two sizes.
#include <cstdint>
#include <string>

namespace memviz::bench {

// Writes `events` records to `path` (CSV); returns false when the file cannot be written.
bool writeSyntheticAllocLog(const std::string& path, std::int64_t events, std::uint64_t seed = 1);

} // namespace memviz::bench

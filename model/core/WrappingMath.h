// SPDX-License-Identifier: MIT
#pragma once
// Two's-complement sums of int64 values: hostile numbers wrap instead of overflowing (undefined
// behaviour), and sums added up again in another order come out exact when the true result fits.
#include <cstdint>

namespace memviz {

inline std::int64_t wrappingAdd(std::int64_t a, std::int64_t b) {
    return static_cast<std::int64_t>(static_cast<std::uint64_t>(a) + static_cast<std::uint64_t>(b));
}
inline std::int64_t wrappingSub(std::int64_t a, std::int64_t b) {
    return static_cast<std::int64_t>(static_cast<std::uint64_t>(a) - static_cast<std::uint64_t>(b));
}

} // namespace memviz

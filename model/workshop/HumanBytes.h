// SPDX-License-Identifier: MIT
#pragma once
// Byte counts the way the workshop explains them: decimal units (kB, MB, GB: powers of 1000,
// what disk vendors and most articles use) next to binary ones (KiB, MiB, GiB: powers of
// 1024, what PyTorch and the OS report), and integers with thousands separators.
#include <cstdint>
#include <string>

namespace memviz::workshop {

// "717.6 MB", "78.6 GB", "512 B"; the unit keeps the number under 1000.
std::string formatDecimalBytes(double bytes, int decimals = 1);
// "684.3 MiB", "73.2 GiB", "512 B"; the unit keeps the number under 1024.
std::string formatBinaryBytes(double bytes, int decimals = 1);
// "717.6 MB = 684.3 MiB" (just "512 B" below 1000 bytes).
std::string formatBothUnits(double bytes, int decimals = 1);
// "717,574,400"
std::string groupDigits(std::int64_t value);

} // namespace memviz::workshop

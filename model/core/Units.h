// SPDX-License-Identifier: MIT
#pragma once
// Human-readable sizes and durations, shared by the command line, the widgets and the tests.
#include <cstdint>
#include <string>

namespace memviz {

struct ScaledUnit {
    double divisor; // value / divisor gives the number shown
    const char* suffix;
};

// Binary byte units: B, KiB, MiB, GiB, TiB, chosen so that |bytes| / divisor < 1024.
ScaledUnit byteUnitFor(double bytes);
// Duration units from nanoseconds: ns, µs, ms, s.
ScaledUnit timeUnitFor(double nanoseconds);

// "1.50 MiB", "512 B", "-3.00 KiB".
std::string formatBytes(double bytes, int decimals = 2);
// "1.234 ms", "12 ns", "3.50 s".
std::string formatDuration(double nanoseconds, int decimals = 3);

// The one parser of sizes the user types (estimate --fit, check budgets): "1073741824",
// "16GiB", "16G" (binary), "80GB" (decimal), "512MiB", "1.5 TiB". Throws std::invalid_argument
// naming the text for a missing number, a negative size or an unknown unit.
std::int64_t parseByteSize(const std::string& text);

} // namespace memviz

// SPDX-License-Identifier: MIT
#pragma once
// The one place where byte sizes, counts and durations become text and byte sizes are read
// back from text: the command line, the widgets, the lessons, error messages and the tests all
// use these. Plain C++ (compiled into memviz_model, so parsers can name sizes in their errors);
// words/UnitTexts.h wraps them in QString for the widgets.
#include <cstdint>
#include <string>

namespace memviz {

struct ScaledUnit {
    double divisor; // value / divisor gives the number shown
    const char* suffix;
};

// Binary byte units: B, KiB, MiB, GiB, TiB, PiB, EiB, chosen so that |bytes| / divisor < 1024.
ScaledUnit byteUnitFor(double bytes);
// Decimal byte units: B, kB, MB, GB, TB, PB, EB, chosen so that |bytes| / divisor < 1000.
ScaledUnit decimalByteUnitFor(double bytes);
// The units of 1000^k and 1024^k bytes, k = 0 (B) ... 6 (EB, EiB); k is clamped to that range.
ScaledUnit decimalByteUnitOfPower(int k);
ScaledUnit binaryByteUnitOfPower(int k);
// Duration units from nanoseconds: ns, µs, ms, s.
ScaledUnit timeUnitFor(double nanoseconds);

// "1.50 MiB", "512 B", "-3.00 KiB". A value that rounds up to 1024 of a unit is shown in the
// next one ("1.00 MiB", not "1024.00 KiB").
std::string formatBytes(double bytes, int decimals = 2);
// "717.6 MB", "78.6 GB", "512 B" (powers of 1000, what disk vendors and most articles use).
std::string formatDecimalBytes(double bytes, int decimals = 1);
// "717.6 MB = 684.3 MiB" (just "512 B" below 1000 bytes): the workshop's way.
std::string formatBothUnits(double bytes, int decimals = 1);
// "1.234 ms", "12 ns", "3.50 s".
std::string formatDuration(double nanoseconds, int decimals = 3);
// "717,574,400"
std::string groupDigits(std::int64_t value);

// "1073741824", "16GiB", "16G" (binary), "80GB" (decimal), "512MiB", "1.5TiB", "2 KiB".
// Throws std::invalid_argument naming the text and the accepted units.
std::int64_t parseByteSize(const std::string& text);

} // namespace memviz

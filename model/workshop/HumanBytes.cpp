// SPDX-License-Identifier: MIT
#include "workshop/HumanBytes.h"

#include <cmath>
#include <cstdio>
#include <iterator>

namespace memviz::workshop {

namespace {

std::string scaled(double bytes, int decimals, double base, const char* const* suffixes, int count) {
    double divisor = 1.0;
    int i = 0;
    while (i + 1 < count && std::fabs(bytes) >= divisor * base) {
        divisor *= base;
        ++i;
    }
    // Rounding can carry a value to the next unit ("999.97 MB" -> "1000.0 MB"): move up then.
    const double shown = bytes / divisor;
    const double p = std::pow(10.0, decimals);
    if (i > 0 && i + 1 < count && std::round(std::fabs(shown) * p) / p >= base) {
        divisor *= base;
        ++i;
    }
    char buf[64];
    if (i == 0) std::snprintf(buf, sizeof buf, "%.0f %s", bytes, suffixes[0]);
    else std::snprintf(buf, sizeof buf, "%.*f %s", decimals, bytes / divisor, suffixes[i]);
    return buf;
}

} // namespace

std::string formatDecimalBytes(double bytes, int decimals) {
    static const char* const suffixes[] = {"B", "kB", "MB", "GB", "TB", "PB", "EB"};
    return scaled(bytes, decimals, 1000.0, suffixes, static_cast<int>(std::size(suffixes)));
}

std::string formatBinaryBytes(double bytes, int decimals) {
    static const char* const suffixes[] = {"B", "KiB", "MiB", "GiB", "TiB", "PiB", "EiB"};
    return scaled(bytes, decimals, 1024.0, suffixes, static_cast<int>(std::size(suffixes)));
}

std::string formatBothUnits(double bytes, int decimals) {
    if (std::fabs(bytes) < 1000.0) return formatDecimalBytes(bytes, decimals);
    return formatDecimalBytes(bytes, decimals) + " = " + formatBinaryBytes(bytes, decimals);
}

std::string groupDigits(std::int64_t value) {
    const bool negative = value < 0;
    // Work on the unsigned magnitude: -INT64_MIN does not fit in int64.
    std::uint64_t magnitude = negative ? 0 - static_cast<std::uint64_t>(value) : static_cast<std::uint64_t>(value);
    std::string digits = std::to_string(magnitude);
    std::string out;
    const int n = static_cast<int>(digits.size());
    for (int i = 0; i < n; ++i) {
        if (i > 0 && (n - i) % 3 == 0) out += ',';
        out += digits[static_cast<std::size_t>(i)];
    }
    return negative ? "-" + out : out;
}

} // namespace memviz::workshop

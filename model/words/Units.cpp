// SPDX-License-Identifier: MIT
#include "words/Units.h"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdio>
#include <iterator>
#include <stdexcept>

namespace memviz {

namespace {

constexpr ScaledUnit kBinaryUnits[] = {{1.0, "B"},
                                       {1024.0, "KiB"},
                                       {1048576.0, "MiB"},
                                       {1073741824.0, "GiB"},
                                       {1099511627776.0, "TiB"},
                                       {1125899906842624.0, "PiB"},
                                       {1152921504606846976.0, "EiB"}};
constexpr ScaledUnit kDecimalUnits[] = {{1.0, "B"},   {1e3, "kB"},  {1e6, "MB"}, {1e9, "GB"},
                                        {1e12, "TB"}, {1e15, "PB"}, {1e18, "EB"}};

template <std::size_t N>
std::size_t unitIndex(const ScaledUnit (&units)[N], double value) {
    const double magnitude = std::fabs(value);
    std::size_t i = 0;
    while (i + 1 < N && magnitude >= units[i + 1].divisor) ++i;
    return i;
}

// The unit for `value` shown with `decimals`: rounding can carry a value to the next unit
// ("1023.999 KiB" at two decimals is "1024.00 KiB"), which then shows it ("1.00 MiB").
template <std::size_t N>
ScaledUnit roundedUnit(const ScaledUnit (&units)[N], double value, int decimals) {
    std::size_t i = unitIndex(units, value);
    if (i > 0 && i + 1 < N) {
        const double p = std::pow(10.0, decimals);
        const double base = units[i + 1].divisor / units[i].divisor;
        if (std::round(std::fabs(value / units[i].divisor) * p) / p >= base) ++i;
    }
    return units[i];
}

std::string formatScaled(double value, ScaledUnit unit, int decimals) {
    char buf[64];
    if (unit.divisor == 1.0) std::snprintf(buf, sizeof buf, "%.0f %s", value, unit.suffix);
    else std::snprintf(buf, sizeof buf, "%.*f %s", decimals, value / unit.divisor, unit.suffix);
    return buf;
}

std::string lower(std::string s) {
    std::transform(s.begin(), s.end(), s.begin(), [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
    return s;
}

} // namespace

ScaledUnit byteUnitFor(double bytes) { return kBinaryUnits[unitIndex(kBinaryUnits, bytes)]; }

ScaledUnit decimalByteUnitFor(double bytes) { return kDecimalUnits[unitIndex(kDecimalUnits, bytes)]; }

ScaledUnit decimalByteUnitOfPower(int k) { return kDecimalUnits[std::clamp(k, 0, int(std::size(kDecimalUnits)) - 1)]; }

ScaledUnit binaryByteUnitOfPower(int k) { return kBinaryUnits[std::clamp(k, 0, int(std::size(kBinaryUnits)) - 1)]; }

ScaledUnit timeUnitFor(double nanoseconds) {
    const double magnitude = std::fabs(nanoseconds);
    if (magnitude >= 1e9) return {1e9, "s"};
    if (magnitude >= 1e6) return {1e6, "ms"};
    if (magnitude >= 1e3) return {1e3, "\xC2\xB5s"};
    return {1.0, "ns"};
}

std::string formatBytes(double bytes, int decimals) {
    return formatScaled(bytes, roundedUnit(kBinaryUnits, bytes, decimals), decimals);
}

std::string formatDecimalBytes(double bytes, int decimals) {
    return formatScaled(bytes, roundedUnit(kDecimalUnits, bytes, decimals), decimals);
}

std::string formatBothUnits(double bytes, int decimals) {
    if (std::fabs(bytes) < 1000.0) return formatDecimalBytes(bytes, decimals);
    return formatDecimalBytes(bytes, decimals) + " = " + formatBytes(bytes, decimals);
}

std::string formatDuration(double nanoseconds, int decimals) {
    return formatScaled(nanoseconds, timeUnitFor(nanoseconds), decimals);
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

std::int64_t parseByteSize(const std::string& text) {
    std::size_t used = 0;
    double value = 0;
    try {
        value = std::stod(text, &used);
    } catch (const std::exception&) {
        used = 0;
    }
    if (used == 0 || !(value >= 0))
        throw std::invalid_argument("expected a size in bytes such as 17179869184, 16GiB or 80GB, got \"" + text + "\"");
    std::string unit = lower(text.substr(used));
    unit.erase(std::remove(unit.begin(), unit.end(), ' '), unit.end());
    double scale = 1;
    if (unit.empty() || unit == "b") scale = 1;
    else if (unit == "k" || unit == "kib") scale = 1024.0;
    else if (unit == "m" || unit == "mib") scale = 1024.0 * 1024;
    else if (unit == "g" || unit == "gib") scale = 1024.0 * 1024 * 1024;
    else if (unit == "t" || unit == "tib") scale = 1024.0 * 1024 * 1024 * 1024;
    else if (unit == "kb") scale = 1e3;
    else if (unit == "mb") scale = 1e6;
    else if (unit == "gb") scale = 1e9;
    else if (unit == "tb") scale = 1e12;
    else
        throw std::invalid_argument("unknown size unit \"" + text.substr(used) +
                                    "\" (use B, KiB, MiB, GiB, TiB, KB, MB, GB or TB)");
    const double bytes = value * scale;
    if (bytes > 9.2e18) throw std::invalid_argument("size too large: \"" + text + "\"");
    return static_cast<std::int64_t>(std::llround(bytes));
}

} // namespace memviz

// SPDX-License-Identifier: MIT
#include "core/Units.h"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdio>
#include <stdexcept>

namespace memviz {

ScaledUnit byteUnitFor(double bytes) {
    static constexpr ScaledUnit units[] = {
        {1.0, "B"}, {1024.0, "KiB"}, {1048576.0, "MiB"}, {1073741824.0, "GiB"}, {1099511627776.0, "TiB"}};
    const double magnitude = std::fabs(bytes);
    std::size_t i = 0;
    while (i + 1 < std::size(units) && magnitude >= units[i + 1].divisor) ++i;
    return units[i];
}

ScaledUnit timeUnitFor(double nanoseconds) {
    const double magnitude = std::fabs(nanoseconds);
    if (magnitude >= 1e9) return {1e9, "s"};
    if (magnitude >= 1e6) return {1e6, "ms"};
    if (magnitude >= 1e3) return {1e3, "\xC2\xB5s"};
    return {1.0, "ns"};
}

static std::string formatScaled(double value, ScaledUnit unit, int decimals) {
    char buf[64];
    if (unit.divisor == 1.0) std::snprintf(buf, sizeof buf, "%.0f %s", value, unit.suffix);
    else std::snprintf(buf, sizeof buf, "%.*f %s", decimals, value / unit.divisor, unit.suffix);
    return buf;
}

std::string formatBytes(double bytes, int decimals) { return formatScaled(bytes, byteUnitFor(bytes), decimals); }

std::string formatDuration(double nanoseconds, int decimals) {
    return formatScaled(nanoseconds, timeUnitFor(nanoseconds), decimals);
}

namespace {
std::string lowerAscii(std::string s) {
    std::transform(s.begin(), s.end(), s.begin(), [](unsigned char ch) { return static_cast<char>(std::tolower(ch)); });
    return s;
}
} // namespace

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
    std::string unit = lowerAscii(text.substr(used));
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

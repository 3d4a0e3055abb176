// SPDX-License-Identifier: MIT
#include "core/Units.h"

#include <cmath>
#include <cstdio>

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

} // namespace memviz

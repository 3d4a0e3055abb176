// SPDX-License-Identifier: MIT
// The tick rule of a chart's axes (see AxisTicks.h).
#include "plot/AxisTicks.h"

#include <algorithm>
#include <cmath>
#include <cstdio>

namespace memviz {

double niceStep(double raw) {
    if (!(raw > 0) || !std::isfinite(raw)) return 1.0;
    const double magnitude = std::pow(10.0, std::floor(std::log10(raw)));
    for (const double m : {1.0, 2.0, 2.5, 5.0, 10.0})
        if (m * magnitude >= raw * 0.999) return m * magnitude;
    return 10.0 * magnitude;
}

ScaledUnit countUnitFor(double count) {
    static const ScaledUnit units[] = {{1e12, "trillions"}, {1e9, "billions"}, {1e6, "millions"}, {1e3, "thousands"}};
    for (const ScaledUnit& u : units)
        if (std::fabs(count) >= u.divisor) return u;
    return {1.0, ""};
}

ScaledUnit axisUnit(TickQuantity q, double lower, double upper) {
    const double magnitude = std::max(std::fabs(lower), std::fabs(upper));
    const double span = upper - lower;
    // Times by the span (a 2 ms window late in a trace reads better in ms); bytes and counts by
    // the largest value shown.
    switch (q) {
    case TickQuantity::Bytes: return byteUnitFor(magnitude);
    case TickQuantity::Count: return countUnitFor(magnitude);
    case TickQuantity::Time: return timeUnitFor(span > 0 ? span : magnitude);
    }
    return {1.0, ""};
}

double tickStep(const ScaledUnit& unit, double lower, double upper, int tickCount) {
    const double inUnit = (upper - lower) / unit.divisor;
    return niceStep(inUnit / std::max(1, tickCount)) * unit.divisor;
}

std::string tickNumber(double tick, const ScaledUnit& unit) {
    char buf[64];
    std::snprintf(buf, sizeof buf, "%.3f", tick / unit.divisor);
    std::string s = buf;
    if (s.find('.') != std::string::npos) {
        while (s.back() == '0') s.pop_back();
        if (s.back() == '.') s.pop_back();
    }
    if (s == "-0") s = "0";
    return s;
}

AxisTicks axisTicks(TickQuantity q, double lower, double upper, int tickCount) {
    AxisTicks t;
    t.unit = axisUnit(q, lower, upper);
    t.step = tickStep(t.unit, lower, upper, tickCount);
    if (!(upper >= lower) || !std::isfinite(lower) || !std::isfinite(upper)) return t;
    // The multiples k * step inside the range, computed as k * step (not by adding steps up).
    for (double k = std::ceil(lower / t.step); k * t.step <= upper; ++k) {
        t.values.push_back(k * t.step);
        t.labels.push_back(tickNumber(k * t.step, t.unit));
    }
    return t;
}

} // namespace memviz

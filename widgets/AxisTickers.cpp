// SPDX-License-Identifier: MIT
#include "widgets/AxisTickers.h"

#include <cmath>

namespace memviz {

double niceStep(double raw) {
    if (!(raw > 0) || !std::isfinite(raw)) return 1.0;
    const double magnitude = std::pow(10.0, std::floor(std::log10(raw)));
    for (double m : {1.0, 2.0, 2.5, 5.0, 10.0})
        if (m * magnitude >= raw * 0.999) return m * magnitude;
    return 10.0 * magnitude;
}

ScaledUnit countUnitFor(double count) {
    static const ScaledUnit units[] = {{1e12, "trillions"}, {1e9, "billions"}, {1e6, "millions"}, {1e3, "thousands"}};
    for (const ScaledUnit& u : units)
        if (std::fabs(count) >= u.divisor) return u;
    return {1.0, ""};
}

bool ScaledAxisTicker::updateUnit(const QCPRange& range) {
    const double magnitude = std::max(std::fabs(range.lower), std::fabs(range.upper));
    const double span = range.size();
    // Times are labelled by the span (a 2 ms window late in a trace reads better in ms);
    // bytes by the largest value shown.
    const ScaledUnit next = quantity_ == Quantity::Bytes   ? byteUnitFor(magnitude)
                            : quantity_ == Quantity::Count ? countUnitFor(magnitude)
                                                           : timeUnitFor(span > 0 ? span : magnitude);
    const bool changed = next.divisor != unit_.divisor;
    unit_ = next;
    return changed;
}

double ScaledAxisTicker::getTickStep(const QCPRange& range) {
    const double inUnit = range.size() / unit_.divisor;
    return niceStep(inUnit / std::max(1, tickCount())) * unit_.divisor;
}

QString ScaledAxisTicker::getTickLabel(double tick, const QLocale& locale, QChar, int) {
    const double v = tick / unit_.divisor;
    // Enough decimals to tell neighbouring ticks apart, no trailing zeros.
    QString s = locale.toString(v, 'f', 3);
    if (s.contains(locale.decimalPoint())) {
        while (s.endsWith('0')) s.chop(1);
        if (s.endsWith(locale.decimalPoint())) s.chop(1);
    }
    if (s == "-0") s = "0";
    return s;
}

} // namespace memviz

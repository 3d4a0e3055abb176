// SPDX-License-Identifier: MIT
#include "widgets/AxisTickers.h"

#include <cmath>

namespace memviz {

namespace {
TickQuantity tickQuantity(ScaledAxisTicker::Quantity q) {
    switch (q) {
    case ScaledAxisTicker::Quantity::Bytes: return TickQuantity::Bytes;
    case ScaledAxisTicker::Quantity::Count: return TickQuantity::Count;
    case ScaledAxisTicker::Quantity::Time: break;
    }
    return TickQuantity::Time;
}
} // namespace

bool ScaledAxisTicker::updateUnit(const QCPRange& range) {
    const ScaledUnit next = axisUnit(tickQuantity(quantity_), range.lower, range.upper);
    const bool changed = next.divisor != unit_.divisor;
    unit_ = next;
    return changed;
}

double ScaledAxisTicker::getTickStep(const QCPRange& range) { return tickStep(unit_, range.lower, range.upper, tickCount()); }

QString ScaledAxisTicker::getTickLabel(double tick, const QLocale& locale, QChar, int) {
    // plot/AxisTicks.h's number, with the locale's decimal point.
    QString s = QString::fromStdString(tickNumber(tick, unit_));
    return s.replace(QLatin1Char('.'), locale.decimalPoint());
}

} // namespace memviz

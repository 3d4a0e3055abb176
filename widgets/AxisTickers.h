// SPDX-License-Identifier: MIT
#pragma once
// Axis tickers whose labels follow the visible range's magnitude: bytes in B/KiB/MiB/GiB,
// times in ns/µs/ms/s. The owning plot puts the unit into the axis label. The rule (unit,
// step, numbers) is plot/AxisTicks.h's, which the report's SVG follows too.
#include <qcustomplot.h>

#include "plot/AxisTicks.h"
#include "words/Units.h"

namespace memviz {

class ScaledAxisTicker : public QCPAxisTicker {
public:
    enum class Quantity { Bytes, Time, Count };
    explicit ScaledAxisTicker(Quantity q) : quantity_(q) {}
    void setQuantity(Quantity q) { quantity_ = q; }
    Quantity quantity() const { return quantity_; }

    // Picks the unit for a range; returns true when it changed.
    bool updateUnit(const QCPRange& range);
    QString unitSuffix() const { return QString::fromUtf8(unit_.suffix); }

protected:
    double getTickStep(const QCPRange& range) override;
    QString getTickLabel(double tick, const QLocale& locale, QChar formatChar, int precision) override;

private:
    Quantity quantity_;
    ScaledUnit unit_{1.0, "B"};
};

} // namespace memviz

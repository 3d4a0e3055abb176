// SPDX-License-Identifier: MIT
#pragma once
// The one tick rule of a memory chart's axes, for the window's timeline (widgets/AxisTickers)
// and the report's SVG (report/SvgTimeline) alike: the unit an axis shows its numbers in
// (bytes in B/KiB/MiB/GiB by the largest value shown, times in ns/µs/ms/s by the span, counts
// in thousands, millions ... by the largest value), a step of 1, 2, 2.5 or 5 times a power of
// ten of that unit for about `tickCount` ticks, ticks at the step's multiples inside the range,
// and each tick's number without trailing zeros (the unit goes into the axis title).
#include <string>
#include <vector>

#include "words/Units.h"

namespace memviz {

enum class TickQuantity { Bytes, Time, Count };

// About this many ticks on a time (x) axis and on a bytes or count (y) axis.
inline constexpr int kTimeAxisTicks = 8;
inline constexpr int kValueAxisTicks = 6;

// 1, 2, 2.5 or 5 times a power of ten, at least `raw` (within 0.1%).
double niceStep(double raw);

// Plain counts in thousands, millions, ... (the suffix is a word for the axis title; "" = ones).
ScaledUnit countUnitFor(double count);

// The unit an axis over [lower, upper] shows its numbers in.
ScaledUnit axisUnit(TickQuantity q, double lower, double upper);

// The step between ticks, in the axis's own values (bytes, ns, counts).
double tickStep(const ScaledUnit& unit, double lower, double upper, int tickCount);

// A tick's number in `unit`: up to three decimals, trailing zeros dropped ("0.25", "1", "-0" is "0").
std::string tickNumber(double tick, const ScaledUnit& unit);

struct AxisTicks {
    ScaledUnit unit{1.0, ""};
    double step = 1;
    std::vector<double> values;       // the multiples of step inside [lower, upper], ascending
    std::vector<std::string> labels;  // tickNumber of each
};

AxisTicks axisTicks(TickQuantity q, double lower, double upper, int tickCount);

} // namespace memviz

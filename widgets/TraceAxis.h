// SPDX-License-Identifier: MIT
#pragma once
// What the timeline's x axis counts for a trace (TraceInfo::timeKind): nanoseconds, event
// numbers, or a profiler's own unit (massif's instructions or bytes allocated), with the
// matching axis label and read-out text.
#include <QString>
#include <string>

#include "widgets/AxisTickers.h"

namespace memviz {

enum class XKind { Time, Index, Instructions, Bytes };

XKind xKindOf(const std::string& timeKind);
ScaledAxisTicker::Quantity tickerQuantity(XKind kind);
// e.g. "Time since trace start (ms)", "Instructions executed (millions)".
QString xAxisLabel(XKind kind, const QString& unitSuffix);
// One x position in words, for read-outs and the peak label.
QString xValueText(XKind kind, double x);
// A series value with its unit: bytes scaled ("1.50 MiB"), anything else as "1234 calls/s".
QString seriesValueText(const std::string& unit, double v);

} // namespace memviz

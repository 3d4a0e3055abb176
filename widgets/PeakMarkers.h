#pragma once
// The peak of each device, marked on the timeline and labelled with its size and time; for
// stacked charts (memory categories) the label breaks the peak down by category.
#include <QString>
#include <functional>

class QCustomPlot;

namespace memviz {

class TraceSession;

// Adds the markers as plot items; they are removed with the plot's other items. `xText`
// writes an x position in words (a time, an event number, instructions...).
void addPeakMarkers(QCustomPlot* plot, TraceSession& session, const std::function<QString(double)>& xText);

// "parameter 1.00 GiB, activation 200 MiB, ..." at time t for the device's stacked series,
// largest first; empty when the device has none.
QString stackBreakdownAt(TraceSession& session, int device, std::int64_t t);

} // namespace memviz

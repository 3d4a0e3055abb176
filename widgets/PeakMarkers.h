// SPDX-License-Identifier: MIT
#pragma once
// The peak of each device, marked on the timeline at the top of its curve (plot/PlotPeaks.h)
// and labelled with its size and time, placed with the chart's other texts (PlotLabels.h);
// the file's own lower peak (massif's detailed peak) gets a hollow mark and its own label; a
// device too small for the shared axis gets a note in the corner instead of a label on another
// device's curve. For stacked charts (memory categories) the timeline's line above the plot says each
// category's share of the peak: a box of them beside the peak hid the data next to it.
#include <QString>
#include <QStringList>
#include <cstdint>
#include <functional>
#include <optional>

class QCustomPlot;

namespace memviz {

class PlotLabels;
class TraceSession;
struct SeriesInfo;

// Adds the markers as plot items; they are removed with the plot's other items. `xText`
// writes an x position in words (a time, an event number, instructions...).
void addPeakMarkers(QCustomPlot* plot, TraceSession& session, const std::function<QString(double)>& xText, PlotLabels& labels);

// "activation 2.41 GiB", "parameter 97.69 MiB", ... at time t for the device's stacked
// series, largest first; empty when the device has none.
QStringList stackBreakdownAt(TraceSession& session, int device, std::int64_t t);

} // namespace memviz

// SPDX-License-Identifier: MIT
#pragma once
// Keeps a chart's text whole when the chart is narrow (the what-if dock at 1280×800, the
// lessons in presenter mode): a legend in the top row gets as many columns as the width holds, and category tick
// labels that would run together are turned.
class QCPAxis;
class QCustomPlot;

namespace memviz {

// Re-wraps the plot's legend (filled columns first) into as many columns as `width` pixels
// hold without cutting an entry; one column at the least. Returns true when it changed.
bool fitLegendColumns(QCustomPlot* plot, int width);

// Turns the text ticks of `axis` by 30° when side by side they are wider than the axis (as
// laid out by the last replot), straight again when they fit. Returns true when it changed.
bool fitTickLabels(QCPAxis* axis);

// Keeps `plot`'s legend columns (when `legendColumns`: a legend in the top row) and the text
// ticks of `tickAxis` fitted after every layout, that is whenever the plot's size, fonts or
// contents change.
void keepTextFitted(QCustomPlot* plot, QCPAxis* tickAxis = nullptr, bool legendColumns = true);

// Shows the legend in a row of its own above the axis rect (filled columns first, at most
// `wrap` per row, no frame), so it never hides data or peak labels.
void putLegendAbovePlot(QCustomPlot* plot, int wrap);

// Small icons, tight margins and a slightly smaller font for the legend entries (the what-if
// charts, where a legend competes with the data for a short dock).
void compactLegend(QCustomPlot* plot);

} // namespace memviz

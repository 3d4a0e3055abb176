// SPDX-License-Identifier: MIT
#pragma once
// Small drawing helpers shared by the model lessons: byte axes in one unit, stacked category
// bars, text ticks.
#include <QString>
#include <QStringList>
#include <QVector>
#include <vector>

#include "words/Units.h"
#include "workshop/LessonSweeps.h"

class QCustomPlot;
class QCPAxis;

namespace memviz {

struct LessonStyle;

// The unit for values up to `largest` bytes, and the values divided by it.
ScaledUnit unitFor(double largest);
QString bytesText(double bytes); // "1.47 GiB"

// Clears the plot's graphs, bars and items and applies the lesson style, for a redraw.
void resetPlot(QCustomPlot* plot, const LessonStyle& style);

// A batch-size axis: log2 ticks, whole numbers, from just under 1 to past `largestBatch`.
void setBatchAxis(QCPAxis* axis, double largestBatch);

// Text labels at 1, 2, ... on the axis.
void setTextTicks(QCPAxis* axis, const QStringList& labels);

// One stacked bar per footprint, one layer per category group: model state (parameters,
// gradients, optimizer state), activations and temporaries (with the input) and overhead.
void drawFootprintBars(QCustomPlot* plot, const std::vector<workshop::Footprint>& bars, const QStringList& labels,
                       const LessonStyle& style);

} // namespace memviz

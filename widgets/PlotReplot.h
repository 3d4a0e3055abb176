// SPDX-License-Identifier: MIT
#pragma once
// Replots a chart only when it is on screen. A chart on a tab that is not shown costs nothing
// when its data changes: it is marked, and replotted (queued) when it is shown. Drawing the
// Active Memory bands of a hidden tab after a snapshot device switch took 60-120 ms of the GUI
// thread (docs/performance-snapshot.md, "GUI-thread stalls").
#include <qcustomplot.h>

namespace memviz {

void replotWhenShown(QCustomPlot* plot, QCustomPlot::RefreshPriority priority = QCustomPlot::rpQueuedReplot);

// QCustomPlot redraws at once on every resize, and allocates its paint buffers anew each time;
// while a page is laid out (a trace opening) a chart is resized several times in one event:
// 76 ms of the GUI thread on a snapshot's open (docs/performance.md, "GUI-thread stalls").
// After this call a resize sets the chart's viewport and queues one replot (requests made
// meanwhile collapse into it; none while hidden, see replotWhenShown).
void replotQueuedOnResize(QCustomPlot* plot);

} // namespace memviz

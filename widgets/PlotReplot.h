// SPDX-License-Identifier: MIT
#pragma once
// Replots a chart only when it is on screen. A chart on a tab that is not shown costs nothing
// when its data changes: it is marked, and replotted (queued) when it is shown. Drawing the
// Active Memory bands of a hidden tab after a snapshot device switch took 60-120 ms of the GUI
// thread (docs/performance-snapshot.md, "GUI-thread stalls").
#include <qcustomplot.h>

namespace memviz {

void replotWhenShown(QCustomPlot* plot, QCustomPlot::RefreshPriority priority = QCustomPlot::rpQueuedReplot);

} // namespace memviz

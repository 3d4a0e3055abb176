// SPDX-License-Identifier: MIT
#pragma once
// The Compare mode's chart: the memory curves of trace A and trace B on one time axis (B
// shifted to line up with A, model/compare/TraceComparison.h), their difference B - A as a
// third series, and each peak marked with its value. Draws what it is given; reads nothing.
#include <QSharedPointer>
#include <QWidget>

#include "compare/TraceComparison.h"

class QCustomPlot;
class QCPGraph;

namespace memviz {

class ScaledAxisTicker;

class ComparePlot : public QWidget {
    Q_OBJECT
public:
    explicit ComparePlot(QWidget* parent = nullptr);
    void show(const TraceComparison& comparison, std::int64_t shiftB, const QString& nameA, const QString& nameB);
    void resetZoom();
    QCustomPlot* plot() const { return plot_; }
    QCPGraph* graphA() const { return a_; }
    QCPGraph* graphB() const { return b_; }
    QCPGraph* graphDifference() const { return diff_; }

private:
    void updateAxes();

    QCustomPlot* plot_;
    QCPGraph *a_, *b_, *diff_;
    QSharedPointer<ScaledAxisTicker> timeTicker_;
    QSharedPointer<ScaledAxisTicker> bytesTicker_;
    double xMin_ = 0, xMax_ = 1, yMin_ = 0, yMax_ = 1;
};

} // namespace memviz

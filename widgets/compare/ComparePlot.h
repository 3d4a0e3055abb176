// SPDX-License-Identifier: MIT
#pragma once
// The Compare mode's chart: the memory curves of trace A and trace B on one time axis (B
// shifted to line up with A, model/compare/TraceComparison.h), their difference B - A as a
// third series, each peak marked with its value, and the chosen table row's curve in each. Draws what it is given; reads nothing.
// Shift+drag moves B along the time axis (plain drag pans, the wheel zooms).
#include <QPen>
#include <QSharedPointer>
#include <QWidget>

#include "compare/TraceComparison.h"
#include "widgets/TraceAxis.h"

class QCustomPlot;
class QMouseEvent;
class QCPGraph;

namespace memviz {

class ScaledAxisTicker;

class ComparePlot : public QWidget {
    Q_OBJECT
public:
    explicit ComparePlot(QWidget* parent = nullptr);
    void show(const TraceComparison& comparison, std::int64_t shiftB, const QString& nameA, const QString& nameB);
    void resetZoom();
    // The chosen table row's curve in each trace (B shifted with B), drawn thinner and dotted
    // under the name `label`; empty curves and an empty label remove them.
    void showRow(const QString& label, std::vector<SeriesPoint> a, std::vector<SeriesPoint> b);
    std::int64_t shiftB() const { return shiftB_; }

signals:
    // A Shift+drag moved B by `delta` (trace time units) since the last show().
    void shiftDragged(std::int64_t delta);

public:
    QCustomPlot* plot() const { return plot_; }
    QCPGraph* graphA() const { return a_; }
    QCPGraph* graphB() const { return b_; }
    QCPGraph* graphDifference() const { return diff_; }
    QCPGraph* graphRowA() const { return rowA_; }
    QCPGraph* graphRowB() const { return rowB_; }

private:
    void updateAxes();
    void draw(); // the curves, the difference and the peaks for shiftB_; keeps the zoom
    void onPress(QMouseEvent* event);
    void onMove(QMouseEvent* event);
    void onRelease();

    QCustomPlot* plot_;
    QCPGraph *a_, *b_, *diff_, *rowA_, *rowB_;
    std::vector<QPen> pens_; // as chosen; densityPen narrows them on dense curves
    QSharedPointer<ScaledAxisTicker> timeTicker_;
    QSharedPointer<ScaledAxisTicker> bytesTicker_;
    double xMin_ = 0, xMax_ = 1, yMin_ = 0, yMax_ = 1;
    std::vector<SeriesPoint> curveA_, curveB_, rowCurveA_, rowCurveB_;
    std::int64_t shiftB_ = 0;
    XKind xKind_ = XKind::Time;
    bool dragging_ = false;
    double dragFrom_ = 0;          // the time under the pointer when the drag began
    std::int64_t dragBase_ = 0;    // shiftB_ then
    std::int64_t shownShift_ = 0;  // shiftB_ at the last show()
};

} // namespace memviz

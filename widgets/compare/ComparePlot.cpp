// SPDX-License-Identifier: MIT
#include "widgets/compare/ComparePlot.h"

#include <QVBoxLayout>
#include <algorithm>
#include <array>
#include <cmath>
#include <qcustomplot.h>

#include "widgets/AxisTickers.h"
#include "widgets/ChartFit.h"
#include "widgets/ColumnGraph.h"
#include "widgets/TraceAxis.h"
#include "widgets/PlotReplot.h"

namespace memviz {

namespace {

const QColor kColorA(31, 119, 180);  // blue
const QColor kColorB(255, 127, 14);  // orange
const QColor kColorDiff(90, 90, 90); // grey

void fill(QCPGraph* g, const std::vector<SeriesPoint>& points, std::int64_t shift) {
    QVector<double> x, y;
    x.reserve(static_cast<qsizetype>(points.size()));
    y.reserve(static_cast<qsizetype>(points.size()));
    for (const SeriesPoint& p : points) {
        x.append(static_cast<double>(p.t + shift));
        y.append(static_cast<double>(p.v));
    }
    g->setData(x, y, true);
}

std::vector<SeriesPoint>::const_iterator peakOf(const std::vector<SeriesPoint>& points) {
    return std::max_element(points.begin(), points.end(), [](const SeriesPoint& x, const SeriesPoint& y) { return x.v < y.v; });
}

// "A peak 1.35 MiB" at the curve's highest point; `align` says on which side of it the text goes.
void markPeak(QCustomPlot* plot, const std::vector<SeriesPoint>& points, std::int64_t shift, const QString& label,
              const QColor& color, Qt::Alignment align) {
    if (points.empty()) return;
    const auto peak = peakOf(points);
    auto* dot = new QCPItemTracer(plot);
    dot->position->setCoords(static_cast<double>(peak->t + shift), static_cast<double>(peak->v));
    dot->setStyle(QCPItemTracer::tsCircle);
    dot->setSize(7);
    dot->setPen(QPen(color));
    dot->setBrush(color);
    auto* text = new QCPItemText(plot);
    text->position->setParentAnchor(dot->position);
    text->position->setCoords(0, -4);
    text->setPositionAlignment(align | Qt::AlignBottom);
    text->setText(label + " " + seriesValueText("bytes", static_cast<double>(peak->v)));
    text->setColor(color.darker(130));
    text->setPadding(QMargins(4, 1, 4, 1));
    text->setBrush(QColor(255, 255, 255, 220));
}

} // namespace

ComparePlot::ComparePlot(QWidget* parent)
    : QWidget(parent), plot_(new QCustomPlot(this)), timeTicker_(new ScaledAxisTicker(ScaledAxisTicker::Quantity::Time)),
      bytesTicker_(new ScaledAxisTicker(ScaledAxisTicker::Quantity::Bytes)) {
    replotQueuedOnResize(plot_); // one redraw after a layout settles, not one per resize
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(plot_);
    plot_->setInteractions(QCP::iRangeDrag | QCP::iRangeZoom);
    plot_->setToolTip(tr("Drag to pan, Shift+drag to move B in time, wheel to zoom, Home to reset the zoom"));
    connect(plot_, &QCustomPlot::mousePress, this, &ComparePlot::onPress);
    connect(plot_, &QCustomPlot::mouseMove, this, &ComparePlot::onMove);
    connect(plot_, &QCustomPlot::mouseRelease, this, &ComparePlot::onRelease);
    plot_->axisRect()->setRangeZoom(Qt::Horizontal);
    plot_->axisRect()->setRangeDrag(Qt::Horizontal);
    timeTicker_->setTickCount(8);
    bytesTicker_->setTickCount(6);
    plot_->xAxis->setTicker(timeTicker_);
    plot_->yAxis->setTicker(bytesTicker_);
    a_ = plot_->addGraph();
    b_ = plot_->addGraph();
    diff_ = plot_->addGraph();
    rowA_ = plot_->addGraph();
    rowB_ = plot_->addGraph();
    for (auto [g, color, width] : {std::tuple{a_, kColorA, 2.0}, {b_, kColorB, 2.0}, {diff_, kColorDiff, 1.5},
                                   {rowA_, kColorA.darker(160), 1.5}, {rowB_, kColorB.darker(150), 1.5}}) {
        QPen pen(color, width);
        if (g == diff_) pen.setStyle(Qt::DashLine);
        if (g == rowA_ || g == rowB_) pen.setStyle(Qt::DotLine);
        pens_.push_back(pen);
        g->setPen(pen);
        g->setLineStyle(QCPGraph::lsStepLeft);
    }
    diff_->setName(tr("difference B − A"));
    rowA_->removeFromLegend();
    rowB_->removeFromLegend();
    putLegendAbovePlot(plot_, 3);
    plot_->legend->setMargins(QMargins(8, 4, 8, 0));
    connect(plot_->xAxis, qOverload<const QCPRange&>(&QCPAxis::rangeChanged), this, [this] { updateAxes(); });
}

void ComparePlot::show(const TraceComparison& c, std::int64_t shiftB, const QString& nameA, const QString& nameB) {
    a_->setName(tr("A: %1").arg(nameA));
    b_->setName(tr("B: %1").arg(nameB));
    // Both traces count the same thing along x (time, events, instructions): that is the axis;
    // two different kinds are drawn on the time axis.
    const XKind kind = c.a.summary.trace.timeKind == c.b.summary.trace.timeKind ? xKindOf(c.a.summary.trace.timeKind) : XKind::Time;
    if (kind != xKind_) {
        xKind_ = kind;
        timeTicker_.reset(new ScaledAxisTicker(tickerQuantity(kind)));
        timeTicker_->setTickCount(8);
        plot_->xAxis->setTicker(timeTicker_);
    }
    curveA_ = c.a.curve;
    curveB_ = c.b.curve;
    shiftB_ = shownShift_ = shiftB;
    draw();
    resetZoom();
}

void ComparePlot::showRow(const QString& label, std::vector<SeriesPoint> a, std::vector<SeriesPoint> b) {
    rowCurveA_ = label.isEmpty() ? std::vector<SeriesPoint>{} : std::move(a);
    rowCurveB_ = label.isEmpty() ? std::vector<SeriesPoint>{} : std::move(b);
    rowA_->removeFromLegend();
    rowB_->removeFromLegend();
    rowA_->setName(tr("A: %1").arg(label));
    rowB_->setName(tr("B: %1").arg(label));
    if (!rowCurveA_.empty()) rowA_->addToLegend();
    if (!rowCurveB_.empty()) rowB_->addToLegend();
    draw();
    plot_->replot(QCustomPlot::rpQueuedReplot);
}

void ComparePlot::draw() {
    const std::int64_t shiftB = shiftB_;
    plot_->clearItems();
    fill(a_, curveA_, 0);
    fill(b_, curveB_, shiftB);
    fill(diff_, differenceCurve(curveA_, curveB_, shiftB), 0);
    fill(rowA_, rowCurveA_, 0);
    fill(rowB_, rowCurveB_, shiftB);
    // Wide pens on curves of several points per pixel column take seconds to draw.
    const int columns = std::max(1, plot_->axisRect()->width());
    for (std::size_t i = 0; i < 5; ++i) {
        QCPGraph* g = std::array{a_, b_, diff_, rowA_, rowB_}[i];
        g->setPen(densityPen(pens_[i], g->dataCount(), columns));
    }
    bool found = false;
    xMin_ = 0, xMax_ = 1, yMin_ = 0, yMax_ = 1;
    for (QCPGraph* g : {a_, b_, diff_}) {
        bool ok = false;
        const QCPRange xr = g->getKeyRange(ok);
        if (!ok) continue;
        const QCPRange yr = g->getValueRange(ok);
        xMin_ = found ? std::min(xMin_, xr.lower) : xr.lower;
        xMax_ = found ? std::max(xMax_, xr.upper) : xr.upper;
        yMin_ = std::min({found ? yMin_ : 0.0, yr.lower, 0.0});
        yMax_ = std::max(found ? yMax_ : 0.0, yr.upper);
        found = true;
    }
    // Each label goes toward the middle of the plot, so none is cut at an edge; two peaks close
    // together get their labels on opposite sides.
    const double mid = (xMin_ + xMax_) / 2, span = std::max(1.0, xMax_ - xMin_);
    const double xA = curveA_.empty() ? mid : static_cast<double>(peakOf(curveA_)->t);
    const double xB = curveB_.empty() ? mid : static_cast<double>(peakOf(curveB_)->t + shiftB);
    const Qt::Alignment alignA = xA > mid ? Qt::AlignRight : Qt::AlignLeft;
    const Qt::Alignment opposite = alignA == Qt::AlignRight ? Qt::AlignLeft : Qt::AlignRight;
    const Qt::Alignment alignB = std::abs(xB - xA) < span / 4 ? opposite : (xB > mid ? Qt::AlignRight : Qt::AlignLeft);
    markPeak(plot_, curveA_, 0, tr("A peak"), kColorA, alignA);
    markPeak(plot_, curveB_, shiftB, tr("B peak"), kColorB, alignB);
}

void ComparePlot::onPress(QMouseEvent* event) {
    if (event->button() != Qt::LeftButton || !(event->modifiers() & Qt::ShiftModifier) || curveB_.empty()) return;
    dragging_ = true;
    plot_->setInteraction(QCP::iRangeDrag, false); // the drag moves B, not the view
    dragFrom_ = plot_->xAxis->pixelToCoord(event->position().x());
    dragBase_ = shiftB_;
}

void ComparePlot::onMove(QMouseEvent* event) {
    if (!dragging_) return;
    shiftB_ = dragBase_ + std::llround(plot_->xAxis->pixelToCoord(event->position().x()) - dragFrom_);
    draw();
    plot_->replot(QCustomPlot::rpQueuedReplot);
}

void ComparePlot::onRelease() {
    if (!dragging_) return;
    dragging_ = false;
    plot_->setInteraction(QCP::iRangeDrag, true);
    emit shiftDragged(shiftB_ - shownShift_);
}

void ComparePlot::resetZoom() {
    const double span = std::max(1.0, xMax_ - xMin_);
    const double height = std::max(1.0, yMax_ - yMin_);
    plot_->yAxis->setRange(yMin_ - (yMin_ < 0 ? height * 0.05 : 0), yMax_ + height * 0.18); // room for the peak labels
    plot_->xAxis->setRange(xMin_ - span * 0.02, xMax_ + span * 0.04);
    updateAxes();
}

void ComparePlot::updateAxes() {
    timeTicker_->updateUnit(plot_->xAxis->range());
    bytesTicker_->updateUnit(plot_->yAxis->range());
    plot_->xAxis->setLabel(xAxisLabel(xKind_, timeTicker_->unitSuffix()));
    plot_->yAxis->setLabel(tr("Memory (%1)").arg(bytesTicker_->unitSuffix()));
    plot_->replot(QCustomPlot::rpQueuedReplot);
}

} // namespace memviz

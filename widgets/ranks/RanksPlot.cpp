// SPDX-License-Identifier: MIT
#include "widgets/ranks/RanksPlot.h"

#include <QKeyEvent>
#include <QVBoxLayout>
#include <algorithm>
#include <qcustomplot.h>

#include "widgets/AxisTickers.h"
#include "widgets/TraceAxis.h"
#include "widgets/PlotReplot.h"

namespace memviz {

namespace {

const QColor kLaneColors[] = {{31, 119, 180}, {255, 127, 14}, {44, 160, 44}, {214, 39, 40},
                              {148, 103, 189}, {140, 86, 75}, {227, 119, 194}, {127, 127, 127}};

QColor laneColor(std::size_t i) { return kLaneColors[i % (sizeof kLaneColors / sizeof kLaneColors[0])]; }

} // namespace

RanksPlot::RanksPlot(QWidget* parent)
    : QWidget(parent), plot_(new QCustomPlot(this)), timeTicker_(new ScaledAxisTicker(ScaledAxisTicker::Quantity::Time)),
      bytesTicker_(new ScaledAxisTicker(ScaledAxisTicker::Quantity::Bytes)) {
    replotQueuedOnResize(plot_); // one redraw after a layout settles, not one per resize
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(plot_);
    plot_->setInteractions(QCP::iRangeDrag | QCP::iRangeZoom);
    plot_->setToolTip(tr("Drag to pan, wheel to zoom (every lane together), Shift+drag or right-drag to select a time "
                         "window, double-click or Esc to clear it, Home to reset the zoom"));
    plot_->plotLayout()->clear();
    timeTicker_->setTickCount(8);
    bytesTicker_->setTickCount(3);
    setFocusPolicy(Qt::StrongFocus);
    connect(plot_, &QCustomPlot::mousePress, this, &RanksPlot::onPress);
    connect(plot_, &QCustomPlot::mouseMove, this, &RanksPlot::onMove);
    connect(plot_, &QCustomPlot::mouseRelease, this, &RanksPlot::onRelease);
    connect(plot_, &QCustomPlot::mouseDoubleClick, this, [this] { setSelection(std::nullopt); });
}

void RanksPlot::show(const RankSet& set) {
    plot_->clearItems();
    plot_->clearGraphs();
    plot_->plotLayout()->clear();
    lanes_.clear();
    wallClock_ = set.wallClock;
    auto* margins = new QCPMarginGroup(plot_);
    xMin_ = 0, xMax_ = 1, yMax_ = 1;
    bool any = false;
    for (std::size_t i = 0; i < set.rows.size(); ++i) {
        const RankRow& row = set.rows[i];
        Lane lane;
        lane.rect = new QCPAxisRect(plot_);
        plot_->plotLayout()->addElement(static_cast<int>(i), 0, lane.rect);
        lane.rect->setRangeDrag(Qt::Horizontal);
        lane.rect->setRangeZoom(Qt::Horizontal);
        lane.rect->setMarginGroup(QCP::msLeft | QCP::msRight, margins);
        QCPAxis* x = lane.rect->axis(QCPAxis::atBottom);
        QCPAxis* y = lane.rect->axis(QCPAxis::atLeft);
        x->setTicker(timeTicker_);
        y->setTicker(bytesTicker_);
        const bool last = i + 1 == set.rows.size();
        x->setTickLabels(last); // small multiples: the time axis is labelled once, under the last lane
        lane.graph = plot_->addGraph(x, y);
        lane.graph->setLineStyle(QCPGraph::lsStepLeft);
        lane.graph->setPen(QPen(laneColor(i), 1.5));
        lane.graph->setBrush(QColor(laneColor(i).red(), laneColor(i).green(), laneColor(i).blue(), 40));
        QVector<double> xs, ys;
        for (const SeriesPoint& p : row.curve) {
            xs.append(static_cast<double>(p.t + row.startOffsetNs));
            ys.append(static_cast<double>(p.v));
        }
        lane.graph->setData(xs, ys, true);
        if (!xs.isEmpty()) {
            xMin_ = any ? std::min(xMin_, xs.front()) : xs.front();
            xMax_ = any ? std::max(xMax_, xs.back()) : xs.back();
            any = true;
        }
        yMax_ = std::max(yMax_, static_cast<double>(row.peakBytes));
        // The peak: a dot and its value, the text toward the middle so it is never cut.
        auto* dot = new QCPItemTracer(plot_);
        dot->setClipAxisRect(lane.rect);
        dot->position->setAxes(x, y);
        dot->position->setCoords(static_cast<double>(row.peakTimeNs + row.startOffsetNs), static_cast<double>(row.peakBytes));
        dot->setStyle(QCPItemTracer::tsCircle);
        dot->setSize(6);
        dot->setPen(QPen(laneColor(i).darker(120)));
        dot->setBrush(laneColor(i));
        auto* text = new QCPItemText(plot_);
        text->setClipAxisRect(lane.rect);
        text->position->setParentAnchor(dot->position);
        text->position->setCoords(0, -3);
        text->setPositionAlignment(Qt::AlignHCenter | Qt::AlignBottom);
        text->setText(tr("peak %1").arg(seriesValueText("bytes", static_cast<double>(row.peakBytes))));
        text->setColor(laneColor(i).darker(150));
        text->setBrush(QColor(255, 255, 255, 210));
        text->setPadding(QMargins(3, 0, 3, 0));
        lane.peakLabel = text;
        lane.peakX = static_cast<double>(row.peakTimeNs + row.startOffsetNs);
        lane.band = new QCPItemRect(plot_);
        lane.band->setClipAxisRect(lane.rect);
        for (QCPItemPosition* pos : {lane.band->topLeft, lane.band->bottomRight}) {
            pos->setAxes(x, y);
            pos->setAxisRect(lane.rect);
            pos->setTypeX(QCPItemPosition::ptPlotCoords);
            pos->setTypeY(QCPItemPosition::ptAxisRectRatio);
        }
        lane.band->setPen(QPen(QColor(60, 60, 60, 120)));
        lane.band->setBrush(QColor(60, 60, 60, 35));
        lane.band->setVisible(false);
        y->setLabel(QString::fromStdString(row.name));
        connect(x, qOverload<const QCPRange&>(&QCPAxis::rangeChanged), this, [this, rect = lane.rect] { syncX(rect); });
        lanes_.push_back(lane);
    }
    resetZoom();
}

void RanksPlot::syncX(const QCPAxisRect* from) {
    if (syncing_) return;
    syncing_ = true;
    const QCPRange r = from->axis(QCPAxis::atBottom)->range();
    for (const Lane& l : lanes_)
        if (l.rect != from) l.rect->axis(QCPAxis::atBottom)->setRange(r);
    syncing_ = false;
    updateAxes();
}

void RanksPlot::resetZoom() {
    if (lanes_.empty()) {
        plot_->replot();
        return;
    }
    const double span = std::max(1.0, xMax_ - xMin_);
    for (const Lane& l : lanes_) l.rect->axis(QCPAxis::atLeft)->setRange(0, yMax_ * 1.3); // room for the peak labels
    lanes_.front().rect->axis(QCPAxis::atBottom)->setRange(xMin_ - span * 0.02, xMax_ + span * 0.03);
    syncX(lanes_.front().rect);
}

void RanksPlot::updateAxes() {
    if (lanes_.empty()) return;
    timeTicker_->updateUnit(lanes_.front().rect->axis(QCPAxis::atBottom)->range());
    bytesTicker_->updateUnit(lanes_.front().rect->axis(QCPAxis::atLeft)->range());
    for (std::size_t i = 0; i < lanes_.size(); ++i) {
        QCPAxis* y = lanes_[i].rect->axis(QCPAxis::atLeft);
        const QString name = y->label().section(QLatin1Char('\n'), 0, 0);
        y->setLabel(name + "\n(" + bytesTicker_->unitSuffix() + ")");
    }
    // A peak label near an edge of the view goes inward, so it is never cut.
    const QCPRange shown = lanes_.front().rect->axis(QCPAxis::atBottom)->range();
    for (const Lane& l : lanes_) {
        const double at = (l.peakX - shown.lower) / std::max(1e-9, shown.size());
        const Qt::Alignment side = at > 0.8 ? Qt::AlignRight : at < 0.2 ? Qt::AlignLeft : Qt::AlignHCenter;
        l.peakLabel->setPositionAlignment(side | Qt::AlignBottom);
    }
    lanes_.back().rect->axis(QCPAxis::atBottom)->setLabel(
        (wallClock_ ? tr("Time since the first rank started (%1)") : tr("Time since each rank's start (%1)"))
            .arg(timeTicker_->unitSuffix()));
    drawSelection();
    plot_->replot(QCustomPlot::rpQueuedReplot);
}

void RanksPlot::setSelection(std::optional<std::pair<double, double>> range) {
    if (range && range->first > range->second) std::swap(range->first, range->second);
    selection_ = range;
    drawSelection();
    plot_->replot(QCustomPlot::rpQueuedReplot);
    emit selectionChanged();
}

void RanksPlot::drawSelection() {
    for (const Lane& l : lanes_) {
        l.band->setVisible(selection_.has_value());
        if (!selection_) continue;
        l.band->topLeft->setCoords(selection_->first, 0);
        l.band->bottomRight->setCoords(selection_->second, 1);
    }
}

void RanksPlot::highlight(int lane) {
    for (std::size_t i = 0; i < lanes_.size(); ++i)
        lanes_[i].graph->setPen(QPen(laneColor(i), static_cast<int>(i) == lane ? 3.0 : 1.5));
    plot_->replot(QCustomPlot::rpQueuedReplot);
}

void RanksPlot::keyPressEvent(QKeyEvent* event) {
    if (event->key() == Qt::Key_Escape && selection_) {
        setSelection(std::nullopt);
        return;
    }
    if (event->key() == Qt::Key_Home) {
        resetZoom();
        return;
    }
    QWidget::keyPressEvent(event);
}

void RanksPlot::onPress(QMouseEvent* event) {
    const bool select = event->button() == Qt::RightButton ||
                        (event->button() == Qt::LeftButton && (event->modifiers() & Qt::ShiftModifier));
    if (!select || lanes_.empty()) return;
    selecting_ = true;
    plot_->setInteraction(QCP::iRangeDrag, false); // the drag selects, it does not pan
    selectFrom_ = lanes_.front().rect->axis(QCPAxis::atBottom)->pixelToCoord(event->position().x());
    selection_ = std::pair{selectFrom_, selectFrom_};
    drawSelection();
}

void RanksPlot::onMove(QMouseEvent* event) {
    if (!selecting_) return;
    const double at = lanes_.front().rect->axis(QCPAxis::atBottom)->pixelToCoord(event->position().x());
    selection_ = std::pair{std::min(selectFrom_, at), std::max(selectFrom_, at)};
    drawSelection();
    plot_->replot(QCustomPlot::rpQueuedReplot);
}

void RanksPlot::onRelease() {
    if (!selecting_) return;
    selecting_ = false;
    plot_->setInteraction(QCP::iRangeDrag, true);
    setSelection(selection_ && selection_->second > selection_->first ? selection_ : std::nullopt);
}

} // namespace memviz

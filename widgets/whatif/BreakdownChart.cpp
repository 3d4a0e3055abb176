// SPDX-License-Identifier: MIT
#include "widgets/whatif/BreakdownChart.h"
#include "words/CostModelLabels.h"
#include "widgets/Export.h"

#include <qcustomplot.h>

#include <QVBoxLayout>

#include "words/Units.h"
#include "widgets/AxisTickers.h"
#include "widgets/ChartFit.h"
#include "widgets/whatif/CategoryColors.h"
#include "widgets/PlotReplot.h"

namespace memviz {

using costmodel::Category;

BreakdownChart::BreakdownChart(QWidget* parent)
    : QWidget(parent), plot_(new QCustomPlot(this)), ticker_(new ScaledAxisTicker(ScaledAxisTicker::Quantity::Bytes)) {
    replotQueuedOnResize(plot_); // one redraw after a layout settles, not one per resize
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(plot_);
    exporting::addExportMenu(plot_, QStringLiteral("whatif-breakdown"));
    setMinimumSize(320, 200);
    plot_->yAxis->setTicker(ticker_);
    plot_->xAxis->setTicker(QSharedPointer<QCPAxisTickerText>(new QCPAxisTickerText));
    plot_->xAxis->grid()->setVisible(false);
    plot_->legend->setVisible(true);
    plot_->legend->setBorderPen(Qt::NoPen);
    // The legend stands right of the bars, one entry a row: above them it took most of the
    // height of a short dock and left the bars a sliver.
    plot_->legend->setFillOrder(QCPLegend::foRowsFirst);
    plot_->legend->setWrap(0);
    plot_->plotLayout()->addElement(0, 1, plot_->legend);
    plot_->plotLayout()->setColumnStretchFactor(1, 0.001);
    plot_->legend->setLayer(QStringLiteral("legend"));
    compactLegend(plot_);
    keepTextFitted(plot_, plot_->xAxis, false); // bar labels turned when crowded
    QCPBars* below = nullptr;
    for (int c = 0; c < costmodel::kCategoryCount; ++c) {
        auto* bars = new QCPBars(plot_->xAxis, plot_->yAxis);
        bars->setName(categoryLabel(static_cast<Category>(c)));
        const QColor color = categoryColor(static_cast<Category>(c));
        bars->setPen(QPen(color.darker(130)));
        bars->setBrush(color);
        bars->setWidth(0.6);
        bars->setStackingGap(0);
        if (below) bars->moveAbove(below);
        below = bars;
        layers_.push_back(bars);
    }
    auto* rest = new QCPBars(plot_->xAxis, plot_->yAxis);
    rest->setName(tr("recorded, no category"));
    rest->setPen(QPen(QColor(90, 90, 90)));
    rest->setBrush(QBrush(QColor(120, 120, 120), Qt::BDiagPattern));
    rest->setWidth(0.6);
    rest->setStackingGap(0);
    rest->moveAbove(below);
    rest->removeFromLegend();
    layers_.push_back(rest);
    limitLine_ = new QCPItemStraightLine(plot_);
    limitLine_->setPen(QPen(QColor(200, 0, 0), 1.5, Qt::DashLine));
    limitLabel_ = new QCPItemText(plot_);
    limitLabel_->setPositionAlignment(Qt::AlignLeft | Qt::AlignBottom);
    limitLabel_->position->setTypeX(QCPItemPosition::ptAxisRectRatio);
    limitLabel_->setColor(QColor(200, 0, 0));
    limitLabel_->setClipToAxisRect(false);
}

void BreakdownChart::setBars(const std::vector<Bar>& bars, std::optional<std::int64_t> limit) {
    bars_ = bars;
    auto labels = QSharedPointer<QCPAxisTickerText>(new QCPAxisTickerText);
    double top = 0;
    for (int c = 0; c < costmodel::kCategoryCount; ++c) {
        QVector<double> keys, values;
        for (std::size_t b = 0; b < bars.size(); ++b) {
            keys << static_cast<double>(b);
            values << static_cast<double>(bars[b].parts[static_cast<std::size_t>(c)]);
        }
        layers_[static_cast<std::size_t>(c)]->setData(keys, values, true);
    }
    QVector<double> keys, rest;
    bool anyRest = false;
    for (std::size_t b = 0; b < bars.size(); ++b) {
        keys << static_cast<double>(b);
        rest << static_cast<double>(bars[b].unattributed);
        anyRest = anyRest || bars[b].unattributed > 0;
    }
    layers_.back()->setData(keys, rest, true);
    if (anyRest) layers_.back()->addToLegend();
    else layers_.back()->removeFromLegend();
    for (std::size_t b = 0; b < bars.size(); ++b) {
        labels->addTick(static_cast<double>(b), bars[b].label);
        double sum = 0;
        for (std::int64_t v : bars[b].parts) sum += static_cast<double>(v);
        sum += static_cast<double>(bars[b].unattributed);
        top = std::max(top, sum);
    }
    plot_->xAxis->setTicker(labels);
    plot_->xAxis->setRange(-0.6, static_cast<double>(bars.size()) - 0.4);
    limitLine_->setVisible(limit.has_value());
    limitLabel_->setVisible(limit.has_value());
    if (limit) {
        const double y = static_cast<double>(*limit);
        limitLine_->point1->setCoords(-1, y);
        limitLine_->point2->setCoords(1, y);
        limitLabel_->position->setCoords(0.02, y);
        limitLabel_->setText(tr("limit %1").arg(QString::fromStdString(formatBytes(y))));
        // Keep the limit in view unless it is far above the bars.
        if (y <= top * 4) top = std::max(top, y);
    }
    plot_->yAxis->setRange(0, std::max(1.0, top * 1.12));
    ticker_->updateUnit(plot_->yAxis->range());
    plot_->yAxis->setLabel(tr("At the peak (%1)").arg(ticker_->unitSuffix()));
    plot_->replot();
}

double BreakdownChart::unattributed(int bar) const {
    const auto* points = layers_.back()->data().data();
    auto it = points->findBegin(bar, false);
    return it != points->constEnd() && it->key == bar ? it->value : 0.0;
}

double BreakdownChart::value(int bar, Category category) const {
    const auto* points = layers_[static_cast<std::size_t>(category)]->data().data();
    auto it = points->findBegin(bar, false);
    return it != points->constEnd() && it->key == bar ? it->value : 0.0;
}

} // namespace memviz

// SPDX-License-Identifier: MIT
#include "widgets/whatif/StepTimelineChart.h"
#include "words/CostModelLabels.h"
#include "widgets/Export.h"

#include <qcustomplot.h>

#include <QVBoxLayout>
#include <algorithm>
#include <cmath>

#include "words/Units.h"
#include "widgets/AxisTickers.h"
#include "widgets/ChartFit.h"
#include "widgets/whatif/CategoryColors.h"
#include "widgets/PlotReplot.h"

namespace memviz {

using costmodel::Category;

namespace {
constexpr std::size_t kMaxPoints = 2000;
}

StepTimelineChart::StepTimelineChart(QWidget* parent)
    : QWidget(parent), plot_(new QCustomPlot(this)), bytesTicker_(new ScaledAxisTicker(ScaledAxisTicker::Quantity::Bytes)),
      timeTicker_(new ScaledAxisTicker(ScaledAxisTicker::Quantity::Time)) {
    replotQueuedOnResize(plot_); // one redraw after a layout settles, not one per resize
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(plot_);
    exporting::addExportMenu(plot_, QStringLiteral("whatif-step"));
    setMinimumSize(360, 200);
    plot_->yAxis->setTicker(bytesTicker_);
    plot_->xAxis->setLabel(tr("One step, op by op (%1 simulated ops; a short phase is drawn 10% wide)"));
    plot_->xAxis->setTickLabels(false);
    plot_->xAxis->setTicks(false);
    plot_->xAxis->grid()->setVisible(false);
    plot_->xAxis2->setTicker(timeTicker_);
    putLegendAbovePlot(plot_, 5);
    compactLegend(plot_);
    keepTextFitted(plot_); // as many legend columns as the width holds
    connect(plot_, &QCustomPlot::afterLayout, this, [this] {
        const double upper = rangedTop_ * headroom();
        if (std::abs(plot_->yAxis->range().upper - upper) > upper * 0.02) {
            plot_->yAxis->setRange(0, upper);
            bytesTicker_->updateUnit(plot_->yAxis->range());
            plot_->yAxis->setLabel(tr("Live memory (%1)").arg(bytesTicker_->unitSuffix()));
            plot_->replot(QCustomPlot::rpQueuedReplot);
        }
    });
    QCPGraph* below = nullptr;
    for (int c = 0; c < costmodel::kCategoryCount; ++c) {
        QCPGraph* g = plot_->addGraph();
        g->setName(categoryLabel(static_cast<Category>(c)));
        const QColor color = categoryColor(static_cast<Category>(c));
        g->setPen(QPen(color.darker(120), 1));
        QColor fill = color;
        fill.setAlpha(190);
        g->setBrush(fill);
        g->setLineStyle(QCPGraph::lsStepLeft);
        if (below) g->setChannelFillGraph(below);
        below = g;
        layers_.push_back(g);
    }
    recorded_ = plot_->addGraph(plot_->xAxis2, plot_->yAxis);
    recorded_->setName(tr("recorded (measured)"));
    recorded_->setPen(QPen(QColor(60, 60, 60), 1.5));
    recorded_->setLineStyle(QCPGraph::lsStepLeft);
    projected_ = plot_->addGraph(plot_->xAxis2, plot_->yAxis);
    projected_->setName(tr("projected"));
    projected_->setPen(QPen(QColor(0, 0, 0), 2, Qt::DashLine));
    projected_->setLineStyle(QCPGraph::lsStepLeft);
    recorded_->removeFromLegend();
    projected_->removeFromLegend();
    for (int i = 0; i < 3; ++i) {
        // At the foot of the step: the peak's label takes the top.
        auto* label = new QCPItemText(plot_);
        label->setPositionAlignment(Qt::AlignHCenter | Qt::AlignBottom);
        label->position->setTypeY(QCPItemPosition::ptAxisRectRatio);
        label->setColor(QColor(50, 50, 50));
        label->setBrush(QColor(255, 255, 255, 200));
        label->setPadding(QMargins(3, 1, 3, 1));
        phaseLabels_.push_back(label);
    }
    for (int i = 0; i < 2; ++i) {
        auto* line = new QCPItemStraightLine(plot_);
        line->setPen(QPen(QColor(0, 0, 0, 120), 1, Qt::DotLine));
        phaseLines_.push_back(line);
    }
    limitLine_ = new QCPItemStraightLine(plot_);
    limitLine_->setPen(QPen(QColor(200, 0, 0), 1.5, Qt::DashLine));
    limitLabel_ = new QCPItemText(plot_);
    limitLabel_->setPositionAlignment(Qt::AlignRight | Qt::AlignBottom);
    limitLabel_->position->setTypeX(QCPItemPosition::ptAxisRectRatio);
    limitLabel_->setColor(QColor(200, 0, 0));
    peakLabel_ = new QCPItemText(plot_);
    peakLabel_->setPositionAlignment(Qt::AlignHCenter | Qt::AlignBottom);
    peakLabel_->setPadding(QMargins(0, 0, 0, 3));
}

int StepTimelineChart::pointCount() const { return layers_.front()->dataCount(); }

void StepTimelineChart::setEstimate(const costmodel::Estimate& e, std::optional<std::int64_t> limit) {
    limit_ = limit;
    const auto& samples = e.timeline;
    const double n = static_cast<double>(std::max<std::size_t>(1, samples.size()));
    // x: op order within the step, each phase drawn at least kMinShare of the width (a foreach
    // optimizer step is a handful of ops after thousands of forward and backward ops).
    std::vector<double> bounds{0};
    for (const costmodel::PhaseMark& m : e.marks)
        if (m.name == "forward end" || m.name == "backward end") bounds.push_back(m.sample + 1);
    const bool training = bounds.size() == 3;
    bounds.push_back(n);
    constexpr double kMinShare = 0.1, kWidth = 1000;
    std::vector<double> share;
    double total = 0;
    for (std::size_t p = 0; p + 1 < bounds.size(); ++p) {
        share.push_back(std::max((bounds[p + 1] - bounds[p]) / n, kMinShare));
        total += share.back();
    }
    std::vector<double> xStart{0};
    for (double sh : share) xStart.push_back(xStart.back() + sh / total * kWidth);
    auto xOf = [&](double i) {
        std::size_t p = 0;
        while (p + 2 < bounds.size() && i >= bounds[p + 1]) ++p;
        const double len = std::max(1.0, bounds[p + 1] - bounds[p]);
        return xStart[p] + (i - bounds[p]) / len * (xStart[p + 1] - xStart[p]);
    };
    // Long timelines are thinned to at most kMaxPoints, keeping each bucket's largest sample.
    const std::size_t bucket = std::max<std::size_t>(1, (samples.size() + kMaxPoints - 1) / kMaxPoints);
    std::vector<std::size_t> picked;
    for (std::size_t i = 0; i < samples.size(); i += bucket) {
        std::size_t best = i;
        for (std::size_t j = i; j < std::min(samples.size(), i + bucket); ++j)
            if (samples[j].bytes > samples[best].bytes) best = j;
        picked.push_back(best);
    }
    std::vector<QVector<double>> values(costmodel::kCategoryCount);
    QVector<double> keys;
    std::size_t peakIndex = 0;
    for (std::size_t i : picked) {
        keys << xOf(static_cast<double>(i));
        double cumulative = 0;
        for (int c = 0; c < costmodel::kCategoryCount; ++c) {
            cumulative += static_cast<double>(samples[i].byCategory[static_cast<std::size_t>(c)]);
            values[static_cast<std::size_t>(c)] << cumulative;
        }
        if (samples[i].bytes > samples[peakIndex].bytes) peakIndex = i;
    }
    if (!keys.isEmpty()) { // the last sample holds until the end of the step
        keys << kWidth;
        for (auto& v : values) v << v.back();
    }
    for (int c = 0; c < costmodel::kCategoryCount; ++c)
        layers_[static_cast<std::size_t>(c)]->setData(keys, values[static_cast<std::size_t>(c)], true);
    plot_->xAxis->setRange(0, kWidth);
    const QString names[] = {tr("forward"), tr("backward"), tr("optimizer")};
    for (std::size_t i = 0; i < phaseLabels_.size(); ++i) {
        const bool shown = training || i == 0;
        phaseLabels_[i]->setVisible(shown);
        phaseLabels_[i]->setText(names[i]);
        if (shown) phaseLabels_[i]->position->setCoords((xStart[i] + xStart[i + 1]) / 2, 0.98);
        if (i < phaseLines_.size()) {
            phaseLines_[i]->setVisible(training);
            if (training) {
                phaseLines_[i]->point1->setCoords(xStart[i + 1], 0);
                phaseLines_[i]->point2->setCoords(xStart[i + 1], 1);
            }
        }
    }
    plot_->xAxis->setLabel(tr("One step, op by op (%1 simulated ops; a short phase is drawn 10% wide)").arg(samples.size()));
    top_ = samples.empty() ? 1.0 : static_cast<double>(samples[peakIndex].bytes);
    peakLabel_->setVisible(!samples.empty());
    peakLabel_->position->setCoords(std::clamp(xOf(static_cast<double>(peakIndex)), kWidth * 0.12, kWidth * 0.88), top_);
    peakLabel_->setText(
        tr("peak %1 (%2)").arg(QString::fromStdString(formatBytes(static_cast<double>(e.peakBytes))), phaseLabel(e.peakPhase)));
    updateRanges();
}

void StepTimelineChart::setRecorded(const std::vector<std::pair<std::int64_t, std::int64_t>>& recorded,
                                    const std::vector<std::pair<std::int64_t, std::int64_t>>& projected) {
    auto fill = [](QCPGraph* g, const std::vector<std::pair<std::int64_t, std::int64_t>>& pts) {
        QVector<double> k, v;
        for (const auto& [t, b] : pts) {
            k << static_cast<double>(t);
            v << static_cast<double>(b);
        }
        g->setData(k, v, true);
        g->setVisible(!pts.empty());
        if (pts.empty()) g->removeFromLegend();
        else g->addToLegend();
    };
    fill(recorded_, recorded);
    fill(projected_, projected);
    const bool shown = !recorded.empty();
    plot_->xAxis2->setVisible(shown);
    if (shown) {
        plot_->xAxis2->setRange(static_cast<double>(recorded.front().first),
                                static_cast<double>(std::max(recorded.back().first, recorded.front().first + 1)));
        timeTicker_->updateUnit(plot_->xAxis2->range());
        plot_->xAxis2->setLabel(tr("Recorded trace time (%1)").arg(timeTicker_->unitSuffix()));
    }
    updateRanges();
}

double StepTimelineChart::headroom() const {
    // Room above the highest point for the peak's label, by the axis rect's height in pixels
    // (a fixed 15% was less than the label in a short dock).
    const int height = plot_->axisRect()->height();
    const double label = QFontMetrics(peakLabel_->font()).height() + 8;
    if (height <= 2 * label) return 1.3;
    return std::clamp(1.0 / (1.0 - label / height), 1.1, 2.0);
}

void StepTimelineChart::updateRanges() {
    double top = top_;
    for (QCPGraph* g : {recorded_, projected_}) {
        if (!g->visible()) continue;
        bool found = false;
        const QCPRange r = g->getValueRange(found);
        if (found) top = std::max(top, r.upper);
    }
    limitLine_->setVisible(limit_.has_value());
    limitLabel_->setVisible(limit_.has_value());
    if (limit_) {
        const double y = static_cast<double>(*limit_);
        limitLine_->point1->setCoords(0, y);
        limitLine_->point2->setCoords(1, y);
        limitLabel_->position->setCoords(0.99, y);
        limitLabel_->setText(tr("limit %1").arg(QString::fromStdString(formatBytes(y))));
        if (y <= top * 4) top = std::max(top, y);
    }
    rangedTop_ = std::max(1.0, top);
    plot_->yAxis->setRange(0, rangedTop_ * headroom());
    bytesTicker_->updateUnit(plot_->yAxis->range());
    plot_->yAxis->setLabel(tr("Live memory (%1)").arg(bytesTicker_->unitSuffix()));
    plot_->replot();
}

} // namespace memviz

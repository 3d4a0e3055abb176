// SPDX-License-Identifier: MIT
#include "widgets/learn/CheckpointLesson.h"

#include <qcustomplot.h>

#include <QStandardItemModel>
#include <QTableView>

#include "widgets/learn/LessonCharts.h"
#include "workshop/CheckpointPlan.h"

namespace memviz {

using namespace costmodel;
using namespace workshop;

CheckpointLesson::CheckpointLesson(QWidget* parent)
    : ModelLesson(QStringLiteral("resnet50"), 32, DeviceKind::Cpu, parent), table_(new QStandardItemModel(this)) {
    setIntro(tr("<code>torch.utils.checkpoint.checkpoint_sequential(model, K, x)</code> cuts the model's n layers into "
                "K segments of n // K layers. All but the last segment run without keeping their activations, only "
                "their input; in the backward pass each is run again to rebuild them. More segments keep fewer "
                "activations at once but more segment inputs, and run more of the forward pass twice: the memory is "
                "smallest near K = √n. K = 1 is no checkpointing."));
    addPlot(QStringLiteral("checkpointing"));
    QTableView* view = addTable(table_, QStringLiteral("checkpointing"));
    view->setMinimumWidth(480);
    finishSetup();
}

EstimateOptions CheckpointLesson::scenarioOptions() const {
    EstimateOptions o = baseOptions();
    o.checkpoint.mode = CheckpointMode::Sqrt;
    return o;
}

void CheckpointLesson::refresh() {
    try {
        rows_ = checkpointSweep(resolved(), baseOptions());
    } catch (const std::exception& e) {
        showError(e);
        return;
    }
    const int n = resolved().topLevelLayerCount();
    const int sqrtK = sqrtSegments(n);
    const CheckpointRow& none = rows_.front();
    const CheckpointRow& atSqrt = rows_[std::size_t(std::min(sqrtK, n) - 1)];
    const CheckpointRow* best = lowestPeak(rows_);
    resultLabel()->setText(
        tr("%1 has n = %2 layers at the top level. Without checkpointing the step peaks at <b>%3</b>; with K = √n ≈ %4 "
           "segments at <b>%5</b>, recomputing %6 of %2 layers (%7%). The lowest peak is at K = %8: <b>%9</b>.")
            .arg(modelTitle())
            .arg(n)
            .arg(bytesText(double(none.footprint.peakBytes)))
            .arg(sqrtK)
            .arg(bytesText(double(atSqrt.footprint.peakBytes)))
            .arg(atSqrt.recomputedLayers)
            .arg(qRound(100.0 * atSqrt.recomputedShare))
            .arg(best->segments)
            .arg(bytesText(double(best->footprint.peakBytes))));

    table_->clear();
    table_->setHorizontalHeaderLabels({tr("segments K"), tr("layers per segment"), tr("recomputed layers"), tr("recomputed"),
                                       tr("peak"), tr("activations at the peak")});
    double largest = 0;
    for (std::size_t i = 0; i < rows_.size(); ++i) {
        const CheckpointRow& r = rows_[i];
        const int row = int(i);
        const std::vector<int> layers = checkpointSegmentLayers(n, r.segments);
        QString split = QString::number(layers.back());
        if (layers.size() > 1) split = tr("%1 × %2 + %3").arg(layers.size() - 1).arg(layers.front()).arg(layers.back());
        setCell(table_, row, 0, QString::number(r.segments), r.segments);
        setCell(table_, row, 1, split, split);
        setCell(table_, row, 2, QString::number(r.recomputedLayers), r.recomputedLayers);
        setCell(table_, row, 3, QStringLiteral("%1%").arg(qRound(100.0 * r.recomputedShare)), r.recomputedShare);
        setCell(table_, row, 4, bytesText(double(r.footprint.peakBytes)), qint64(r.footprint.peakBytes));
        const std::int64_t act = r.footprint.at(Category::Activations);
        setCell(table_, row, 5, bytesText(double(act)), qint64(act));
        largest = std::max(largest, double(r.footprint.peakBytes));
    }

    QCustomPlot* plot = plots().first();
    const LessonStyle& st = lessonStyle();
    resetPlot(plot, st);
    const ScaledUnit unit = unitFor(largest);
    QVector<double> k, peak, recompute;
    for (const CheckpointRow& r : rows_) {
        k << r.segments;
        peak << double(r.footprint.peakBytes) / unit.divisor;
        recompute << 100.0 * r.recomputedShare;
    }
    QCPGraph* peakGraph = plot->addGraph(plot->xAxis, plot->yAxis);
    peakGraph->setName(tr("peak memory"));
    peakGraph->setPen(QPen(st.series(0), st.lineWidth()));
    peakGraph->setScatterStyle(QCPScatterStyle(QCPScatterStyle::ssCircle, 5 * st.scale));
    peakGraph->setData(k, peak, true);
    plot->yAxis2->setVisible(true);
    QCPGraph* work = plot->addGraph(plot->xAxis, plot->yAxis2);
    work->setName(tr("forward recomputed (%)"));
    work->setPen(QPen(st.series(1), st.lineWidth(), Qt::DashLine));
    work->setData(k, recompute, true);
    const auto marker = [&](int segments, const QString& text, double yRatio) {
        auto* line = new QCPItemStraightLine(plot);
        line->point1->setCoords(segments, 0);
        line->point2->setCoords(segments, 1);
        line->setPen(QPen(st.accent(), st.lineWidth(1.2), Qt::DotLine));
        auto* label = new QCPItemText(plot);
        label->position->setTypeY(QCPItemPosition::ptAxisRectRatio);
        label->position->setCoords(segments, yRatio);
        label->setPositionAlignment(Qt::AlignLeft | Qt::AlignTop);
        label->setText(QStringLiteral(" ") + text);
        label->setColor(st.accent());
        label->setFont(plot->font());
    };
    marker(sqrtK, tr("√n ≈ %1").arg(sqrtK), 0.02);
    if (best->segments != sqrtK) marker(best->segments, tr("lowest: K = %1").arg(best->segments), 0.10);
    plot->xAxis->setLabel(tr("segments K"));
    plot->xAxis->setRange(0.5, n + 0.5);
    plot->yAxis->setLabel(tr("peak (%1)").arg(QString::fromLatin1(unit.suffix)));
    plot->yAxis->setRange(0, largest / unit.divisor * 1.1);
    plot->yAxis2->setLabel(tr("recomputed (%)"));
    plot->yAxis2->setRange(0, 100);
    plot->legend->setVisible(true);
    plot->axisRect()->insetLayout()->setInsetAlignment(0, Qt::AlignBottom | Qt::AlignRight);
    plot->replot();
    fitTables();
}

} // namespace memviz

// SPDX-License-Identifier: MIT
#include "widgets/learn/BatchSizeLesson.h"

#include <qcustomplot.h>

#include <QDoubleSpinBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QSpinBox>
#include <QStandardItemModel>
#include <QTableView>

#include "words/CostModelLabels.h"
#include "widgets/Export.h"
#include "widgets/learn/LessonCharts.h"
#include "workshop/LessonSweeps.h"

namespace memviz {

using namespace costmodel;
using namespace workshop;

BatchSizeLesson::BatchSizeLesson(QWidget* parent)
    : ModelLesson(QStringLiteral("resnet50"), 32, DeviceKind::Cpu, parent), maxBatch_(new QSpinBox(this)),
      limit_(new QDoubleSpinBox(this)), table_(new QStandardItemModel(this)), tradeOff_(new QStandardItemModel(this)) {
    setIntro(tr("The weights and the optimizer's state stay in memory for the whole training step, whatever the "
                "batch. The gradients do not: <code>zero_grad(set_to_none=True)</code> frees them, and the backward "
                "pass makes them again one layer at a time, from the last layer to the first. The activations saved "
                "for the backward pass, the input batch and the temporaries grow with every sample. The peak is a "
                "moment, not a sum: with a larger batch it comes earlier in the backward pass, when fewer gradients "
                "exist yet, so the gradients counted at the peak shrink while their size stays the same. Doubling the "
                "batch does not double the memory, but past a few samples the activations dominate. All numbers come "
                "from the cost model simulating the step."));
    QHBoxLayout* row = addControlRow();
    row->addWidget(new QLabel(tr("Sweep up to batch:"), this));
    maxBatch_->setRange(2, 4096);
    maxBatch_->setValue(128);
    row->addWidget(maxBatch_);
    row->addWidget(new QLabel(tr("Memory limit:"), this));
    limit_->setRange(0.25, 1024.0);
    limit_->setDecimals(2);
    limit_->setValue(16.0);
    limit_->setSuffix(QStringLiteral(" GiB"));
    row->addWidget(limit_);
    row->addStretch(1);
    addPlot(QStringLiteral("batch-size"));
    addTable(table_, QStringLiteral("batch-size"));
    wrapText(addTable(tradeOff_, QStringLiteral("batch-size-trade-offs")), {1, 2}); // sentences
    connect(maxBatch_, &QSpinBox::valueChanged, this, [this] { refresh(); });
    connect(limit_, &QDoubleSpinBox::valueChanged, this, [this] { refresh(); });
    finishSetup();
}

void BatchSizeLesson::refresh() {
    std::vector<Footprint> rows;
    const EstimateOptions base = baseOptions();
    const std::int64_t limitBytes = std::llround(limit_->value() * 1073741824.0);
    try {
        rows = batchSweep(resolved(), base, batchSteps(maxBatch_->value()));
        largest_ = largestBatchThatFits(resolved(), base, limitBytes, 1 << 20);
    } catch (const std::exception& e) {
        showError(e);
        return;
    }
    const Footprint& one = rows.front();
    const Footprint& most = rows.back();
    const Footprint chosen = footprint(quickEstimate(resolved(), base), base.batch);
    resultLabel()->setText(
        tr("%1, batch %2: peak <b>%3</b> in the %4 phase, of which %5 grow with the batch (activations, input, "
           "temporaries), %6 are the weights and the optimizer state, and %7 are gradients (%8 once all exist). From "
           "batch 1 to %9 the peak goes from %10 to %11. The largest batch that fits in %12 GiB: <b>%13</b>.")
            .arg(modelTitle())
            .arg(base.batch)
            .arg(bytesText(double(chosen.peakBytes)), phaseLabel(chosen.peakPhase), bytesText(double(chosen.batchBytes())),
                 bytesText(double(chosen.persistentBytes())), bytesText(double(chosen.at(Category::Gradients))),
                 bytesText(double(chosen.parameterBytes)))
            .arg(most.batch)
            .arg(bytesText(double(one.peakBytes)), bytesText(double(most.peakBytes)))
            .arg(limit_->value())
            .arg(largest_ > 0 ? QString::number(largest_) : tr("none (not even batch 1)")));

    table_->clear();
    table_->setHorizontalHeaderLabels({tr("batch"), tr("peak"), tr("grows with the batch"), tr("weights + optimizer state"),
                                       tr("gradients at the peak"), tr("per sample")});
    for (std::size_t i = 0; i < rows.size(); ++i) {
        const Footprint& f = rows[i];
        const int r = int(i);
        const std::int64_t grads = f.at(Category::Gradients);
        setCell(table_, r, 0, QString::number(f.batch), qint64(f.batch));
        setCell(table_, r, 1, bytesText(double(f.peakBytes)), qint64(f.peakBytes));
        setCell(table_, r, 2, bytesText(double(f.batchBytes())), qint64(f.batchBytes()));
        setCell(table_, r, 3, bytesText(double(f.persistentBytes())), qint64(f.persistentBytes()));
        setCell(table_, r, 4, bytesText(double(grads)), qint64(grads));
        setCell(table_, r, 5, bytesText(double(f.batchBytes()) / double(f.batch)), qint64(f.batchBytes() / f.batch));
    }
    table_->horizontalHeaderItem(4)->setToolTip(
        tr("The gradients alive at the moment of the peak: all of them only when the peak comes at the end of the "
           "backward pass or in the optimizer step."));

    tradeOff_->clear();
    tradeOff_->setHorizontalHeaderLabels(
        {QString(), tr("small batch (%1)").arg(one.batch), tr("large batch (%1)").arg(most.batch)});
    const QStringList memory = {tr("memory at the peak"), bytesText(double(one.peakBytes)), bytesText(double(most.peakBytes))};
    const QStringList speed = {tr("speed"), tr("slower: many small steps keep the hardware half idle"),
                               tr("faster per sample, until the device is saturated")};
    const QStringList noise = {tr("gradients"), tr("noisier estimates (can help generalisation)"),
                               tr("smoother estimates (often with a larger learning rate)")};
    int r = 0;
    for (const QStringList& line : {memory, speed, noise}) {
        for (int c = 0; c < line.size(); ++c) setCell(tradeOff_, r, c, line[c], line[c]);
        ++r;
    }
    tradeOff_->setData(tradeOff_->index(0, 1), qint64(one.peakBytes), exporting::kExportRole);
    tradeOff_->setData(tradeOff_->index(0, 2), qint64(most.peakBytes), exporting::kExportRole);

    QCustomPlot* plot = plots().first();
    const LessonStyle& st = lessonStyle();
    resetPlot(plot, st);
    const ScaledUnit unit = unitFor(std::max(double(most.peakBytes), double(limitBytes)));
    QVector<double> x, total, grows, fixed, grads;
    for (const Footprint& f : rows) {
        x << double(f.batch);
        total << double(f.peakBytes) / unit.divisor;
        grows << double(f.batchBytes()) / unit.divisor;
        fixed << double(f.persistentBytes()) / unit.divisor;
        grads << double(f.at(Category::Gradients)) / unit.divisor;
    }
    const auto line = [&](const QVector<double>& y, const QString& name, int colour, Qt::PenStyle pen) {
        QCPGraph* g = plot->addGraph();
        g->setName(name);
        g->setPen(QPen(st.series(colour), st.lineWidth(), pen));
        g->setScatterStyle(QCPScatterStyle(QCPScatterStyle::ssCircle, 5 * st.scale));
        g->setData(x, y, true);
    };
    // The table's words: a legend as wide as "activations, input, temporaries" did not fit a
    // narrow plot in presenter mode.
    line(total, tr("peak"), 0, Qt::SolidLine);
    line(grows, tr("grows with the batch"), 1, Qt::SolidLine);
    line(fixed, tr("weights + optimizer state"), 2, Qt::DashLine);
    line(grads, tr("gradients at the peak"), 3, Qt::DotLine);
    auto* limitLine = new QCPItemStraightLine(plot);
    limitLine->point1->setCoords(1, double(limitBytes) / unit.divisor);
    limitLine->point2->setCoords(2, double(limitBytes) / unit.divisor);
    limitLine->setPen(QPen(st.accent(), st.lineWidth(1.5), Qt::DashLine));
    setBatchAxis(plot->xAxis, double(most.batch));
    plot->xAxis->setLabel(tr("batch size"));
    plot->yAxis->setLabel(tr("memory (%1)").arg(QString::fromLatin1(unit.suffix)));
    plot->yAxis->setRange(0, std::max(double(most.peakBytes), double(limitBytes)) / unit.divisor * 1.1);
    plot->legend->setVisible(true);
    plot->axisRect()->insetLayout()->setInsetAlignment(0, Qt::AlignVCenter | Qt::AlignLeft);
    auto* limitLabel = new QCPItemText(plot);
    limitLabel->position->setCoords(1, double(limitBytes) / unit.divisor);
    limitLabel->setPositionAlignment(Qt::AlignLeft | Qt::AlignBottom);
    limitLabel->setText(tr("limit %1 GiB: largest batch %2").arg(limit_->value()).arg(largest_));
    limitLabel->setColor(st.accent());
    limitLabel->setFont(plot->font());
    plot->replot();
    fitTables();
}

} // namespace memviz

// SPDX-License-Identifier: MIT
#include "widgets/learn/FreeingLesson.h"

#include <qcustomplot.h>

#include <QHBoxLayout>
#include <QLabel>
#include <QSpinBox>
#include <QStandardItemModel>
#include <QTableView>

#include "words/CostModelLabels.h"
#include "widgets/learn/LessonCharts.h"
#include "workshop/FreeingSavings.h"
#include "workshop/LessonSweeps.h"

namespace memviz {

using namespace costmodel;
using namespace workshop;

FreeingLesson::FreeingLesson(QWidget* parent)
    : ModelLesson(QStringLiteral("gpt2"), 4, DeviceKind::Cuda, parent), evalBatches_(new QSpinBox(this)),
      table_(new QStandardItemModel(this)) {
    setIntro(tr("A tensor is freed when the last reference to it goes. Python names keep tensors alive longer than "
                "needed: the previous step's <code>out</code> and <code>loss</code> until the names are rebound, "
                "zeroed gradients until the next backward overwrites them, and a loss kept in a list keeps its whole "
                "graph when no backward pass freed it. Each row is one habit with what it saves at the peak for the "
                "chosen model, computed from the cost model's op-by-op simulation of the step."));
    addToModelRow(new QLabel(tr("Evaluation batches kept:"), this));
    evalBatches_->setRange(1, 10000);
    evalBatches_->setValue(10);
    addToModelRow(evalBatches_);
    addPlot(QStringLiteral("freeing"));
    QTableView* view = addTable(table_, QStringLiteral("freeing"));
    wrapText(view, {3}); // "without it" explains in a sentence
    connect(evalBatches_, &QSpinBox::valueChanged, this, [this] { refresh(); });
    finishSetup();
}

void FreeingLesson::refresh() {
    FreeingSavings s;
    Phase peakPhase = Phase::Forward;
    try {
        s = freeingSavings(resolved(), baseOptions());
        peakPhase = quickEstimate(resolved(), baseOptions()).peakPhase;
    } catch (const std::exception& e) {
        showError(e);
        return;
    }
    const int k = evalBatches_->value();
    resultLabel()->setText(tr("%1, batch %2: the training step peaks at <b>%3</b> with every habit below done right. The "
                              "output of one step is %4, all gradients %5, and a forward pass with grad keeps %6 for backward.")
                               .arg(modelTitle())
                               .arg(baseOptions().batch)
                               .arg(bytesText(double(s.peakBytes)), bytesText(double(s.outputBytes)),
                                    bytesText(double(s.gradientBytes)), bytesText(double(s.evalGraphBytes))));
    struct Row {
        QString code, without;
        std::int64_t saved, peakWithout;
    };
    const std::vector<Row> rows = {
        {QStringLiteral("del out, loss"), tr("the previous step's output and loss live through the next forward pass"),
         s.delSavedBytes, s.keptOutputPeakBytes},
        {QStringLiteral("optimizer.zero_grad(set_to_none=True)"),
         tr("zeroed gradients stay allocated through the forward and backward passes"), s.setToNoneSavedBytes,
         s.zeroedGradsPeakBytes},
        {QStringLiteral("with torch.no_grad():  # evaluation"),
         tr("autograd saves activations for a backward pass that never comes"), s.noGradSavedBytes, s.evalWithGradPeakBytes},
        {QStringLiteral("losses.append(loss.item())"),
         tr("losses.append(loss) in an evaluation loop without no_grad keeps each batch's graph: %1 batches").arg(k),
         s.keptLossesBytes(k), s.evalWithGradPeakBytes + s.keptLossesBytes(k - 1)},
    };
    table_->clear();
    table_->setHorizontalHeaderLabels({tr("do this"), tr("saves"), tr("peak without it"), tr("without it")});
    QStringList labels;
    QVector<double> saved;
    double largest = 1;
    for (std::size_t i = 0; i < rows.size(); ++i) {
        const Row& r = rows[i];
        const int row = int(i);
        // A habit that saves nothing here does not matter at the peak: it falls in another phase.
        const QString without =
            r.saved > 0 ? r.without
                        : tr("%1 (nothing at the peak here: the peak is in the %2 phase)").arg(r.without, phaseLabel(peakPhase));
        setCell(table_, row, 0, r.code, r.code);
        setCell(table_, row, 1, bytesText(double(r.saved)), qint64(r.saved));
        setCell(table_, row, 2, bytesText(double(r.peakWithout)), qint64(r.peakWithout));
        setCell(table_, row, 3, without, r.without);
        saved << double(r.saved);
        largest = std::max(largest, double(r.saved));
    }
    labels = {QStringLiteral("del"), QStringLiteral("set_to_none"), QStringLiteral("no_grad"), QStringLiteral("item()")};

    QCustomPlot* plot = plots().first();
    const LessonStyle& st = lessonStyle();
    resetPlot(plot, st);
    const ScaledUnit unit = unitFor(largest);
    QVector<double> keys;
    for (int i = 0; i < saved.size(); ++i) {
        keys << i + 1;
        saved[i] /= unit.divisor;
    }
    auto* bars = new QCPBars(plot->xAxis, plot->yAxis);
    bars->setName(tr("saved at the peak"));
    bars->setWidth(0.6);
    bars->setBrush(st.series(2));
    bars->setPen(QPen(st.series(2).darker(120), st.lineWidth(1.0)));
    bars->setData(keys, saved, true);
    setTextTicks(plot->xAxis, labels);
    plot->yAxis->setLabel(tr("saved (%1)").arg(QString::fromLatin1(unit.suffix)));
    plot->yAxis->setRange(0, largest / unit.divisor * 1.15);
    plot->legend->setVisible(false);
    plot->replot();
    fitTables();
}

} // namespace memviz

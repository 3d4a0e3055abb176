// SPDX-License-Identifier: MIT
#include "widgets/learn/OptimizerLesson.h"

#include <qcustomplot.h>

#include <QHBoxLayout>
#include <QLabel>
#include <QSpinBox>
#include <QStandardItemModel>
#include <QTableView>

#include "words/CostModelLabels.h"
#include "widgets/learn/LessonCharts.h"
#include "workshop/LessonSweeps.h"

namespace memviz {

using namespace costmodel;
using namespace workshop;

OptimizerLesson::OptimizerLesson(QWidget* parent)
    : ModelLesson(QStringLiteral("gpt2"), 4, DeviceKind::Cuda, parent), history_(new QSpinBox(this)),
      table_(new QStandardItemModel(this)) {
    const int f32 = elementSize(DType::F32);
    const auto perParameter = [f32](OptimizerKind k, int history) { return (2.0 + stateElementsPerParameter(k, history)) * f32; };
    setIntro(tr("Besides the weights and their gradients, the optimizer keeps state for every parameter: nothing for "
                "plain SGD, a momentum buffer for SGD with momentum, one running average for Adagrad and RMSprop, two "
                "(first and second moments) for Adam and AdamW, and for LBFGS two flat copies of all parameters plus "
                "two per remembered step of its history. With float32 that is %1 bytes per parameter for SGD, %2 for "
                "Adam, and %3 for LBFGS with its default history of %4 steps.")
                 .arg(perParameter(OptimizerKind::Sgd, 1))
                 .arg(perParameter(OptimizerKind::Adam, 1))
                 .arg(perParameter(OptimizerKind::Lbfgs, 100))
                 .arg(100));
    addToModelRow(new QLabel(tr("LBFGS history:"), this));
    history_->setRange(1, 1000);
    history_->setValue(100);
    addToModelRow(history_);
    addPlot(QStringLiteral("optimizers"));
    QTableView* view = addTable(table_, QStringLiteral("optimizers"));
    view->setMinimumWidth(520);
    connect(history_, &QSpinBox::valueChanged, this, [this] { refresh(); });
    finishSetup();
}

EstimateOptions OptimizerLesson::scenarioOptions() const {
    EstimateOptions o = baseOptions();
    o.lbfgsHistory = history_->value();
    // The selected row's optimizer, else Adam.
    if (!tables().isEmpty()) {
        const QModelIndex current = tables().first()->currentIndex();
        if (current.isValid())
            o.optimizer = static_cast<OptimizerKind>(table_->item(current.row(), 0)->data(Qt::UserRole).toInt());
    }
    return o;
}

void OptimizerLesson::refresh() {
    EstimateOptions base = baseOptions();
    base.lbfgsHistory = history_->value();
    std::vector<OptimizerRow> rows;
    try {
        rows = optimizerComparison(resolved(), base);
    } catch (const std::exception& e) {
        showError(e);
        return;
    }
    const auto find = [&](OptimizerKind k) {
        return *std::find_if(rows.begin(), rows.end(), [&](const OptimizerRow& r) { return r.kind == k; });
    };
    const OptimizerRow sgd = find(OptimizerKind::Sgd), adam = find(OptimizerKind::Adam);
    resultLabel()->setText(
        tr("%1 has %2 parameters. Adam's state: <b>%3</b> (%4 bytes per parameter with the weight and "
           "its gradient); SGD: none (%5 bytes per parameter). The step peaks at <b>%6</b> with Adam and "
           "<b>%7</b> with SGD.")
            .arg(modelTitle(), QLocale().toString(qlonglong(resolved().parameterCount())), bytesText(double(adam.stateBytes)))
            .arg(adam.bytesPerParameter)
            .arg(sgd.bytesPerParameter)
            .arg(bytesText(double(adam.footprint.peakBytes)), bytesText(double(sgd.footprint.peakBytes))));

    const int selected = tables().first()->currentIndex().row();
    table_->clear();
    table_->setHorizontalHeaderLabels({tr("optimizer"), tr("state per parameter"), tr("bytes per parameter"), tr("state"),
                                       tr("state at the peak"), tr("peak"), tr("peak phase")});
    std::vector<Footprint> bars;
    QStringList labels;
    int r = 0;
    for (const OptimizerRow& row : rows) {
        const QString name = optimizerLabel(row.kind);
        setCell(table_, r, 0, name, QString::fromUtf8(optimizerName(row.kind)));
        table_->item(r, 0)->setData(static_cast<int>(row.kind), Qt::UserRole);
        setCell(table_, r, 1, QString::number(row.stateElementsPerParameter), row.stateElementsPerParameter);
        setCell(table_, r, 2, QString::number(row.bytesPerParameter), row.bytesPerParameter);
        setCell(table_, r, 3, bytesText(double(row.stateBytes)), qint64(row.stateBytes));
        const std::int64_t atPeak = row.footprint.at(Category::OptimizerState);
        setCell(table_, r, 4, bytesText(double(atPeak)), qint64(atPeak));
        setCell(table_, r, 5, bytesText(double(row.footprint.peakBytes)), qint64(row.footprint.peakBytes));
        setCell(table_, r, 6, phaseLabel(row.footprint.peakPhase), QString::fromUtf8(phaseName(row.footprint.peakPhase)));
        bars.push_back(row.footprint);
        labels << name;
        ++r;
    }
    if (selected >= 0 && selected < table_->rowCount()) tables().first()->selectRow(selected);

    QCustomPlot* plot = plots().first();
    resetPlot(plot, lessonStyle());
    drawFootprintBars(plot, bars, labels, lessonStyle());
    plot->legend->setVisible(true);
    plot->axisRect()->insetLayout()->setInsetAlignment(0, Qt::AlignTop | Qt::AlignLeft);
    plot->replot();
    fitTables();
}

} // namespace memviz

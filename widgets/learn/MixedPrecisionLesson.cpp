// SPDX-License-Identifier: MIT
#include "widgets/learn/MixedPrecisionLesson.h"

#include <qcustomplot.h>

#include <QHBoxLayout>
#include <QLabel>
#include <QSpinBox>
#include <QStandardItemModel>
#include <QTableView>

#include "widgets/learn/LessonCharts.h"
#include "workshop/LessonSweeps.h"

namespace memviz {

using namespace costmodel;
using namespace workshop;

MixedPrecisionLesson::MixedPrecisionLesson(QWidget* parent)
    : ModelLesson(QStringLiteral("resnet18"), 64, DeviceKind::Cuda, parent), maxBatch_(new QSpinBox(this)),
      table_(new QStandardItemModel(this)) {
    setIntro(tr("<code>torch.autocast</code> runs matrix multiplications and convolutions in float16 (bfloat16 on the "
                "CPU) but keeps in float32 what needs the range or the precision: the weights themselves (autocast "
                "casts a 16-bit copy of each for the step), their gradients, the optimizer state, and the ops on its "
                "float32 list — softmax, log_softmax, layer_norm, the losses, sums and norms. Only the activations of "
                "the 16-bit ops shrink. With a small batch the weights and the optimizer dominate, so AMP saves little "
                "or even costs memory; with a large batch the activations dominate and the saving approaches half."));
    addToModelRow(new QLabel(tr("Sweep up to batch:"), this));
    maxBatch_->setRange(2, 4096);
    maxBatch_->setValue(256);
    addToModelRow(maxBatch_);
    addPlot(QStringLiteral("mixed-precision"));
    QTableView* view = addTable(table_, QStringLiteral("mixed-precision"));
    view->setMinimumWidth(480);
    connect(maxBatch_, &QSpinBox::valueChanged, this, [this] { refresh(); });
    finishSetup();
}

EstimateOptions MixedPrecisionLesson::scenarioOptions() const {
    EstimateOptions o = baseOptions();
    o.amp = true;
    return o;
}

void MixedPrecisionLesson::refresh() {
    std::vector<AmpRow> rows;
    try {
        rows = ampSweep(resolved(), baseOptions(), batchSteps(maxBatch_->value()));
    } catch (const std::exception& e) {
        showError(e);
        return;
    }
    const AmpRow& small = rows.front();
    const AmpRow& large = rows.back();
    resultLabel()->setText(tr("%1: at batch %2 AMP saves <b>%3</b> (%4% of %5); at batch %6 it saves <b>%7</b> (%8% of %9). "
                              "The float32 weights, gradients and optimizer state (%10) do not shrink.")
                               .arg(modelTitle())
                               .arg(small.batch)
                               .arg(bytesText(double(small.savedBytes())))
                               .arg(qRound(100.0 * small.savedShare()))
                               .arg(bytesText(double(small.fp32.peakBytes)))
                               .arg(large.batch)
                               .arg(bytesText(double(large.savedBytes())))
                               .arg(qRound(100.0 * large.savedShare()))
                               .arg(bytesText(double(large.fp32.peakBytes)))
                               .arg(bytesText(double(large.amp.modelStateBytes()))));
    table_->clear();
    table_->setHorizontalHeaderLabels({tr("batch"), tr("float32 peak"), tr("AMP peak"), tr("saved"), tr("saved (%)"),
                                       tr("AMP: weights, gradients, state"), tr("AMP: activations, input, temporaries")});
    double largest = 0;
    for (std::size_t i = 0; i < rows.size(); ++i) {
        const AmpRow& r = rows[i];
        const int row = int(i);
        setCell(table_, row, 0, QString::number(r.batch), qint64(r.batch));
        setCell(table_, row, 1, bytesText(double(r.fp32.peakBytes)), qint64(r.fp32.peakBytes));
        setCell(table_, row, 2, bytesText(double(r.amp.peakBytes)), qint64(r.amp.peakBytes));
        setCell(table_, row, 3, bytesText(double(r.savedBytes())), qint64(r.savedBytes()));
        setCell(table_, row, 4, QString::number(100.0 * r.savedShare(), 'f', 1), r.savedShare());
        setCell(table_, row, 5, bytesText(double(r.amp.modelStateBytes())), qint64(r.amp.modelStateBytes()));
        setCell(table_, row, 6, bytesText(double(r.amp.batchBytes())), qint64(r.amp.batchBytes()));
        largest = std::max(largest, double(r.fp32.peakBytes));
    }

    QCustomPlot* plot = plots().first();
    const LessonStyle& st = lessonStyle();
    resetPlot(plot, st);
    const ScaledUnit unit = unitFor(largest);
    QVector<double> x, fp32, amp, share;
    for (const AmpRow& r : rows) {
        x << double(r.batch);
        fp32 << double(r.fp32.peakBytes) / unit.divisor;
        amp << double(r.amp.peakBytes) / unit.divisor;
        share << 100.0 * r.savedShare();
    }
    const auto line = [&](QCPAxis* y, const QVector<double>& v, const QString& name, int colour, Qt::PenStyle pen) {
        QCPGraph* g = plot->addGraph(plot->xAxis, y);
        g->setName(name);
        g->setPen(QPen(st.series(colour), st.lineWidth(), pen));
        g->setScatterStyle(QCPScatterStyle(QCPScatterStyle::ssCircle, 5 * st.scale));
        g->setData(x, v, true);
    };
    plot->yAxis2->setVisible(true);
    line(plot->yAxis, fp32, tr("float32 peak"), 0, Qt::SolidLine);
    line(plot->yAxis, amp, tr("AMP peak"), 1, Qt::SolidLine);
    line(plot->yAxis2, share, tr("saved (%)"), 2, Qt::DashLine);
    setBatchAxis(plot->xAxis, double(large.batch));
    plot->xAxis->setLabel(tr("batch size"));
    plot->yAxis->setLabel(tr("peak (%1)").arg(QString::fromLatin1(unit.suffix)));
    plot->yAxis->setRange(0, largest / unit.divisor * 1.1);
    double lowShare = 0;
    for (double s : share) lowShare = std::min(lowShare, s);
    plot->yAxis2->setLabel(tr("saved by AMP (%)"));
    plot->yAxis2->setRange(std::floor(lowShare / 10.0) * 10.0, 60);
    plot->legend->setVisible(true);
    plot->axisRect()->insetLayout()->setInsetAlignment(0, Qt::AlignTop | Qt::AlignLeft);
    plot->replot();
    fitTables();
}

} // namespace memviz

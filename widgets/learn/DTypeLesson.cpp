// SPDX-License-Identifier: MIT
#include "widgets/learn/DTypeLesson.h"

#include <qcustomplot.h>

#include <QStandardItemModel>
#include <QTableView>

#include "widgets/learn/LessonCharts.h"
#include "workshop/FloatFormats.h"
#include "workshop/LessonSweeps.h"

namespace memviz {

using namespace costmodel;
using namespace workshop;

namespace {

const char* formatName(const std::string& id) {
    if (id == "fp64") return "float64";
    if (id == "bf16") return "bfloat16";
    if (id == "fp16") return "float16";
    if (id == "int8") return nullptr;
    return "float32"; // fp32 and AMP's weights
}

QString number(double v) { return QString::number(v, 'g', 5); }

} // namespace

DTypeLesson::DTypeLesson(QWidget* parent)
    : ModelLesson(QStringLiteral("resnet18"), 32, DeviceKind::Cuda, parent), table_(new QStandardItemModel(this)) {
    const FloatFormat& f32 = *findFloatFormat("float32");
    const FloatFormat& f16 = *findFloatFormat("float16");
    const FloatFormat& bf16 = *findFloatFormat("bfloat16");
    setIntro(tr("Every tensor's bytes are its elements times the element size, so moving from float32 (%1 bytes) to "
                "float16 or bfloat16 (%2 bytes) halves the weights, gradients, optimizer state and activations. The price "
                "is precision: float16 keeps %3 significant bits and overflows above %4; bfloat16 keeps float32's "
                "range with only %5 bits. Mixed precision (AMP) keeps float32 weights and computes in 16 bits. int8 "
                "quantization is for inference. The precision columns are computed from each format's bits; the peaks "
                "come from the cost model.")
                 .arg(f32.bytes())
                 .arg(f16.bytes())
                 .arg(f16.mantissaBits + 1)
                 .arg(f16.maxFinite())
                 .arg(bf16.mantissaBits + 1));
    addPlot(QStringLiteral("dtype"));
    QTableView* view = addTable(table_, QStringLiteral("dtype"));
    view->setMinimumWidth(520);
    finishSetup();
}

EstimateOptions DTypeLesson::scenarioOptions() const {
    EstimateOptions o = baseOptions();
    o.dtype = DType::BF16;
    return o;
}

void DTypeLesson::refresh() {
    std::vector<DTypeRow> rows;
    try {
        rows = dtypeComparison(resolved(), baseOptions());
    } catch (const std::exception& e) {
        showError(e);
        return;
    }
    const auto find = [&](const char* id) {
        return *std::find_if(rows.begin(), rows.end(), [&](const DTypeRow& r) { return r.id == id; });
    };
    const DTypeRow fp32 = find("fp32"), bf16 = find("bf16"), amp = find("amp"), int8 = find("int8");
    resultLabel()->setText(tr("%1, batch %2: training in float32 peaks at <b>%3</b>, in bfloat16 at <b>%4</b> (%5% of it), with "
                              "AMP at <b>%6</b>. Inference: %7 in float32, %8 with int8 weights.")
                               .arg(modelTitle())
                               .arg(baseOptions().batch)
                               .arg(bytesText(double(fp32.peakBytes)), bytesText(double(bf16.peakBytes)))
                               .arg(qRound(100.0 * double(bf16.peakBytes) / double(fp32.peakBytes)))
                               .arg(bytesText(double(amp.peakBytes)), bytesText(double(fp32.inferencePeakBytes)),
                                    bytesText(double(int8.inferencePeakBytes))));

    table_->clear();
    table_->setHorizontalHeaderLabels({tr("type"), tr("bytes"), tr("epsilon"), tr("largest"), tr("decimal digits"), tr("weights"),
                                       tr("training peak"), tr("inference peak")});
    QStringList labels;
    QVector<double> train, infer;
    double largest = 0;
    for (const DTypeRow& r : rows) largest = std::max({largest, double(r.peakBytes), double(r.inferencePeakBytes)});
    const ScaledUnit unit = unitFor(largest);
    int row = 0;
    for (const DTypeRow& r : rows) {
        const QString label = r.id == "amp" ? tr("AMP (fp32 weights)") : QString::fromStdString(r.id);
        labels << label;
        setCell(table_, row, 0, label, QString::fromStdString(r.id));
        const FloatFormat* f = formatName(r.id) ? findFloatFormat(formatName(r.id)) : nullptr;
        const int bytes = r.id == "amp" ? 2 : f ? f->bytes() : 1; // AMP computes in 16 bits
        setCell(table_, row, 1, r.id == "amp" ? tr("2 (weights 4)") : QString::number(bytes), bytes);
        if (f) {
            const FloatFormat& compute = r.id == "amp" ? *findFloatFormat("float16") : *f;
            setCell(table_, row, 2, number(compute.epsilon()), compute.epsilon());
            setCell(table_, row, 3, number(compute.maxFinite()), compute.maxFinite());
            setCell(table_, row, 4, QString::number(compute.decimalDigits(), 'f', 1), compute.decimalDigits());
        } else { // int8: integers from -2^7 to 2^7 - 1
            setCell(table_, row, 2, QStringLiteral("1"), 1);
            setCell(table_, row, 3, QString::number((1 << 7) - 1), (1 << 7) - 1);
            setCell(table_, row, 4, QStringLiteral("—"), QString());
        }
        setCell(table_, row, 5, bytesText(double(r.parameterBytes)), qint64(r.parameterBytes));
        setCell(table_, row, 6, r.training ? bytesText(double(r.peakBytes)) : tr("inference only"),
                r.training ? QVariant(qint64(r.peakBytes)) : QVariant(QString()));
        setCell(table_, row, 7, bytesText(double(r.inferencePeakBytes)), qint64(r.inferencePeakBytes));
        train << (r.training ? double(r.peakBytes) / unit.divisor : 0.0);
        infer << double(r.inferencePeakBytes) / unit.divisor;
        ++row;
    }

    QCustomPlot* plot = plots().first();
    const LessonStyle& st = lessonStyle();
    resetPlot(plot, st);
    QVector<double> left, right;
    for (int i = 0; i < labels.size(); ++i) {
        left << i + 1 - 0.2;
        right << i + 1 + 0.2;
    }
    for (auto [values, keys, name, colour] :
         {std::tuple{train, left, tr("training step"), 0}, std::tuple{infer, right, tr("inference"), 1}}) {
        auto* bars = new QCPBars(plot->xAxis, plot->yAxis);
        bars->setName(name);
        bars->setWidth(0.38);
        bars->setBrush(st.series(colour));
        bars->setPen(QPen(st.series(colour).darker(120), st.lineWidth(1.0)));
        bars->setData(keys, values, true);
    }
    setTextTicks(plot->xAxis, labels);
    plot->yAxis->setLabel(tr("peak (%1)").arg(QString::fromLatin1(unit.suffix)));
    plot->yAxis->setRange(0, largest / unit.divisor * 1.15);
    plot->legend->setVisible(true);
    plot->axisRect()->insetLayout()->setInsetAlignment(0, Qt::AlignTop | Qt::AlignRight);
    plot->replot();
    fitTables();
}

} // namespace memviz

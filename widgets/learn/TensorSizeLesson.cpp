// SPDX-License-Identifier: MIT
#include "widgets/learn/TensorSizeLesson.h"

#include <qcustomplot.h>

#include <QComboBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QSpinBox>
#include <QStandardItemModel>
#include <QTableView>
#include <cmath>

#include <QPushButton>

#include "costmodel/Presets.h"
#include "words/Units.h"
#include "workshop/TensorSize.h"

namespace memviz {

using namespace workshop;

namespace {

QString grouped(std::int64_t v) { return QString::fromStdString(groupDigits(v)); }
QString decimal(double b) { return QString::fromStdString(formatDecimalBytes(b)); }
QString binary(double b) { return QString::fromStdString(formatBytes(b, 1)); }

// The per-sample input shape of every preset, resolved once.
const std::vector<std::pair<std::string, Dims>>& presetInputs() {
    static const std::vector<std::pair<std::string, Dims>> inputs = [] {
        std::vector<std::pair<std::string, Dims>> out;
        for (const costmodel::PresetInfo& p : costmodel::presets())
            out.emplace_back(p.id, costmodel::presetSpec(p.id).input.shape);
        return out;
    }();
    return inputs;
}

} // namespace

std::optional<WhatIfScenario> TensorSizeLesson::whatIfScenario() const {
    const auto e = parseTensorExpression(expression_->text().toStdString());
    if (!e || e->dims.size() < 2 || e->dims[0] < 1) return std::nullopt;
    const Dims sample(e->dims.begin() + 1, e->dims.end());
    for (const auto& [id, shape] : presetInputs())
        if (shape == sample) {
            costmodel::EstimateOptions o;
            o.batch = e->dims[0];
            return WhatIfScenario{QString::fromStdString(id), o};
        }
    return std::nullopt;
}

TensorSizeLesson::TensorSizeLesson(QWidget* parent)
    : Lesson(parent), expression_(new QLineEdit(this)), examples_(new QComboBox(this)), dtype_(new QComboBox(this)),
      batch_(new QSpinBox(this)), table_(new QStandardItemModel(this)) {
    // The example in the text is computed like every other number on the page.
    const TensorSize example = *tensorSize({112121, 1, 40, 40}, findTorchDType("float32")->bytes);
    setIntro(tr("A tensor's memory is its number of elements times the size of one element: float32 takes %1 bytes, "
                "float16 and bfloat16 take %2. The same byte count reads differently in <b>MB</b> (10<sup>6</sup> bytes, "
                "what articles and disk vendors write) and <b>MiB</b> (2<sup>20</sup> = %3 bytes, what PyTorch and "
                "nvidia-smi print): %4 bytes are %5 but %6. Type a shape or pick an example.")
                 .arg(findTorchDType("float32")->bytes)
                 .arg(findTorchDType("float16")->bytes)
                 .arg(grouped(std::int64_t{1} << 20), grouped(example.bytes), decimal(double(example.bytes)),
                      binary(double(example.bytes))));
    QHBoxLayout* row = addControlRow();
    row->addWidget(new QLabel(tr("Tensor:"), this));
    expression_->setText(QStringLiteral("torch.ones((112121, 1, 40, 40))"));
    expression_->setMinimumWidth(320);
    row->addWidget(expression_, 2);
    row->addWidget(new QLabel(tr("Examples:"), this));
    examples_->addItem(tr("Pick an example…"), QString());
    examples_->addItem(tr("torch.ones((112121, 1, 40, 40)): the article's tensor"),
                       QStringLiteral("torch.ones((112121, 1, 40, 40))"));
    examples_->addItem(tr("torch.randn(100000, 3, 256, 256): a whole dataset"),
                       QStringLiteral("torch.randn(100000, 3, 256, 256)"));
    examples_->addItem(tr("1000 × 3 × 4096 × 4096 float32 images"), QStringLiteral("1000x3x4096x4096 float32"));
    row->addWidget(examples_, 1);

    QHBoxLayout* row2 = addControlRow();
    row2->addWidget(new QLabel(tr("Element type:"), this));
    for (const TorchDType& t : torchDTypes()) {
        const QString label = *t.alias ? QStringLiteral("torch.%1 (%2)").arg(QLatin1String(t.name), QLatin1String(t.alias))
                                       : QStringLiteral("torch.%1").arg(QLatin1String(t.name));
        dtype_->addItem(tr("%1, %2 B per element").arg(label).arg(t.bytes), QLatin1String(t.name));
    }
    row2->addWidget(dtype_);
    row2->addSpacing(16);
    row2->addWidget(new QLabel(tr("DataLoader batch size:"), this));
    batch_->setRange(1, 1 << 20);
    batch_->setValue(64);
    row2->addWidget(batch_);
    row2->addStretch(1);

    QCustomPlot* plot = addPlot(QStringLiteral("tensor-size"));
    plot->setMinimumWidth(300); // the table of dtypes takes the rest (presenter mode: its GB columns)
    addTable(table_, QStringLiteral("tensor-size"));

    connect(expression_, &QLineEdit::textChanged, this, [this](const QString& text) {
        // A dtype named in the text selects it in the list.
        if (auto e = parseTensorExpression(text.toStdString()); e && e->dtype) {
            const int i = dtype_->findData(QLatin1String(e->dtype->name));
            if (i >= 0 && i != dtype_->currentIndex()) dtype_->setCurrentIndex(i);
        }
        refresh();
    });
    connect(examples_, &QComboBox::activated, this, [this](int i) {
        const QString text = examples_->itemData(i).toString();
        if (!text.isEmpty()) {
            dtype_->setCurrentIndex(0);
            expression_->setText(text);
        }
    });
    connect(dtype_, &QComboBox::currentIndexChanged, this, [this] { refresh(); });
    connect(batch_, &QSpinBox::valueChanged, this, [this] { refresh(); });
    finishSetup();
}

void TensorSizeLesson::refresh() {
    QCustomPlot* plot = plots().first();
    plot->clearPlottables();
    plot->clearItems();
    table_->clear();
    table_->setHorizontalHeaderLabels({tr("dtype"), tr("bytes per element"), tr("bytes"), tr("MB (10^6)"), tr("MiB (2^20)"),
                                       tr("GB (10^9)"), tr("GiB (2^30)")});
    const auto e = parseTensorExpression(expression_->text().toStdString());
    const auto chosen = findTorchDType(dtype_->currentData().toString().toStdString());
    const auto size = e && chosen ? tensorSize(e->dims, chosen->bytes) : std::nullopt;
    if (!e) {
        resultLabel()->setText(
            tr("Type a shape such as <code>torch.ones((112121, 1, 40, 40))</code> or <code>1000x3x224x224</code>."));
        plot->replot();
        return;
    }
    if (!size) {
        resultLabel()->setText(tr("This shape has more bytes than a 64-bit integer can count."));
        plot->replot();
        return;
    }
    QString text = tr("%1 elements × %2 bytes = <b>%3 bytes</b> = <b>%4</b> = <b>%5</b>")
                       .arg(grouped(size->elements))
                       .arg(chosen->bytes)
                       .arg(grouped(size->bytes), decimal(double(size->bytes)), binary(double(size->bytes)));
    if (e->dims.size() > 1) {
        if (const auto batch = batchSize(e->dims, chosen->bytes, batch_->value()))
            text += QStringLiteral("<br>") + tr("Loaded in batches of %1 (a DataLoader over the first dimension), one batch "
                                                "holds %2 = %3 instead.")
                                                 .arg(batch_->value())
                                                 .arg(decimal(double(batch->bytes)), binary(double(batch->bytes)));
    }
    resultLabel()->setText(text);

    // The table: this shape in every dtype; the plot: the number printed in MB vs MiB.
    const LessonStyle& st = lessonStyle();
    QVector<double> ticks, mb, mib;
    QVector<QString> labels;
    int row = 0;
    for (const TorchDType& t : torchDTypes()) {
        const auto s = tensorSize(e->dims, t.bytes);
        if (!s) continue;
        const double b = double(s->bytes);
        setCell(table_, row, 0, QStringLiteral("torch.%1").arg(QLatin1String(t.name)), QLatin1String(t.name));
        setCell(table_, row, 1, QString::number(t.bytes), t.bytes);
        setCell(table_, row, 2, grouped(s->bytes), qint64(s->bytes));
        setCell(table_, row, 3, QString::number(b / 1e6, 'f', 1), b / 1e6);
        setCell(table_, row, 4, QString::number(b / 1048576.0, 'f', 1), b / 1048576.0);
        setCell(table_, row, 5, QString::number(b / 1e9, 'f', 2), b / 1e9);
        setCell(table_, row, 6, QString::number(b / 1073741824.0, 'f', 2), b / 1073741824.0);
        ++row;
        if (t.bytes == 1 && std::string_view(t.name) != "int8") continue; // one 1-byte bar is enough
        if (std::string_view(t.name) == "bfloat16" || std::string_view(t.name) == "complex64" ||
            std::string_view(t.name) == "int32" || std::string_view(t.name) == "int16")
            continue;
        ticks << ticks.size() + 1;
        labels << QString::fromLatin1(t.name);
        mb << b;
        mib << b;
    }
    // One unit pair for all bars, the one that suits the largest: kB/KiB ... TB/TiB.
    // The unit that suits the chosen dtype, so its bars read like the numbers above.
    int k = 0;
    while (k < 5 && double(size->bytes) >= std::pow(1000.0, k + 1)) ++k;
    for (double& v : mb) v /= std::pow(1000.0, k);
    for (double& v : mib) v /= std::pow(1024.0, k);
    st.applyTo(plot);
    auto* bytesBars = new QCPBars(plot->xAxis, plot->yAxis);
    auto* binaryBars = new QCPBars(plot->xAxis, plot->yAxis);
    bytesBars->setName(tr("%1 (1000^%2 bytes)").arg(QLatin1String(decimalByteUnitOfPower(k).suffix)).arg(k));
    binaryBars->setName(tr("%1 (1024^%2 bytes)").arg(QLatin1String(binaryByteUnitOfPower(k).suffix)).arg(k));
    for (auto [bars, i] : {std::pair{bytesBars, 0}, std::pair{binaryBars, 1}}) {
        bars->setWidth(0.38);
        bars->setPen(QPen(st.series(i).darker(120), st.lineWidth(1.0)));
        bars->setBrush(st.series(i));
    }
    QVector<double> left, right;
    for (double t : ticks) {
        left << t - 0.2;
        right << t + 0.2;
    }
    bytesBars->setData(left, mb);
    binaryBars->setData(right, mib);
    QSharedPointer<QCPAxisTickerText> ticker(new QCPAxisTickerText);
    ticker->addTicks(ticks, labels);
    plot->xAxis->setTicker(ticker);
    plot->xAxis->setRange(0.4, ticks.size() + 0.6);
    plot->xAxis->setLabel(tr("element type"));
    plot->yAxis->setRange(0, (mb.isEmpty() ? 1.0 : *std::max_element(mb.begin(), mb.end())) * 1.15);
    plot->yAxis->setLabel(
        tr("the number printed (%1 and %2)").arg(QLatin1String(decimalByteUnitOfPower(k).suffix), QLatin1String(binaryByteUnitOfPower(k).suffix)));
    plot->legend->setVisible(true);
    plot->axisRect()->insetLayout()->setInsetAlignment(0, Qt::AlignTop | Qt::AlignRight);
    plot->replot();
    fitTables();
    whatIfButton()->setEnabled(whatIfScenario().has_value());
    whatIfButton()->setToolTip(whatIfButton()->isEnabled()
                                   ? tr("Open the model whose input has this shape, with the first dimension as the batch.")
                                   : tr("No preset model takes inputs of this shape."));
}

} // namespace memviz

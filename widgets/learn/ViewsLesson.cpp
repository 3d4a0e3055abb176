// SPDX-License-Identifier: MIT
#include "widgets/learn/ViewsLesson.h"

#include <qcustomplot.h>

#include <QComboBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QSpinBox>
#include <QStandardItemModel>
#include <QTableView>

#include "words/Units.h"
#include "widgets/learn/LessonCharts.h"
#include "words/Units.h"
#include "workshop/ShapeGuesses.h"

namespace memviz {

using namespace workshop;

namespace {

QString binary(double bytes) { return QString::fromStdString(formatBytes(bytes, 1)); }

} // namespace

ViewsLesson::ViewsLesson(QWidget* parent)
    : Lesson(parent), scenario_(new QComboBox(this)), rows_(new QSpinBox(this)), cols_(new QSpinBox(this)),
      dtype_(new QComboBox(this)), table_(new QStandardItemModel(this)) {
    setIntro(tr("A tensor is a view on a storage: a shape, strides (how far to step in memory for each dimension) and "
                "an offset. <code>view</code>, <code>reshape</code> of a contiguous tensor, <code>transpose</code> and "
                "slicing only make new views: no bytes are copied, and the storage stays alive as long as any view of it "
                "does. <code>contiguous()</code> copies when the strides are not row-major, <code>clone()</code> always "
                "copies, and <code>reshape()</code> copies when no view is possible."));
    QHBoxLayout* row = addControlRow();
    row->addWidget(new QLabel(tr("Program:"), this));
    scenario_->addItem(tr("view, transpose, reshape and contiguous"));
    scenario_->addItem(tr("a small slice keeps the whole storage alive"));
    scenario_->addItem(tr("strided slices: every other row, half the columns"));
    scenario_->addItem(tr("clone() vs view(): what del frees"));
    row->addWidget(scenario_, 1);
    row->addWidget(new QLabel(tr("x is"), this));
    rows_->setRange(2, 100000);
    rows_->setValue(1000);
    row->addWidget(rows_);
    row->addWidget(new QLabel(QStringLiteral("×"), this));
    cols_->setRange(2, 100000);
    cols_->setValue(1000);
    row->addWidget(cols_);
    dtype_->addItem(QStringLiteral("float32"), 4);
    dtype_->addItem(QStringLiteral("float16"), 2);
    dtype_->addItem(QStringLiteral("float64"), 8);
    row->addWidget(dtype_);
    row->addStretch(1);

    QCustomPlot* plot = addPlot(QStringLiteral("views"));
    plot->setMinimumWidth(360);
    wrapText(addTable(table_, QStringLiteral("views")), {2}); // the shape, or why the statement fails
    body()->setStretchFactor(1, 2);
    connect(scenario_, &QComboBox::currentIndexChanged, this, [this] { refresh(); });
    connect(rows_, &QSpinBox::valueChanged, this, [this] { refresh(); });
    connect(cols_, &QSpinBox::valueChanged, this, [this] { refresh(); });
    connect(dtype_, &QComboBox::currentIndexChanged, this, [this] { refresh(); });
    finishSetup();
}

std::vector<StrideStatement> ViewsLesson::program() const {
    const std::int64_t r = rows_->value(), c = cols_->value();
    switch (scenario_->currentIndex()) {
    case 1:
        return {stmt::create("x", {r, c}), stmt::slice("y", "x", 0, 0, 10), stmt::del("x"), stmt::clone("z", "y"),
                stmt::del("y")};
    case 2:
        return {stmt::create("x", {r, c}),          stmt::slice("even", "x", 0, 0, r, 2),
                stmt::contiguous("even_c", "even"), stmt::slice("left", "x", 1, 0, c / 2),
                stmt::view("flat", "left", {-1}),   stmt::reshape("flat", "left", {-1})};
    case 3:
        return {stmt::create("x", {r, c}), stmt::view("v", "x", {c, r}), stmt::clone("k", "x"), stmt::del("x"), stmt::del("v")};
    default:
        return {stmt::create("x", {r, c}),   stmt::view("v", "x", {-1}),     stmt::transpose("t", "x", 0, 1),
                stmt::view("tv", "t", {-1}), stmt::reshape("tr", "t", {-1}), stmt::contiguous("tc", "t"),
                stmt::contiguous("xc", "x")};
    }
}

void ViewsLesson::refresh() {
    const auto prog = program();
    const auto steps = runStrideProgram(prog, dtype_->currentData().toInt());
    table_->clear();
    table_->setHorizontalHeaderLabels({tr("#"), tr("statement"), tr("shape"), tr("strides"), tr("contiguous"), tr("storage"),
                                       tr("allocated"), tr("freed"), tr("alive after")});
    std::int64_t copied = 0, peak = 0;
    for (std::size_t i = 0; i < steps.size(); ++i) {
        const StrideStep& s = steps[i];
        const int row = int(i);
        setCell(table_, row, 0, QString::number(i + 1), int(i + 1));
        setCell(table_, row, 1, QString::fromStdString(s.code), QString::fromStdString(s.code));
        if (!s.error.empty()) {
            // The first clause in the cell, PyTorch's whole message in the tooltip and the CSV.
            const QString full = QString::fromStdString(s.error);
            QString shortText = full.section(QStringLiteral(" ("), 0, 0);
            const QString err = tr("error: %1").arg(shortText);
            setCell(table_, row, 2, err, tr("error: %1").arg(full));
            table_->item(row, 2)->setToolTip(full);
        } else if (s.result) {
            setCell(table_, row, 2, QString::fromStdString(dimsText(s.result->shape)),
                    QString::fromStdString(dimsText(s.result->shape)));
            setCell(table_, row, 3, QString::fromStdString(dimsText(s.result->strides)),
                    QString::fromStdString(dimsText(s.result->strides)));
            setCell(table_, row, 4, s.contiguous ? tr("yes") : tr("no"), s.contiguous);
            const QString storage = s.sharesStorage ? tr("shared (a view)") : tr("new (a copy)");
            setCell(table_, row, 5, storage, s.sharesStorage ? QStringLiteral("shared") : QStringLiteral("new"));
        }
        setCell(table_, row, 6, binary(double(s.allocatedBytes)), qint64(s.allocatedBytes));
        setCell(table_, row, 7, binary(double(s.freedBytes)), qint64(s.freedBytes));
        setCell(table_, row, 8, binary(double(s.liveBytes)), qint64(s.liveBytes));
        if (i > 0) copied += s.allocatedBytes;
        peak = std::max(peak, s.liveBytes);
    }
    const double xBytes = steps.empty() ? 0.0 : double(steps.front().allocatedBytes);
    resultLabel()->setText(tr("x takes <b>%1</b>. The statements after it copied <b>%2</b>; at most <b>%3</b> were alive at "
                              "once, <b>%4</b> at the end.")
                               .arg(binary(xBytes), binary(double(copied)), binary(double(peak)),
                                    binary(steps.empty() ? 0.0 : double(steps.back().liveBytes))));

    QCustomPlot* plot = plots().first();
    const LessonStyle& st = lessonStyle();
    resetPlot(plot, st);
    const ScaledUnit unit = byteUnitFor(double(std::max<std::int64_t>(peak, 1)));
    QVector<double> keys, alive, allocated;
    for (std::size_t i = 0; i < steps.size(); ++i) {
        keys << double(i + 1);
        alive << double(steps[i].liveBytes) / unit.divisor;
        allocated << double(steps[i].allocatedBytes) / unit.divisor;
    }
    auto* aliveBars = new QCPBars(plot->xAxis, plot->yAxis);
    aliveBars->setName(tr("alive after the statement"));
    aliveBars->setWidth(0.7);
    aliveBars->setBrush(st.series(0));
    aliveBars->setPen(QPen(st.series(0).darker(120), st.lineWidth(1.0)));
    aliveBars->setData(keys, alive, true);
    auto* newBars = new QCPBars(plot->xAxis, plot->yAxis);
    newBars->setName(tr("allocated by it"));
    newBars->setWidth(0.35);
    newBars->setBrush(st.series(1));
    newBars->setPen(QPen(st.series(1).darker(120), st.lineWidth(1.0)));
    newBars->setData(keys, allocated, true);
    QSharedPointer<QCPAxisTickerFixed> ticker(new QCPAxisTickerFixed);
    ticker->setTickStep(1.0);
    ticker->setScaleStrategy(QCPAxisTickerFixed::ssNone);
    plot->xAxis->setTicker(ticker);
    plot->xAxis->setRange(0.4, double(steps.size()) + 0.6);
    plot->xAxis->setLabel(tr("statement #"));
    plot->yAxis->setLabel(tr("memory (%1)").arg(QString::fromLatin1(unit.suffix)));
    plot->yAxis->setRange(0, double(peak) / unit.divisor * 1.25 + 1e-9);
    plot->legend->setVisible(true);
    plot->axisRect()->insetLayout()->setInsetAlignment(0, Qt::AlignTop | Qt::AlignLeft);
    plot->replot();
    fitTables();
}

} // namespace memviz

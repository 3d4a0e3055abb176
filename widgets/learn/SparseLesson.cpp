// SPDX-License-Identifier: MIT
#include "widgets/learn/SparseLesson.h"

#include <qcustomplot.h>

#include <QComboBox>
#include <QDoubleSpinBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QSlider>
#include <QSpinBox>
#include <QStandardItemModel>
#include <QTableView>
#include <cmath>

#include "words/Units.h"
#include "widgets/learn/LessonCharts.h"
#include "words/Units.h"
#include "workshop/SparseFormulas.h"

namespace memviz {

using namespace workshop;

namespace {

QString both(double bytes) { return QString::fromStdString(formatBothUnits(bytes)); }
QString binary(double bytes) { return QString::fromStdString(formatBytes(bytes, 1)); }
QString percent(double fraction) { return QStringLiteral("%1%").arg(fraction * 100.0, 0, 'g', 4); }

} // namespace

SparseLesson::SparseLesson(QWidget* parent)
    : Lesson(parent), rows_(new QSpinBox(this)), cols_(new QSpinBox(this)), dtype_(new QComboBox(this)),
      density_(new QDoubleSpinBox(this)), slider_(new QSlider(Qt::Horizontal, this)), table_(new QStandardItemModel(this)) {
    const int f32 = 4; // float32, the lesson's default
    setIntro(tr("A dense tensor stores every element, zero or not. <code>torch.sparse_coo_tensor</code> stores only the "
                "non-zeros: for each one, an int64 index per dimension (%1 bytes each) and its value. A 2-D float32 "
                "non-zero therefore costs 2 × %1 + %2 = %3 bytes instead of %2, so COO only saves memory when fewer than "
                "%2 / %3 = %4 of the elements are non-zero: the <b>break-even density</b>. CSR shares the row indices "
                "and breaks even later.")
                 .arg(kSparseIndexBytes)
                 .arg(f32)
                 .arg(cooBytes(2, 1, f32))
                 .arg(percent(cooBreakEvenDensity(2, f32))));
    QHBoxLayout* row = addControlRow();
    row->addWidget(new QLabel(tr("Rows:"), this));
    rows_->setRange(1, 1000000);
    rows_->setValue(10000);
    row->addWidget(rows_);
    row->addWidget(new QLabel(tr("Columns:"), this));
    cols_->setRange(1, 1000000);
    cols_->setValue(10000);
    row->addWidget(cols_);
    row->addWidget(new QLabel(tr("Values:"), this));
    dtype_->addItem(QStringLiteral("float32"), 4);
    dtype_->addItem(QStringLiteral("float64"), 8);
    dtype_->addItem(QStringLiteral("float16"), 2);
    dtype_->addItem(QStringLiteral("int8"), 1);
    row->addWidget(dtype_);
    row->addStretch(1);
    QHBoxLayout* row2 = addControlRow();
    row2->addWidget(new QLabel(tr("Density (non-zeros, %):"), this));
    density_->setRange(0.0, 100.0);
    density_->setDecimals(3);
    density_->setValue(1.0);
    density_->setSuffix(QStringLiteral(" %"));
    row2->addWidget(density_);
    slider_->setRange(0, 1000);
    slider_->setValue(10);
    row2->addWidget(slider_, 1);

    addPlot(QStringLiteral("sparse"));
    addTable(table_, QStringLiteral("sparse"));

    connect(slider_, &QSlider::valueChanged, this, [this](int v) {
        if (std::abs(density_->value() * 10.0 - v) >= 1.0) density_->setValue(v / 10.0);
    });
    connect(density_, &QDoubleSpinBox::valueChanged, this, [this](double v) {
        slider_->blockSignals(true);
        slider_->setValue(int(std::lround(v * 10.0)));
        slider_->blockSignals(false);
        refresh();
    });
    connect(rows_, &QSpinBox::valueChanged, this, [this] { refresh(); });
    connect(cols_, &QSpinBox::valueChanged, this, [this] { refresh(); });
    connect(dtype_, &QComboBox::currentIndexChanged, this, [this] { refresh(); });
    finishSetup();
}

void SparseLesson::refresh() {
    const std::int64_t rows = rows_->value(), cols = cols_->value();
    const std::int64_t numel = rows * cols;
    const int e = dtype_->currentData().toInt();
    const double density = density_->value() / 100.0;
    const std::int64_t nnz = nonZerosAt(numel, density);
    const double dense = double(numel) * e;
    const double coo = double(cooBytes(2, nnz, e));
    const double csr = double(csrBytes(rows, nnz, e));
    const double cooEven = cooBreakEvenDensity(2, e);
    const double csrEven = csrBreakEvenDensity(rows, cols, e);
    resultLabel()->setText(
        tr("Dense: <b>%1</b>. At %2 density (%3 non-zeros): COO <b>%4</b>, CSR <b>%5</b>.<br>COO breaks even at "
           "<b>%6</b> = %7 / (2 × 8 + %7); CSR at <b>%8</b>.")
            .arg(both(dense), percent(density), QString::fromStdString(groupDigits(nnz)), both(coo), both(csr), percent(cooEven))
            .arg(e)
            .arg(percent(csrEven)));

    table_->clear();
    table_->setHorizontalHeaderLabels(
        {tr("density"), tr("non-zeros"), tr("dense bytes"), tr("COO bytes"), tr("CSR bytes"), tr("smallest")});
    const double densities[] = {0.001, 0.01, 0.05, 0.10, cooEven, csrEven, 0.5, 1.0};
    int r = 0;
    for (double d : densities) {
        const std::int64_t n = nonZerosAt(numel, d);
        const double c = double(cooBytes(2, n, e)), s = double(csrBytes(rows, n, e));
        setCell(table_, r, 0, percent(d), d);
        setCell(table_, r, 1, QString::fromStdString(groupDigits(n)), qint64(n));
        setCell(table_, r, 2, binary(dense), qint64(dense));
        setCell(table_, r, 3, binary(c), qint64(c));
        setCell(table_, r, 4, binary(s), qint64(s));
        const QString best = s < dense && s <= c ? tr("CSR") : c < dense ? tr("COO") : tr("dense");
        setCell(table_, r, 5, best, best);
        ++r;
    }

    QCustomPlot* plot = plots().first();
    const LessonStyle& st = lessonStyle();
    resetPlot(plot, st);
    const ScaledUnit unit = byteUnitFor(std::max({dense, double(cooBytes(2, numel, e)), double(csrBytes(rows, numel, e))}));
    QVector<double> x, yDense, yCoo, yCsr;
    for (int i = 0; i <= 100; ++i) {
        const double d = i / 100.0;
        const std::int64_t n = nonZerosAt(numel, d);
        x << d * 100.0;
        yDense << dense / unit.divisor;
        yCoo << double(cooBytes(2, n, e)) / unit.divisor;
        yCsr << double(csrBytes(rows, n, e)) / unit.divisor;
    }
    const auto line = [&](const QVector<double>& y, const QString& name, int color) {
        QCPGraph* g = plot->addGraph();
        g->setName(name);
        g->setPen(QPen(st.series(color), st.lineWidth()));
        g->setData(x, y, true);
    };
    line(yDense, tr("dense"), 0);
    line(yCoo, tr("COO (indices + values)"), 1);
    line(yCsr, tr("CSR"), 2);
    auto* even = new QCPItemStraightLine(plot);
    even->point1->setCoords(cooEven * 100.0, 0);
    even->point2->setCoords(cooEven * 100.0, 1);
    even->setPen(QPen(st.accent(), st.lineWidth(1.5), Qt::DashLine));
    auto* evenLabel = new QCPItemText(plot);
    evenLabel->position->setTypeY(QCPItemPosition::ptAxisRectRatio);
    evenLabel->position->setCoords(cooEven * 100.0, 0.04);
    evenLabel->setPositionAlignment(Qt::AlignLeft | Qt::AlignTop);
    evenLabel->setText(QStringLiteral(" ") + tr("COO break-even %1").arg(percent(cooEven)));
    evenLabel->setColor(st.accent());
    evenLabel->setFont(plot->font());
    auto* now = new QCPItemTracer(plot);
    now->setGraph(plot->graph(1));
    now->setGraphKey(density * 100.0);
    now->setStyle(QCPItemTracer::tsCircle);
    now->setSize(10 * st.scale);
    now->setPen(QPen(st.foreground(), st.lineWidth(1.5)));
    plot->xAxis->setLabel(tr("density (% non-zero)"));
    plot->yAxis->setLabel(tr("memory (%1)").arg(QString::fromLatin1(unit.suffix)));
    plot->xAxis->setRange(0, 100);
    plot->yAxis->rescale();
    plot->yAxis->setRangeLower(0);
    plot->yAxis->scaleRange(1.08, plot->yAxis->range().lower);
    plot->legend->setVisible(true);
    plot->axisRect()->insetLayout()->setInsetAlignment(0, Qt::AlignBottom | Qt::AlignRight);
    plot->replot();
    fitTables();
}

} // namespace memviz

// SPDX-License-Identifier: MIT
#include "widgets/learn/LessonCharts.h"

#include <qcustomplot.h>

#include "words/CostModelLabels.h"
#include "widgets/learn/LessonStyle.h"

namespace memviz {

using namespace costmodel;

ScaledUnit unitFor(double largest) { return byteUnitFor(std::max(largest, 1.0)); }

QString bytesText(double bytes) { return QString::fromStdString(formatBytes(bytes)); }

void resetPlot(QCustomPlot* plot, const LessonStyle& style) {
    plot->clearPlottables();
    plot->clearItems();
    style.applyTo(plot);
}

void setBatchAxis(QCPAxis* axis, double largestBatch) {
    QSharedPointer<QCPAxisTickerLog> ticker(new QCPAxisTickerLog);
    ticker->setLogBase(2);
    axis->setScaleType(QCPAxis::stLogarithmic);
    axis->setTicker(ticker);
    axis->setNumberFormat(QStringLiteral("f"));
    axis->setNumberPrecision(0);
    axis->setRange(0.8, largestBatch * 1.25);
}

void setTextTicks(QCPAxis* axis, const QStringList& labels) {
    QSharedPointer<QCPAxisTickerText> ticker(new QCPAxisTickerText);
    for (int i = 0; i < labels.size(); ++i) ticker->addTick(i + 1, labels[i]);
    axis->setTicker(ticker);
    axis->setRange(0.4, labels.size() + 0.6);
}

void drawFootprintBars(QCustomPlot* plot, const std::vector<workshop::Footprint>& bars, const QStringList& labels,
                       const LessonStyle& style) {
    double largest = 0;
    for (const auto& f : bars) largest = std::max(largest, double(f.peakBytes));
    const ScaledUnit unit = unitFor(largest);
    // Bottom to top, one colour each.
    const Category layers[] = {Category::Parameters,  Category::Gradients,   Category::OptimizerState, Category::Input,
                               Category::Activations, Category::Temporaries, Category::Overhead};
    QCPBars* below = nullptr;
    int colour = 0;
    for (Category c : layers) {
        auto* b = new QCPBars(plot->xAxis, plot->yAxis);
        b->setName(categoryLabel(c));
        b->setWidth(0.6);
        b->setBrush(style.series(colour));
        b->setPen(QPen(style.background(), style.lineWidth(0.5)));
        ++colour;
        QVector<double> keys, values;
        for (std::size_t i = 0; i < bars.size(); ++i) {
            keys << double(i + 1);
            values << double(bars[i].at(c)) / unit.divisor;
        }
        b->setData(keys, values, true);
        if (below) b->moveAbove(below);
        below = b;
    }
    setTextTicks(plot->xAxis, labels);
    plot->yAxis->setLabel(QObject::tr("memory at the peak (%1)").arg(QString::fromLatin1(unit.suffix)));
    plot->yAxis->setRange(0, largest / unit.divisor * 1.1 + 1e-9);
}

} // namespace memviz

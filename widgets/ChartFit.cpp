// SPDX-License-Identifier: MIT
#include "widgets/ChartFit.h"

#include <qcustomplot.h>

#include <algorithm>

namespace memviz {

bool fitLegendColumns(QCustomPlot* plot, int width) {
    QCPLegend* legend = plot->legend;
    int count = 0, widest = 1;
    for (int i = 0; i < legend->itemCount(); ++i) // cells of the grid: some may be empty
        if (QCPAbstractLegendItem* item = legend->item(i)) {
            ++count;
            widest = std::max(widest, item->minimumOuterSizeHint().width());
        }
    if (count == 0) return false;
    const QMargins outer = legend->margins() + plot->plotLayout()->margins();
    const int room = width - outer.left() - outer.right() - 4;
    const int spacing = legend->columnSpacing();
    const int columns = std::clamp((room + spacing) / (widest + spacing), 1, count);
    if (columns == legend->wrap()) return false;
    legend->setWrap(columns);
    legend->setFillOrder(legend->fillOrder(), true); // re-arranges the entries into the new grid
    return true;
}

bool fitTickLabels(QCPAxis* axis) {
    auto ticker = qSharedPointerDynamicCast<QCPAxisTickerText>(axis->ticker());
    if (!ticker || ticker->ticks().isEmpty()) return false;
    const QFontMetrics metrics(axis->tickLabelFont());
    int needed = 0;
    for (const QString& label : ticker->ticks()) needed += metrics.horizontalAdvance(label) + metrics.averageCharWidth() * 2;
    const double angle = needed > axis->axisRect()->width() ? -30.0 : 0.0;
    if (axis->tickLabelRotation() == angle) return false;
    axis->setTickLabelRotation(angle);
    return true;
}

void putLegendAbovePlot(QCustomPlot* plot, int wrap) {
    plot->legend->setVisible(true);
    plot->legend->setFillOrder(QCPLegend::foColumnsFirst);
    plot->legend->setWrap(wrap);
    plot->legend->setBorderPen(Qt::NoPen);
    plot->plotLayout()->insertRow(0);
    plot->plotLayout()->addElement(0, 0, plot->legend);
    plot->plotLayout()->setRowStretchFactor(0, 0.001);
}

void compactLegend(QCustomPlot* plot) {
    QCPLegend* legend = plot->legend;
    legend->setIconSize(14, 9);
    legend->setIconTextPadding(4);
    legend->setMargins(QMargins(2, 2, 2, 2));
    QFont font = plot->font();
    font.setPointSizeF(font.pointSizeF() * 0.9);
    legend->setFont(font);
    for (int i = 0; i < legend->itemCount(); ++i)
        if (QCPAbstractLegendItem* item = legend->item(i)) item->setFont(font);
    QObject::connect(plot, &QCustomPlot::beforeReplot, plot, [plot] {
        for (int i = 0; i < plot->legend->itemCount(); ++i) // entries come and go with the data
            if (QCPAbstractLegendItem* item = plot->legend->item(i)) item->setMargins(QMargins(4, 1, 4, 1));
    });
}

void keepTextFitted(QCustomPlot* plot, QCPAxis* tickAxis, bool legendColumns) {
    QObject::connect(plot, &QCustomPlot::afterLayout, plot, [plot, tickAxis, legendColumns] {
        // The layout just ran with the plot's real size: fit, and draw again if anything moved.
        bool changed = legendColumns && fitLegendColumns(plot, plot->viewport().width());
        if (tickAxis) changed = fitTickLabels(tickAxis) || changed;
        if (changed) plot->replot(QCustomPlot::rpQueuedReplot);
    });
}

} // namespace memviz

// SPDX-License-Identifier: MIT
#include "widgets/ColumnGraph.h"

#include <algorithm>
#include <cmath>
#include <limits>

namespace memviz {

std::vector<double> ColumnGraph::envelope(const QVector<QPointF>& lines) const {
    const QRect rect = keyAxis()->axisRect()->rect();
    const int left = rect.left();
    const int width = std::max(0, rect.width());
    std::vector<double> top(static_cast<std::size_t>(width), std::numeric_limits<double>::quiet_NaN());
    // Each segment of the line covers the columns between its ends at its higher end's height
    // (a step line's segments are level or upright, so this is exact for them).
    for (qsizetype i = 0; i < lines.size(); ++i) {
        const QPointF& a = lines[i];
        const QPointF& b = i + 1 < lines.size() ? lines[i + 1] : a;
        if (!std::isfinite(a.x()) || !std::isfinite(b.x()) || std::isnan(a.y()) || std::isnan(b.y())) continue;
        const double x0 = std::min(a.x(), b.x()) - left, x1 = std::max(a.x(), b.x()) - left;
        if (x1 < 0 || x0 >= width) continue;
        const int c0 = std::max(0, static_cast<int>(std::floor(x0)));
        const int c1 = std::min(width - 1, static_cast<int>(std::floor(x1)));
        const double y = std::min(a.y(), b.y());
        for (int c = c0; c <= c1; ++c) {
            double& t = top[static_cast<std::size_t>(c)];
            if (!(t <= y)) t = y;
        }
    }
    return top;
}

std::vector<double> ColumnGraph::columnTops() const {
    QVector<QPointF> lines;
    getLines(&lines, QCPDataRange(0, dataCount()));
    return envelope(lines);
}

void ColumnGraph::drawFill(QCPPainter* painter, QVector<QPointF>* lines) const {
    if (brush().style() == Qt::NoBrush || brush().color().alpha() == 0) return;
    if (keyAxis()->orientation() != Qt::Horizontal) return QCPGraph::drawFill(painter, lines);
    const std::vector<double> top = envelope(*lines);
    std::vector<double> bottom;
    if (const auto* below = dynamic_cast<const ColumnGraph*>(channelFillGraph())) bottom = below->columnTops();
    const double base = valueAxis()->coordToPixel(0);
    const int left = keyAxis()->axisRect()->rect().left();
    auto bottomAt = [&](std::size_t c) { return c < bottom.size() && !std::isnan(bottom[c]) ? bottom[c] : base; };
    // One polygon per run of columns with data: along the tops left to right, back along the
    // bottoms. Its edges are upright or level and in order, so a scan line meets few of them,
    // and Qt blends it in a few long spans (a rectangle per column would be a span per row).
    painter->save();
    painter->setAntialiasing(false); // whole columns: nothing to smooth, and much faster
    painter->setPen(Qt::NoPen);
    painter->setBrush(brush());
    const std::size_t width = top.size();
    QPolygonF polygon;
    std::size_t c = 0;
    while (c < width) {
        if (std::isnan(top[c])) {
            ++c;
            continue;
        }
        const std::size_t first = c;
        polygon.clear();
        for (; c < width && !std::isnan(top[c]); ++c) {
            const double x = left + static_cast<double>(c);
            if (polygon.size() >= 2 && polygon.back().y() == top[c]) polygon.back().setX(x + 1);
            else polygon << QPointF(x, top[c]) << QPointF(x + 1, top[c]);
        }
        const qsizetype topPoints = polygon.size();
        for (std::size_t k = c; k-- > first;) {
            const double x = left + static_cast<double>(k), y = bottomAt(k);
            if (polygon.size() >= topPoints + 2 && polygon.back().y() == y) polygon.back().setX(x);
            else polygon << QPointF(x + 1, y) << QPointF(x, y);
        }
        painter->drawPolygon(polygon);
    }
    painter->restore();
}

QPen densityPen(const QPen& pen, qsizetype points, int columns) {
    if (points * 2 <= columns || pen.widthF() <= 1.0) return pen;
    QPen thin = pen;
    thin.setWidthF(1.0);
    return thin;
}

} // namespace memviz

// SPDX-License-Identifier: MIT
#pragma once
// A QCPGraph that stays fast on dense step data (issue 12: a replot of the timeline took up to
// 1.8 s on a 2M-entry snapshot, 11 s on a spikier one).
//
// A memory curve read per pixel column has several points in each column (first, min, max,
// last), so its step polygon runs up and down thousands of times. Qt's raster engine fills such
// a polygon, and strokes a pen wider than one pixel, in time that grows with the crossings per
// scan line times their number. This graph fills the area by pixel columns instead: the
// highest point of the curve in each column down to the base (or to the channel-fill graph's
// highest point there), drawn as one polygon of upright and level edges. For sparse data the
// picture is the same as QCPGraph's; for dense data it is the envelope a reader sees anyway.
// And `densityPen` narrows the line of a dense curve to one pixel, which Qt draws fast.
#include <qcustomplot.h>

#include <vector>

namespace memviz {

class ColumnGraph : public QCPGraph {
public:
    using QCPGraph::QCPGraph; // registers with the axes' plot, as QCustomPlot::addGraph does

    // Per pixel column of the axis rect (left to right), the smallest pixel y (the highest
    // value) the graph's line reaches in that column; NaN where it has no data.
    std::vector<double> columnTops() const;

protected:
    void drawFill(QCPPainter* painter, QVector<QPointF>* lines) const override;

private:
    std::vector<double> envelope(const QVector<QPointF>& lines) const;
};

// A curve with more points than about half the columns it is drawn in gets a one-pixel pen of
// `pen`'s colour and style; a sparser one keeps `pen`.
QPen densityPen(const QPen& pen, qsizetype points, int columns);

} // namespace memviz

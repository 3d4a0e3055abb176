// SPDX-License-Identifier: MIT
#pragma once
// Draws an ActiveLayout on a QCustomPlot: one filled band per allocation (coloured by its call
// site, so allocations from the same line share a colour) and the summed small allocations
// as one grey band on top. Only bands inside the visible range are drawn; the summary is drawn
// as one column per pixel, found by binary search and per-block extremes (bounded by pixels).
#include <qcustomplot.h>

#include <vector>

#include "trace/ActiveMemoryLayout.h"

namespace memviz {

class AllocationBands : public QCPAbstractPlottable {
    Q_OBJECT
public:
    AllocationBands(QCPAxis* keyAxis, QCPAxis* valueAxis);

    // The lowest base and highest top of the summary per block of kBlock points: a pixel
    // column's extremes come from whole blocks, so drawing costs the pixels, not the points.
    // O(summary points): computed on the worker that made the layout.
    using SummaryBlocks = std::vector<std::pair<std::int64_t, std::int64_t>>;
    static SummaryBlocks summaryBlocksOf(const ActiveLayout& layout);

    // `colourKeys`: one per band (a call site id); equal keys get equal colours. `blocks`:
    // summaryBlocksOf(layout). The layout shown before is freed on a worker.
    void setLayout(ActiveLayout layout, std::vector<std::int32_t> colourKeys, SummaryBlocks blocks);
    void clear() { setLayout({}, {}, {}); }
    const ActiveLayout& layout() const { return layout_; }
    QColor bandColour(std::size_t band) const;
    // The band to show raised (hovered), or none.
    void setHighlighted(std::optional<std::size_t> band);
    std::optional<std::size_t> highlighted() const { return highlighted_; }

    double selectTest(const QPointF& pos, bool onlySelectable, QVariant* details = nullptr) const override;
    QCPRange getKeyRange(bool& foundRange, QCP::SignDomain inSignDomain = QCP::sdBoth) const override;
    QCPRange getValueRange(bool& foundRange, QCP::SignDomain inSignDomain = QCP::sdBoth,
                           const QCPRange& inKeyRange = QCPRange()) const override;

protected:
    void draw(QCPPainter* painter) override;
    void drawLegendIcon(QCPPainter* painter, const QRectF& rect) const override;

private:
    QPolygonF bandPolygon(const ActiveBand& band) const;
    QPolygonF summaryPolygon() const;

    static constexpr std::size_t kBlock = 256;
    std::pair<std::int64_t, std::int64_t> summaryExtremes(std::size_t from, std::size_t to) const;

    ActiveLayout layout_;
    SummaryBlocks summaryBlocks_;
    std::vector<std::int32_t> colourKeys_;
    std::optional<std::size_t> highlighted_;
};

} // namespace memviz

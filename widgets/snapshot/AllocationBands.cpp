// SPDX-License-Identifier: MIT
#include "widgets/snapshot/AllocationBands.h"

#include <algorithm>
#include <cmath>
#include <utility>

#include "widgets/WorkerPool.h"

namespace memviz {

namespace {

// Twelve distinguishable colours (Tableau's 10 and two more), lightened a little so the thin
// borders between neighbouring bands show.
const QColor kPalette[] = {{31, 119, 180},  {255, 127, 14}, {44, 160, 44},  {214, 39, 40},   {148, 103, 189}, {140, 86, 75},
                           {227, 119, 194}, {188, 189, 34}, {23, 190, 207}, {174, 199, 232}, {255, 187, 120}, {152, 223, 138}};
const QColor kSummary(170, 170, 170);

} // namespace

AllocationBands::AllocationBands(QCPAxis* keyAxis, QCPAxis* valueAxis) : QCPAbstractPlottable(keyAxis, valueAxis) {
    setName(tr("allocations"));
}

AllocationBands::SummaryBlocks AllocationBands::summaryBlocksOf(const ActiveLayout& layout) {
    SummaryBlocks blocks;
    const auto& sum = layout.summary;
    blocks.reserve((sum.size() + kBlock - 1) / kBlock);
    for (std::size_t b = 0; b < sum.size(); b += kBlock) {
        std::pair<std::int64_t, std::int64_t> e{sum[b].base, sum[b].base + sum[b].bytes};
        for (std::size_t k = b; k < std::min(sum.size(), b + kBlock); ++k) {
            e.first = std::min(e.first, sum[k].base);
            e.second = std::max(e.second, sum[k].base + sum[k].bytes);
        }
        blocks.push_back(e);
    }
    return blocks;
}

void AllocationBands::setLayout(ActiveLayout layout, std::vector<std::int32_t> colourKeys, SummaryBlocks blocks) {
    if (!layout_.bands.empty() || !layout_.summary.empty()) releaseOnWorker(std::exchange(layout_, {}));
    layout_ = std::move(layout);
    colourKeys_ = std::move(colourKeys);
    summaryBlocks_ = std::move(blocks);
    highlighted_.reset();
}

std::pair<std::int64_t, std::int64_t> AllocationBands::summaryExtremes(std::size_t from, std::size_t to) const {
    const auto& sum = layout_.summary;
    std::pair<std::int64_t, std::int64_t> e{sum[from].base, sum[from].base + sum[from].bytes};
    const auto point = [&](std::size_t k) {
        e.first = std::min(e.first, sum[k].base);
        e.second = std::max(e.second, sum[k].base + sum[k].bytes);
    };
    std::size_t k = from;
    for (; k < to && k % kBlock != 0; ++k) point(k);
    for (; k + kBlock <= to; k += kBlock) {
        e.first = std::min(e.first, summaryBlocks_[k / kBlock].first);
        e.second = std::max(e.second, summaryBlocks_[k / kBlock].second);
    }
    for (; k < to; ++k) point(k);
    return e;
}

QColor AllocationBands::bandColour(std::size_t band) const {
    const std::int32_t key = band < colourKeys_.size() ? colourKeys_[band] : static_cast<std::int32_t>(band);
    const auto n = static_cast<std::uint32_t>(std::size(kPalette));
    return kPalette[(static_cast<std::uint32_t>(key) * 2654435761u >> 7) % n];
}

void AllocationBands::setHighlighted(std::optional<std::size_t> band) { highlighted_ = band; }

double AllocationBands::selectTest(const QPointF&, bool, QVariant*) const { return -1; }

QCPRange AllocationBands::getKeyRange(bool& foundRange, QCP::SignDomain) const {
    foundRange = !layout_.summary.empty();
    if (!foundRange) return {};
    double lo = static_cast<double>(layout_.summary.front().x), hi = static_cast<double>(layout_.summary.back().x);
    for (const ActiveBand& b : layout_.bands) {
        lo = std::min(lo, static_cast<double>(b.bottom.front().first));
        hi = std::max(hi, static_cast<double>(b.bottom.back().first));
    }
    return {lo, hi};
}

QCPRange AllocationBands::getValueRange(bool& foundRange, QCP::SignDomain, const QCPRange&) const {
    foundRange = true;
    return {0, static_cast<double>(std::max<std::int64_t>(layout_.maxTotal, 1))};
}

QPolygonF AllocationBands::bandPolygon(const ActiveBand& band) const {
    QPolygonF poly;
    const auto& pts = band.bottom;
    const auto size = static_cast<double>(band.size);
    for (std::size_t k = 0; k + 1 < pts.size(); ++k) {
        const double o = static_cast<double>(pts[k].second);
        poly << coordsToPixels(static_cast<double>(pts[k].first), o) << coordsToPixels(static_cast<double>(pts[k + 1].first), o);
    }
    for (std::size_t k = pts.size() - 1; k-- > 0;) {
        const double o = static_cast<double>(pts[k].second) + size;
        poly << coordsToPixels(static_cast<double>(pts[k + 1].first), o) << coordsToPixels(static_cast<double>(pts[k].first), o);
    }
    return poly;
}

QPolygonF AllocationBands::summaryPolygon() const {
    // One column per pixel: the lowest base and the highest top of the steps in it (a million
    // entries become a few thousand points, and no peak narrower than a pixel is lost). The
    // steps of a column are found by binary search, their extremes from whole blocks.
    struct Column {
        double left, right, base, top;
    };
    std::vector<Column> columns;
    const auto& s = layout_.summary;
    const QCPAxis* key = keyAxis();
    const QCPAxis* value = valueAxis();
    if (!key || !value || s.empty()) return {};
    const auto pixel = [key](std::int64_t x) { return key->coordToPixel(static_cast<double>(x)); };
    const QCPRange visible = key->range();
    // From the step in effect at the left edge to the first one past the right edge.
    std::size_t k = static_cast<std::size_t>(
        std::partition_point(s.begin(), s.end(),
                             [&](const ActiveSummaryPoint& p) { return static_cast<double>(p.x) <= visible.lower; }) -
        s.begin());
    if (k > 0) --k;
    const std::size_t end = std::min(
        s.size(), static_cast<std::size_t>(std::partition_point(s.begin() + static_cast<std::ptrdiff_t>(k), s.end(),
                                                                [&](const ActiveSummaryPoint& p) {
                                                                    return static_cast<double>(p.x) <= visible.upper;
                                                                }) -
                                           s.begin()) +
                      1);
    const bool reversed = key->rangeReversed();
    while (k < end) {
        const double column = std::floor(pixel(s[k].x));
        // The steps that start in this pixel column.
        const auto next = static_cast<std::size_t>(std::partition_point(s.begin() + static_cast<std::ptrdiff_t>(k) + 1,
                                                                        s.begin() + static_cast<std::ptrdiff_t>(end),
                                                                        [&](const ActiveSummaryPoint& p) {
                                                                            const double f = std::floor(pixel(p.x));
                                                                            return reversed ? f >= column : f <= column;
                                                                        }) -
                                                   s.begin());
        const auto [base, top] = summaryExtremes(k, next);
        const double left = pixel(s[k].x);
        const double right = pixel(next < s.size() ? s[next].x : s[next - 1].x);
        columns.push_back({left, right, static_cast<double>(base), static_cast<double>(top)});
        k = next;
    }
    QPolygonF poly;
    for (const Column& c : columns) {
        const double y = value->coordToPixel(c.base);
        poly << QPointF(c.left, y) << QPointF(c.right, y);
    }
    for (auto c = columns.rbegin(); c != columns.rend(); ++c) {
        const double y = value->coordToPixel(c->top);
        poly << QPointF(c->right, y) << QPointF(c->left, y);
    }
    return poly;
}

void AllocationBands::draw(QCPPainter* painter) {
    const QCPAxis* key = keyAxis();
    if (layout_.summary.empty() || !key) return;
    const QCPRange visible = key->range();
    painter->setAntialiasing(false);
    for (std::size_t i = 0; i < layout_.bands.size(); ++i) {
        const ActiveBand& b = layout_.bands[i];
        if (static_cast<double>(b.bottom.back().first) < visible.lower ||
            static_cast<double>(b.bottom.front().first) > visible.upper)
            continue;
        const QColor fill = bandColour(i);
        painter->setBrush(highlighted_ == i ? fill.darker(140) : fill);
        painter->setPen(QPen(fill.darker(125), 0));
        painter->drawPolygon(bandPolygon(b));
    }
    if (layout_.summarisedCount > 0) {
        painter->setBrush(kSummary);
        painter->setPen(Qt::NoPen);
        painter->drawPolygon(summaryPolygon());
    }
}

void AllocationBands::drawLegendIcon(QCPPainter* painter, const QRectF& rect) const {
    painter->setPen(Qt::NoPen);
    const double w = rect.width() / 3;
    for (int i = 0; i < 3; ++i) {
        painter->setBrush(kPalette[i]);
        painter->drawRect(QRectF(rect.left() + i * w, rect.top(), w, rect.height()));
    }
}

} // namespace memviz

// SPDX-License-Identifier: MIT
#include "widgets/snapshot/SegmentMapWidget.h"

#include <QMouseEvent>
#include <QPainter>
#include <QToolTip>
#include <algorithm>
#include <numeric>

#include "words/Units.h"
#include "formats/snapshot/SnapshotQueries.h"
#include "words/UnitTexts.h"

namespace memviz {

namespace {

constexpr int kMargin = 6;
constexpr int kRowHeight = 16;
constexpr int kRowGap = 4;
constexpr int kDetailHeight = 30;
constexpr int kDetailGap = 22; // room for the detail strip's caption

using words::bytes;
QString hex(std::int64_t a) { return QStringLiteral("0x%1").arg(static_cast<quint64>(a), 0, 16); }

} // namespace

SegmentMapWidget::SegmentMapWidget(QWidget* parent) : QWidget(parent) {
    setMouseTracking(true);
    setMinimumHeight(kDetailHeight + kDetailGap + 2 * kMargin + kRowHeight);
    QSizePolicy policy(QSizePolicy::Expanding, QSizePolicy::Preferred);
    policy.setHeightForWidth(true);
    setSizePolicy(policy);
}

QColor SegmentMapWidget::blockColor(const StateBlock& b) {
    static const QColor palette[] = {QColor("#4e79a7"), QColor("#f28e2c"), QColor("#76b7b2"),
                                     QColor("#59a14f"), QColor("#edc949"), QColor("#af7aa1"),
                                     QColor("#ff9da7"), QColor("#9c755f"), QColor("#bab0ab")};
    if (b.kind == StateBlockKind::PendingFree) return QColor("#e15759");
    const auto h = static_cast<std::uint64_t>(b.address) * 0x9e3779b97f4a7c15ull;
    return palette[(h >> 33) % std::size(palette)];
}

void SegmentMapWidget::setState(const std::vector<StateSegment>* segments, const StackCatalog* stacks) {
    segments_ = segments;
    stacks_ = stacks;
    if (selected_ && (!segments_ || *selected_ >= segments_->size())) selected_.reset();
    laidOutWidth_ = -1;
    layoutBars(width());
    updateGeometry();
    update();
}

void SegmentMapWidget::setSelectedSegment(std::optional<std::size_t> index) {
    selected_ = index;
    update();
}

QRectF SegmentMapWidget::detailRect() const {
    return QRectF(kMargin, kMargin, std::max(10, width() - 2 * kMargin), kDetailHeight);
}

// Largest segments first, packed left to right into rows as wide as the largest segment.
void SegmentMapWidget::layoutBars(int width) {
    placed_.clear();
    laidOutWidth_ = width;
    contentHeight_ = kDetailHeight + kDetailGap + 2 * kMargin + kRowHeight;
    if (!segments_ || segments_->empty() || width <= 2 * kMargin) return;
    std::vector<std::size_t> order(segments_->size());
    std::iota(order.begin(), order.end(), std::size_t{0});
    std::stable_sort(order.begin(), order.end(),
                     [this](std::size_t a, std::size_t b) { return (*segments_)[a].size > (*segments_)[b].size; });
    const double rowBytes = static_cast<double>(std::max<std::int64_t>(1, (*segments_)[order.front()].size));
    const double pixels = width - 2.0 * kMargin;
    const double scale = pixels / rowBytes;
    double x = 0, y = kMargin + kDetailHeight + kDetailGap;
    for (const std::size_t i : order) {
        const double w = std::max(3.0, static_cast<double>((*segments_)[i].size) * scale);
        if (x > 0 && x + w > pixels + 0.5) {
            x = 0;
            y += kRowHeight + kRowGap;
        }
        placed_.push_back({i, QRectF(kMargin + x, y, w, kRowHeight)});
        x += w + 3;
    }
    contentHeight_ = static_cast<int>(y) + kRowHeight + kMargin;
}

int SegmentMapWidget::heightForWidth(int width) const {
    auto* self = const_cast<SegmentMapWidget*>(this);
    if (width != laidOutWidth_) self->layoutBars(width);
    return contentHeight_;
}

QSize SegmentMapWidget::sizeHint() const { return QSize(600, heightForWidth(600)); }

void SegmentMapWidget::resizeEvent(QResizeEvent*) {
    layoutBars(width());
    updateGeometry();
}

void SegmentMapWidget::drawSegment(QPainter& p, const StateSegment& s, const QRectF& r, bool highlighted) const {
    p.setPen(Qt::NoPen);
    p.setBrush(Qt::white);
    p.drawRect(r);
    const double scale = r.width() / static_cast<double>(std::max<std::int64_t>(1, s.size));
    for (const StateBlock& b : s.blocks) {
        const double x = r.left() + static_cast<double>(b.address - s.address) * scale;
        const double w = std::max(1.0, static_cast<double>(b.size) * scale);
        p.setBrush(blockColor(b));
        p.drawRect(QRectF(x, r.top(), std::min(w, r.right() - x), r.height()));
        if (w > 6) { // a thin line between neighbouring blocks
            p.setPen(QPen(QColor(255, 255, 255, 170), 1));
            p.drawLine(QPointF(x, r.top()), QPointF(x, r.bottom()));
            p.setPen(Qt::NoPen);
        }
    }
    p.setBrush(Qt::NoBrush);
    p.setPen(QPen(highlighted ? QColor(20, 20, 20) : QColor(90, 90, 90), highlighted ? 2 : 1));
    p.drawRect(r);
}

void SegmentMapWidget::paintEvent(QPaintEvent*) {
    QPainter p(this);
    p.fillRect(rect(), palette().base());
    if (laidOutWidth_ != width()) layoutBars(width());
    const QRectF detail = detailRect();
    p.setPen(palette().color(QPalette::Text));
    if (!segments_ || segments_->empty()) {
        p.drawText(rect(), Qt::AlignCenter, tr("No segments reserved at this moment"));
        return;
    }
    if (selected_) {
        const StateSegment& s = (*segments_)[*selected_];
        drawSegment(p, s, detail, true);
        p.setPen(palette().color(QPalette::Text));
        p.drawText(QRectF(detail.left(), detail.bottom() + 2, detail.width(), kDetailGap - 4), Qt::AlignLeft | Qt::AlignVCenter,
                   tr("Segment %1: %2, %3 in %L4 blocks, largest free %5")
                       .arg(hex(s.address), bytes(s.size), bytes(s.usedBytes()))
                       .arg(s.blocks.size())
                       .arg(bytes(s.largestFree())));
    } else {
        p.setPen(QPen(QColor(170, 170, 170), 1, Qt::DashLine));
        p.drawRect(detail);
        p.drawText(detail, Qt::AlignCenter, tr("Click a segment to see it full width here"));
        p.setPen(palette().color(QPalette::Text));
        p.drawText(QRectF(detail.left(), detail.bottom() + 2, detail.width(), kDetailGap - 4), Qt::AlignLeft | Qt::AlignVCenter,
                   tr("All segments, largest first, to the scale of the largest (%1)")
                       .arg(bytes((*segments_)[placed_.front().segment].size)));
    }
    for (const Placed& pl : placed_) drawSegment(p, (*segments_)[pl.segment], pl.rect, selected_ == pl.segment);
}

std::optional<std::pair<std::size_t, long>> SegmentMapWidget::hit(const QPoint& pos) const {
    if (!segments_) return std::nullopt;
    auto blockAt = [this](std::size_t si, const QRectF& r, double x) -> long {
        const StateSegment& s = (*segments_)[si];
        const double offset = (x - r.left()) / r.width() * static_cast<double>(s.size);
        const std::int64_t address = s.address + static_cast<std::int64_t>(offset);
        for (std::size_t b = 0; b < s.blocks.size(); ++b)
            if (address >= s.blocks[b].address && address < s.blocks[b].address + std::max<std::int64_t>(1, s.blocks[b].size))
                return static_cast<long>(b);
        return -1;
    };
    if (selected_ && detailRect().contains(pos)) return std::make_pair(*selected_, blockAt(*selected_, detailRect(), pos.x()));
    for (const Placed& pl : placed_)
        if (pl.rect.adjusted(-1, 0, 1, 0).contains(pos)) return std::make_pair(pl.segment, blockAt(pl.segment, pl.rect, pos.x()));
    return std::nullopt;
}

QString SegmentMapWidget::describeAt(const QPoint& pos) const {
    const auto h = hit(pos);
    if (!h) return {};
    const StateSegment& s = (*segments_)[h->first];
    QString text = tr("Segment %1: %2, %3 free (largest gap %4)")
                       .arg(hex(s.address), bytes(s.size), bytes(s.size - s.usedBytes()), bytes(s.largestFree()));
    if (h->second < 0) return text + tr("\nFree space");
    const StateBlock& b = s.blocks[static_cast<std::size_t>(h->second)];
    text += tr("\nBlock %1: %2 (%3 requested)%4%5")
                .arg(hex(b.address), bytes(b.size), bytes(b.requestedSize),
                     b.kind == StateBlockKind::PendingFree ? tr(", freed, waiting for other streams") : QString(),
                     b.sizeFromTrace ? tr("\n(size as the trace records it: the requested bytes)") : QString());
    if (stacks_ && b.stack >= 0) text += tr("\nAllocated in %1").arg(QString::fromStdString(stacks_->siteOf(b.stack)));
    return text;
}

void SegmentMapWidget::mouseMoveEvent(QMouseEvent* event) {
    const QString text = describeAt(event->position().toPoint());
    if (text.isEmpty()) QToolTip::hideText();
    else QToolTip::showText(event->globalPosition().toPoint(), text, this);
}

void SegmentMapWidget::mousePressEvent(QMouseEvent* event) {
    const auto h = hit(event->position().toPoint());
    if (!h) return;
    selected_ = h->first;
    update();
    emit segmentClicked(h->first);
    if (h->second >= 0) emit blockClicked(h->first, static_cast<std::size_t>(h->second));
}

} // namespace memviz

// SPDX-License-Identifier: MIT
#include "widgets/ranks/RanksHeatmap.h"

#include <QMouseEvent>
#include <QPainter>
#include <algorithm>
#include <cmath>

#include "plot/AxisTicks.h"
#include "words/UnitTexts.h"

namespace memviz {

namespace {

constexpr int kColumns = 1000;
constexpr int kLeft = 70, kTop = 8, kBottom = 34, kRight = 12;

QRgb shade(double f) {
    f = std::clamp(f, 0.0, 1.0);
    const auto mix = [f](int a, int b) { return static_cast<int>(a + (b - a) * f + 0.5); };
    return qRgb(mix(247, 8), mix(251, 48), mix(255, 107)); // light blue-white to dark blue
}

} // namespace

RanksHeatmap::RanksHeatmap(QWidget* parent) : QWidget(parent) {
    setMinimumHeight(200);
    setToolTip(tr("One row per rank, its bytes over time as a shade (dark: the largest peak of the set). Click a row to "
                  "choose the rank, double-click to open its full store"));
}

void RanksHeatmap::show(const RankSet& set) {
    names_.clear();
    highlighted_ = -1;
    maxPeak_ = 1;
    bool any = false;
    for (const RankRow& r : set.rows) {
        names_ << QString::fromStdString(r.name);
        maxPeak_ = std::max(maxPeak_, r.peakBytes);
        if (r.curve.empty()) continue;
        const std::int64_t a = r.curve.front().t + r.startOffsetNs, b = r.curve.back().t + r.startOffsetNs;
        t0_ = any ? std::min(t0_, a) : a;
        t1_ = any ? std::max(t1_, b) : b;
        any = true;
    }
    if (!any) t0_ = 0, t1_ = 1;
    if (t1_ <= t0_) t1_ = t0_ + 1;
    const int rows = std::max<int>(1, static_cast<int>(set.rows.size()));
    image_ = QImage(kColumns, rows, QImage::Format_RGB32);
    image_.fill(QColor(235, 235, 235)); // outside a rank's trace
    const double span = static_cast<double>(t1_ - t0_);
    for (std::size_t i = 0; i < set.rows.size(); ++i) {
        const RankRow& r = set.rows[i];
        auto* line = reinterpret_cast<QRgb*>(image_.scanLine(static_cast<int>(i)));
        // Each column's highest value; a column without a point holds the step line's value.
        int col = -1;
        std::int64_t held = 0, colMax = 0;
        const auto flush = [&](int upTo) { // columns col..upTo-1 get their values
            for (int c = std::max(col, 0); c < upTo && c < kColumns; ++c) {
                line[c] = shade(static_cast<double>(c == col ? colMax : held) / static_cast<double>(maxPeak_));
            }
        };
        for (const SeriesPoint& p : r.curve) {
            const int c = std::clamp(static_cast<int>(static_cast<double>(p.t + r.startOffsetNs - t0_) / span * (kColumns - 1)), 0,
                                     kColumns - 1);
            if (c != col) {
                if (col >= 0) flush(c);
                col = c;
                colMax = std::max(held, p.v);
            } else {
                colMax = std::max(colMax, p.v);
            }
            held = p.v;
        }
        if (col >= 0) {
            const int end = static_cast<int>(static_cast<double>(r.curve.back().t + r.startOffsetNs - t0_) / span * (kColumns - 1)) + 1;
            flush(std::clamp(end, col + 1, kColumns));
        }
    }
    update();
}

void RanksHeatmap::highlight(int row) {
    highlighted_ = row;
    update();
}

QRect RanksHeatmap::imageRect() const {
    return QRect(kLeft, kTop, std::max(1, width() - kLeft - kRight), std::max(1, height() - kTop - kBottom));
}

int RanksHeatmap::rowAt(int y) const {
    const QRect r = imageRect();
    if (names_.isEmpty() || y < r.top() || y > r.bottom()) return -1;
    return std::clamp(static_cast<int>(static_cast<double>(y - r.top()) / r.height() * names_.size()), 0,
                      static_cast<int>(names_.size()) - 1);
}

void RanksHeatmap::paintEvent(QPaintEvent*) {
    QPainter p(this);
    p.fillRect(rect(), palette().base());
    if (image_.isNull()) return;
    const QRect r = imageRect();
    p.drawImage(r, image_);
    p.setPen(palette().text().color());
    const QFontMetrics fm = p.fontMetrics();
    // As many rank names down the left as fit without overlapping.
    const int n = static_cast<int>(names_.size());
    const double rowH = static_cast<double>(r.height()) / std::max(1, n);
    const int step = std::max(1, static_cast<int>(std::ceil((fm.height() + 2) / rowH)));
    for (int i = 0; i < n; i += step) {
        const int y = r.top() + static_cast<int>((i + 0.5) * rowH);
        p.drawText(QRect(0, y - fm.height() / 2, kLeft - 6, fm.height()), Qt::AlignRight | Qt::AlignVCenter, names_[i]);
    }
    // The time axis by the one tick rule of every chart (plot/AxisTicks), its unit on each number.
    const double span = static_cast<double>(std::max<std::int64_t>(1, t1_ - t0_));
    const AxisTicks ticks = axisTicks(TickQuantity::Time, 0, span, kTimeAxisTicks);
    int lastRight = -1;
    for (std::size_t k = 0; k < ticks.values.size(); ++k) {
        const int x = r.left() + static_cast<int>(std::lround(ticks.values[k] / span * r.width()));
        p.drawLine(x, r.bottom() + 1, x, r.bottom() + 4);
        const QString text = QString::fromStdString(ticks.labels[k]) + " " + QString::fromUtf8(ticks.unit.suffix);
        const int w = fm.horizontalAdvance(text);
        const int left = std::clamp(x - w / 2, 0, width() - w);
        if (left <= lastRight + 8) continue; // no two numbers touch
        p.drawText(left, r.bottom() + 4 + fm.ascent(), text);
        lastRight = left + w;
    }
    p.drawText(QRect(r.left(), r.bottom() + 6 + fm.height(), r.width(), fm.height()), Qt::AlignRight,
               tr("dark: %1 (the largest peak)").arg(words::bytes(maxPeak_)));
    if (highlighted_ >= 0 && highlighted_ < n) {
        const int y = r.top() + static_cast<int>(highlighted_ * rowH);
        p.setPen(QPen(QColor(214, 39, 40), 2));
        p.setBrush(Qt::NoBrush);
        p.drawRect(QRect(r.left() - 1, y - 1, r.width() + 2, std::max(2, static_cast<int>(rowH)) + 2));
    }
}

void RanksHeatmap::mousePressEvent(QMouseEvent* event) {
    const int row = rowAt(static_cast<int>(event->position().y()));
    if (row >= 0) emit rowClicked(row);
}

void RanksHeatmap::mouseDoubleClickEvent(QMouseEvent* event) {
    const int row = rowAt(static_cast<int>(event->position().y()));
    if (row >= 0) emit rowActivated(row);
}

} // namespace memviz

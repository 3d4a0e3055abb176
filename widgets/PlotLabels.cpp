// SPDX-License-Identifier: MIT
// Plot texts placed by the one rule (see PlotLabels.h).
#include "widgets/PlotLabels.h"

#include <qcustomplot.h>

#include <QFontMetricsF>

namespace memviz {

void PlotLabels::layOut(QCustomPlot* plot) {
    const QRect r = plot->axisRect()->rect();
    area_ = LabelBox{static_cast<double>(r.left()), static_cast<double>(r.top()), static_cast<double>(r.width()),
                     static_cast<double>(r.height())};
    std::vector<LabelRequest> requests;
    requests.reserve(labels_.size());
    for (const Label& l : labels_) {
        QCPItemText* item = l.item;
        const QMargins pad = item->padding();
        const QFontMetricsF fm(item->font());
        const auto measure = [&](const QString& text) {
            double w = 0;
            const QStringList lines = text.split(QLatin1Char('\n'));
            for (const QString& line : lines) w = std::max(w, fm.horizontalAdvance(line));
            return std::pair<double, double>(std::ceil(w) + pad.left() + pad.right() + 2,
                                             std::ceil(fm.height() * static_cast<double>(lines.size())) + pad.top() + pad.bottom());
        };
        LabelRequest q;
        const auto [w, h] = measure(l.text);
        q.width = w;
        q.height = h;
        if (!l.shortText.isEmpty()) q.shortWidth = measure(l.shortText).first;
        q.anchorX = l.xRatio ? area_.x + l.x * area_.w : plot->xAxis->coordToPixel(l.x);
        QCPAxis* yAxis = l.rightAxis ? plot->yAxis2 : plot->yAxis;
        q.anchorY = l.yRatio ? area_.y + l.y * area_.h : yAxis->coordToPixel(l.y);
        q.side = l.side;
        q.priority = l.priority;
        requests.push_back(q);
    }
    // An anchor outside the visible range has nothing to label and takes no room.
    std::vector<std::size_t> onScreen;
    std::vector<LabelRequest> visible;
    for (std::size_t i = 0; i < requests.size(); ++i) {
        const double ax = requests[i].anchorX;
        if (ax < area_.x - 1 || ax > area_.right() + 1) continue;
        onScreen.push_back(i);
        visible.push_back(requests[i]);
    }
    const std::vector<LabelPlacement> placedVisible = placeLabels(visible, area_);
    placed_.assign(labels_.size(), LabelPlacement{});
    for (std::size_t k = 0; k < onScreen.size(); ++k) placed_[onScreen[k]] = placedVisible[k];
    for (std::size_t i = 0; i < labels_.size(); ++i) {
        QCPItemText* item = labels_[i].item;
        const LabelPlacement& p = placed_[i];
        item->setVisible(p.shown);
        if (!p.shown) continue;
        item->setText(p.shortened ? labels_[i].shortText : labels_[i].text);
        item->position->setParentAnchor(nullptr);
        item->position->setType(QCPItemPosition::ptAbsolute);
        item->setPositionAlignment(Qt::AlignLeft | Qt::AlignTop);
        item->setTextAlignment(Qt::AlignLeft);
        item->position->setCoords(p.box.x, p.box.y);
        item->setClipToAxisRect(false);
    }
}

std::vector<std::pair<QCPItemText*, LabelBox>> PlotLabels::shownBoxes() const {
    std::vector<std::pair<QCPItemText*, LabelBox>> out;
    for (std::size_t i = 0; i < labels_.size() && i < placed_.size(); ++i)
        if (labels_[i].item->visible()) out.emplace_back(labels_[i].item, placed_[i].box);
    return out;
}

} // namespace memviz

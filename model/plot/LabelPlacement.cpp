// SPDX-License-Identifier: MIT
// The placement rule for plot texts (see LabelPlacement.h).
#include "plot/LabelPlacement.h"

#include <algorithm>
#include <numeric>

namespace memviz {

namespace {

// Moves a box inside the area (when it is no larger than the area), keeping its size.
LabelBox clampInto(LabelBox b, const LabelBox& area) {
    b.x = std::clamp(b.x, area.x, std::max(area.x, area.right() - b.w));
    b.y = std::clamp(b.y, area.y, std::max(area.y, area.bottom() - b.h));
    return b;
}

// The positions tried, in order: beside the anchor on the preferred side (right, then left),
// then the same one, two, three and four lanes further away, then the other side.
std::vector<LabelBox> candidates(const LabelRequest& r, double width, const LabelBox& area, double gap) {
    std::vector<LabelBox> out;
    if (r.side == LabelSide::Fixed) {
        LabelBox b = r.box;
        b.w = width;
        out.push_back(b);
        return out;
    }
    const double lane = r.height + gap;
    for (const int direction : {r.side == LabelSide::Above ? -1 : 1, r.side == LabelSide::Above ? 1 : -1})
        for (int step = 0; step < 5; ++step) {
            const double y = direction < 0 ? r.anchorY - gap - r.height - step * lane : r.anchorY + gap + step * lane;
            for (const double x : {r.anchorX + gap, r.anchorX - gap - width, r.anchorX - width / 2})
                out.push_back(clampInto(LabelBox{x, y, width, r.height}, area));
        }
    return out;
}

} // namespace

std::vector<LabelPlacement> placeLabels(const std::vector<LabelRequest>& labels, const LabelBox& area,
                                        const std::vector<LabelBox>& obstacles, double gap) {
    std::vector<LabelPlacement> out(labels.size());
    std::vector<std::size_t> order(labels.size());
    std::iota(order.begin(), order.end(), std::size_t{0});
    std::stable_sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) { return labels[a].priority < labels[b].priority; });
    std::vector<LabelBox> taken = obstacles;
    const auto fits = [&](const LabelBox& b) {
        if (!b.inside(area)) return false;
        for (const LabelBox& t : taken) {
            // The gap between texts: a box grown by it must not touch another.
            const LabelBox grown{b.x - gap / 2, b.y - gap / 2, b.w + gap, b.h + gap};
            if (grown.intersects(t)) return false;
        }
        return true;
    };
    for (const std::size_t i : order) {
        const LabelRequest& r = labels[i];
        for (const bool shorter : {false, true}) {
            if (shorter && (r.shortWidth <= 0 || r.shortWidth >= r.width)) break;
            const double width = shorter ? r.shortWidth : r.width;
            for (const LabelBox& b : candidates(r, width, area, gap))
                if (fits(b)) {
                    out[i] = {true, shorter, b};
                    break;
                }
            if (out[i].shown) break;
        }
        if (out[i].shown) taken.push_back(out[i].box);
    }
    return out;
}

} // namespace memviz

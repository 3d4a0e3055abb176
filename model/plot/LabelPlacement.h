// SPDX-License-Identifier: MIT
#pragma once
// The one rule that places the texts drawn on a plot (peak labels, annotations, notes, the
// moment's label, read-outs), in the window and in the report's SVG alike: each text is a
// measured box tied to an anchor point; boxes are placed one after another (by priority) at
// the first of a fixed list of positions around the anchor that lies inside the plot area and
// overlaps neither a box already placed nor an obstacle (the legend); when none fits, the
// shorter text (when the caller gives one) is tried the same way, and a text that still fits
// nowhere is not drawn. So no two texts overlap and none is clipped by the plot's edge.
// Pixels, y downwards. Plain C++: the window measures with QFontMetrics, the SVG with the
// advances of the font its CSS names (plot/TextWidth.h).
#include <cstdint>
#include <vector>

namespace memviz {

struct LabelBox {
    double x = 0, y = 0, w = 0, h = 0; // left, top, width, height

    double right() const { return x + w; }
    double bottom() const { return y + h; }
    // Touching edges do not overlap.
    bool intersects(const LabelBox& o) const {
        return x < o.right() && o.x < right() && y < o.bottom() && o.y < bottom();
    }
    bool inside(const LabelBox& area) const {
        return x >= area.x - 1e-9 && y >= area.y - 1e-9 && right() <= area.right() + 1e-9 && bottom() <= area.bottom() + 1e-9;
    }
};

// Where a label prefers to sit relative to its anchor.
enum class LabelSide {
    Above, // above the anchor (a peak: the label must not cover the curve below it)
    Below, // below the anchor
    Fixed  // exactly at `box` or nowhere (a note in a corner), still checked against the others
};

struct LabelRequest {
    double anchorX = 0, anchorY = 0; // the point the text belongs to
    double width = 0, height = 0;    // the measured text box, padding included
    double shortWidth = 0;           // the shortened text's width; 0: none
    LabelSide side = LabelSide::Above;
    LabelBox box;                    // for Fixed: where it goes
    int priority = 0;                // lower first (peaks before annotations before notes)
};

struct LabelPlacement {
    bool shown = false;
    bool shortened = false; // drawn with the shorter text
    LabelBox box;
};

// Places `labels` inside `area` avoiding `obstacles`; the result is in the order of `labels`.
// `gap`: the pixels kept between the anchor and its text and between two texts.
std::vector<LabelPlacement> placeLabels(const std::vector<LabelRequest>& labels, const LabelBox& area,
                                        const std::vector<LabelBox>& obstacles = {}, double gap = 3);

} // namespace memviz

// SPDX-License-Identifier: MIT
#pragma once
// Every text drawn on a QCustomPlot chart (peak labels, annotations, notes, the moment's
// label, region names) laid out by the one placement rule of model/plot/LabelPlacement.h:
// boxes measured with the item's font, no two overlapping, none past the plot's edge, each
// moved, shortened or (when nowhere is free) hidden. The anchors are in plot coordinates or
// axis-rect ratios, so layOut() runs again whenever the axes or the layout change.
#include <QString>
#include <vector>

#include "plot/LabelPlacement.h"

class QCustomPlot;
class QCPItemText;

namespace memviz {

class PlotLabels {
public:
    struct Label {
        QCPItemText* item = nullptr;
        double x = 0, y = 0;              // the anchor
        bool xRatio = false, yRatio = false; // a ratio of the axis rect instead of a plot coordinate
        bool rightAxis = false;           // y in the right axis's coordinates
        LabelSide side = LabelSide::Above;
        int priority = 0;                 // lower first: peaks 0, annotations 10, notes 20, regions 30
        QString text, shortText;          // shortText: empty when there is none
        int group = 0;                    // for clear(group): the peaks' labels, the overlays' ...
    };

    void add(const Label& label) { labels_.push_back(label); }
    // Forgets the labels (their items are the plot's; it removes them).
    void clear() { labels_.clear(); }
    void clear(int group) { std::erase_if(labels_, [group](const Label& l) { return l.group == group; }); }
    // Places every label for the plot's current axes and layout; items are left invisible
    // where there is no room.
    void layOut(QCustomPlot* plot);
    // The boxes drawn by the last layOut(), for tests: (item, box) of the shown labels.
    std::vector<std::pair<QCPItemText*, LabelBox>> shownBoxes() const;
    LabelBox area() const { return area_; }

private:
    std::vector<Label> labels_;
    std::vector<LabelPlacement> placed_;
    LabelBox area_;
};

} // namespace memviz

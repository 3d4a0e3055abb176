// SPDX-License-Identifier: MIT
#include "widgets/StackedSeries.h"

namespace memviz {

std::vector<SeriesPoint> stackOnto(const std::vector<SeriesPoint>& below, const std::vector<SeriesPoint>& own) {
    std::vector<SeriesPoint> out;
    out.reserve(below.size() + own.size());
    std::size_t i = 0, j = 0;
    std::int64_t b = 0, o = 0;
    // Merge by time; points with equal times are taken one by one in their own order, so a
    // series with several values at one time keeps its vertical steps.
    while (i < below.size() || j < own.size()) {
        const bool takeBelow = j == own.size() || (i < below.size() && below[i].t < own[j].t);
        const bool takeOwn = i == below.size() || (j < own.size() && own[j].t < below[i].t);
        std::int64_t t = 0;
        if (takeBelow) {
            t = below[i].t;
            b = below[i++].v;
        } else if (takeOwn) {
            t = own[j].t;
            o = own[j++].v;
        } else { // same time
            t = own[j].t;
            b = below[i++].v;
            o = own[j++].v;
        }
        out.push_back({t, b + o});
    }
    return out;
}

} // namespace memviz

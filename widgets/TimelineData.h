// SPDX-License-Identifier: MIT
#pragma once
// What the timeline draws for a time range and pixel width, read on a worker (ARCHITECTURE.md,
// "Threads"): each series' window from the level-of-detail pyramid (or a live recording's
// samples), the last value held to the trace's end, stacked series added onto the one below,
// and the largest value per value axis. The GUI thread only hands the points to the plot.
#include <QVector>
#include <cstdint>
#include <vector>

#include "store/SeriesQuery.h"

namespace memviz {

class Database;
class Progress;

struct TimelineRequest {
    struct Series {
        std::int64_t id = 0;
        std::int64_t tLast = 0;  // the series' last point
        std::int64_t vFinal = 0; // and its value, held to the trace's end
        int stackedOn = -2;      // -2 = not stacked, -1 = bottom of a stack, else the series below
        bool secondAxis = false; // drawn against the right value axis
        bool hidden = false;     // switched off: read, but no part of its axis's range
    };
    bool live = false; // a live recording's samples, not a pyramid
    std::int64_t traceId = 0;
    TimeRange range;
    std::int64_t traceEnd = 0;
    int columns = 1;
    std::vector<Series> series;
};

struct TimelineData {
    std::vector<QVector<double>> keys, values; // per series, as drawn
    std::vector<int> levels;                   // pyramid level per series (0 = raw points)
    int pointCount = 0;                        // points the store gave, all series together
    double yMax = 0, y2Max = 0;                // the largest value on each value axis
};

// Checks `cancel` between series.
TimelineData readTimelineData(Database& db, const TimelineRequest& request, const Progress& cancel);

} // namespace memviz

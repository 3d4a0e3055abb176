// SPDX-License-Identifier: MIT
#pragma once
// Answers "what does this series look like between t0 and t1 on W pixel columns" from the
// level-of-detail pyramid: at most four points (first, min, max, last) per column, never
// the raw points of a wide range.
#include <cstdint>
#include <optional>
#include <vector>

#include "store/ChunkCodec.h"

namespace memviz {

class Database;

struct TimeRange {
    std::int64_t begin = 0;
    std::int64_t end = 0;
    bool contains(std::int64_t t) const { return t >= begin && t <= end; }
};

struct SeriesWindow {
    std::vector<SeriesPoint> points; // time-ordered; may include one point before and after
    int level = 0;                   // 0 = raw points, else the pyramid level used
};

// Keeps, per pixel column of `r` cut into `columns`, the first, lowest, highest and last point
// of `in` (time-ordered), in time order; points outside `r` form a column of their own.
std::vector<SeriesPoint> binByColumn(const std::vector<SeriesPoint>& in, TimeRange r, int columns);

SeriesWindow querySeries(Database& db, std::int64_t seriesId, TimeRange range, int columns);

// Exact value of the series at time t (the last point at or before t), or nullopt before
// the first point.
std::optional<std::int64_t> seriesValueAt(Database& db, std::int64_t seriesId, std::int64_t t);

} // namespace memviz

// SPDX-License-Identifier: MIT
// The exact peak of a series inside a time window (see SelectionPeak.h).
#include "ranks/SelectionPeak.h"

#include <algorithm>

#include "store/ChunkCodec.h"
#include "store/Database.h"

namespace memviz {

namespace {

std::optional<std::int64_t> higher(std::optional<std::int64_t> a, std::optional<std::int64_t> b) {
    if (!a) return b;
    if (!b) return a;
    return std::max(*a, *b);
}

// The raw points with a <= t <= b (chunks hold whole level-1 buckets; only edge chunks get here).
std::optional<std::int64_t> rawPeak(Database& db, std::int64_t seriesId, std::int64_t a, std::int64_t b) {
    Statement s(db, "SELECT data FROM series_chunks WHERE series_id = ? AND t_last >= ? AND t_first <= ? ORDER BY t_last, chunk");
    s.bind(1, seriesId).bind(2, a).bind(3, b);
    std::optional<std::int64_t> best;
    while (s.step())
        for (const SeriesPoint& p : decodePoints(s.blob(0)))
            if (p.t >= a && p.t <= b) best = higher(best, p.v);
    return best;
}

// The highest point with a <= t <= b, from the buckets of `level` wholly inside [a, b] and
// finer levels at the two edges they leave.
std::optional<std::int64_t> peakAt(Database& db, std::int64_t seriesId, int level, std::int64_t a, std::int64_t b) {
    if (a > b) return std::nullopt;
    if (level <= 0) return rawPeak(db, seriesId, a, b);
    Statement s(db, "SELECT min(t_first), max(t_last), max(v_max) FROM series_lod "
                    "WHERE series_id = ? AND level = ? AND t_last >= ? AND t_last <= ? AND t_first >= ?");
    s.bind(1, seriesId).bind(2, level).bind(3, a).bind(4, b).bind(5, a);
    if (!s.step() || s.isNull(0)) return peakAt(db, seriesId, level - 1, a, b);
    const std::int64_t first = s.int64(0), last = s.int64(1), inside = s.int64(2);
    // The edges include the inside buckets' own first and last times: a neighbouring bucket
    // may hold a point at the same time.
    return higher(inside, higher(peakAt(db, seriesId, level - 1, a, first), peakAt(db, seriesId, level - 1, last, b)));
}

} // namespace

std::optional<std::int64_t> seriesPeakIn(Database& db, std::int64_t seriesId, TimeRange range) {
    if (range.end < range.begin) std::swap(range.begin, range.end);
    const int maxLevel = static_cast<int>(
        queryInt(db, "SELECT max(level) FROM series_lod WHERE series_id = " + std::to_string(seriesId)).value_or(0));
    return higher(seriesValueAt(db, seriesId, range.begin), peakAt(db, seriesId, maxLevel, range.begin, range.end));
}

} // namespace memviz

// SPDX-License-Identifier: MIT
#include "store/SeriesQuery.h"

#include <algorithm>
#include <array>
#include <optional>
#include <utility>

#include "store/Database.h"
#include "store/SeriesWriter.h"

namespace memviz {

namespace {

constexpr int kRawPointsPerColumn = 8;

// The finest and the coarsest level the store holds for the series (the finest is 1 in stores
// written before schema version 9, kLodFirstStoredLevel since); {1, 1} when it has none.
std::pair<int, int> storedLevels(Database& db, std::int64_t seriesId) {
    Statement s(db, "SELECT min(level), max(level) FROM series_lod WHERE series_id = ?");
    s.bind(1, seriesId);
    if (!s.step() || s.isNull(0)) return {1, 1};
    return {static_cast<int>(s.int64(0)), static_cast<int>(s.int64(1))};
}

std::optional<std::int64_t> firstBucketEndingAtOrAfter(Database& db, std::int64_t seriesId, int level, std::int64_t t) {
    Statement s(db, "SELECT bucket FROM series_lod WHERE series_id = ? AND level = ? AND t_last >= ? "
                    "ORDER BY t_last, bucket LIMIT 1");
    s.bind(1, seriesId).bind(2, level).bind(3, t);
    if (!s.step()) return std::nullopt;
    return s.int64(0);
}

std::optional<SeriesPoint> lastPointBefore(Database& db, std::int64_t seriesId, int level, std::int64_t t) {
    Statement s(db, "SELECT t_last, v_last FROM series_lod WHERE series_id = ? AND level = ? AND t_last < ? "
                    "ORDER BY t_last DESC, bucket DESC LIMIT 1");
    s.bind(1, seriesId).bind(2, level).bind(3, t);
    if (!s.step()) return std::nullopt;
    return SeriesPoint{s.int64(0), s.int64(1)};
}

std::int64_t bucketPoints(int level) {
    std::int64_t n = kLodBase;
    for (int i = 1; i < level; ++i) n *= kLodFactor;
    return n;
}

// Raw points in the range, plus the last point before it (when the chunk holds it) and the
// first point after it, so the step line reaches both edges.
void readRaw(Database& db, std::int64_t seriesId, TimeRange r, std::vector<SeriesPoint>& out,
             std::optional<SeriesPoint>& before) {
    Statement s(db, "SELECT t_first, data FROM series_chunks WHERE series_id = ? AND t_last >= ? ORDER BY t_last, chunk");
    s.bind(1, seriesId).bind(2, r.begin);
    while (s.step()) {
        const std::int64_t tFirst = s.int64(0);
        for (const SeriesPoint& p : decodePoints(s.blob(1))) {
            if (p.t < r.begin) {
                before = p;
                continue;
            }
            out.push_back(p);
            if (p.t > r.end) return; // one point past the end closes the last step
        }
        if (tFirst > r.end) return;
    }
}

// Buckets of one level overlapping the range, as their four characteristic points.
void readLevel(Database& db, std::int64_t seriesId, int level, TimeRange r, std::vector<SeriesPoint>& out) {
    Statement s(db, "SELECT t_first, v_first, t_min, v_min, t_max, v_max, t_last, v_last FROM series_lod "
                    "WHERE series_id = ? AND level = ? AND t_last >= ? ORDER BY t_last, bucket");
    s.bind(1, seriesId).bind(2, level).bind(3, r.begin);
    while (s.step()) {
        const SeriesPoint first{s.int64(0), s.int64(1)};
        if (first.t > r.end) {
            out.push_back(first);
            return;
        }
        std::array<SeriesPoint, 4> p{first, SeriesPoint{s.int64(2), s.int64(3)}, SeriesPoint{s.int64(4), s.int64(5)},
                                     SeriesPoint{s.int64(6), s.int64(7)}};
        std::stable_sort(p.begin() + 1, p.end() - 1, [](const SeriesPoint& a, const SeriesPoint& b) { return a.t < b.t; });
        out.insert(out.end(), p.begin(), p.end());
    }
}

} // namespace

std::vector<SeriesPoint> binByColumn(const std::vector<SeriesPoint>& in, TimeRange r, int columns) {
    std::vector<SeriesPoint> out;
    out.reserve(static_cast<std::size_t>(columns) * 4 + 4);
    const double span = static_cast<double>(std::max<std::int64_t>(1, r.end - r.begin));
    auto columnOf = [&](std::int64_t t) {
        if (t < r.begin) return -1;
        if (t > r.end) return columns;
        return std::min(columns - 1, static_cast<int>(static_cast<double>(t - r.begin) / span * columns));
    };
    std::size_t i = 0;
    while (i < in.size()) {
        const int col = columnOf(in[i].t);
        std::size_t j = i;
        SeriesPoint lo = in[i], hi = in[i];
        while (j < in.size() && columnOf(in[j].t) == col) {
            if (in[j].v < lo.v) lo = in[j];
            if (in[j].v > hi.v) hi = in[j];
            ++j;
        }
        std::array<SeriesPoint, 4> p{in[i], lo, hi, in[j - 1]};
        std::stable_sort(p.begin() + 1, p.end() - 1, [](const SeriesPoint& a, const SeriesPoint& b) { return a.t < b.t; });
        for (const SeriesPoint& q : p)
            if (out.empty() || !(out.back() == q)) out.push_back(q);
        i = j;
    }
    return out;
}

SeriesWindow querySeries(Database& db, std::int64_t seriesId, TimeRange r, int columns) {
    columns = std::max(1, columns);
    if (r.end < r.begin) std::swap(r.begin, r.end);
    SeriesWindow w;
    // Chunks hold whole buckets of every level, so the last bucket ending before the range ends
    // with the last point before the range whenever the range's first chunk starts inside it.
    const auto [finest, coarsest] = storedLevels(db, seriesId);
    std::optional<SeriesPoint> before = lastPointBefore(db, seriesId, finest, r.begin);
    const auto b0 = firstBucketEndingAtOrAfter(db, seriesId, finest, r.begin);
    if (!b0) {
        if (before) w.points.push_back(*before); // the range lies after the last point
        return w;
    }
    auto b1 = firstBucketEndingAtOrAfter(db, seriesId, finest, r.end);
    if (!b1)
        b1 = queryInt(db, "SELECT bucket FROM series_lod WHERE series_id = " + std::to_string(seriesId) +
                              " AND level = " + std::to_string(finest) + " ORDER BY t_last DESC, bucket DESC LIMIT 1");
    const std::int64_t estimate = (b1.value_or(*b0) - *b0 + 1) * bucketPoints(finest);

    std::vector<SeriesPoint> pts;
    // Raw points when there are few per column, or when even the finest level stored has fewer
    // buckets than columns (it would draw coarser than the raw points).
    if (estimate <= static_cast<std::int64_t>(columns) * kRawPointsPerColumn || estimate / bucketPoints(finest) < columns) {
        readRaw(db, seriesId, r, pts, before);
        w.level = 0;
    } else {
        int level = finest;
        while (level < coarsest && estimate / bucketPoints(level + 1) >= columns) ++level;
        readLevel(db, seriesId, level, r, pts);
        w.level = level;
    }
    if (before && (pts.empty() || pts.front().t >= r.begin)) w.points.push_back(*before);
    std::vector<SeriesPoint> binned = binByColumn(pts, r, columns);
    w.points.insert(w.points.end(), binned.begin(), binned.end());
    return w;
}

std::optional<std::int64_t> seriesValueAt(Database& db, std::int64_t seriesId, std::int64_t t) {
    Statement s(db, "SELECT t_first, data FROM series_chunks WHERE series_id = ? AND t_first <= ? "
                    "ORDER BY t_last DESC, chunk DESC LIMIT 1");
    s.bind(1, seriesId).bind(2, t);
    if (!s.step()) return std::nullopt;
    std::optional<std::int64_t> value;
    for (const SeriesPoint& p : decodePoints(s.blob(1))) {
        if (p.t > t) break;
        value = p.v;
    }
    return value;
}

} // namespace memviz

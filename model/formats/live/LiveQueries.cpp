// SPDX-License-Identifier: MIT
#include "formats/live/LiveQueries.h"

#include <algorithm>
#include <map>

#include "store/Database.h"

namespace memviz {

namespace {

constexpr int kRawPointsPerColumn = 8;

bool hasLiveTables(Database& db) {
    return queryInt(db, "SELECT count(*) FROM sqlite_schema WHERE type = 'table' AND name = 'live_recordings'").value_or(0) > 0;
}

std::optional<int> optionalInt(const Statement& s, int column) {
    if (s.isNull(column)) return std::nullopt;
    return static_cast<int>(s.int64(column));
}

constexpr const char* kRecordingColumns =
    "SELECT trace_id, source, state, target_pid, command, interval_ns, children, recorder_pid, recorder_start, "
    "recorder_boot, last_commit_ns, coalesce(end_reason, ''), exit_code, exit_signal, message FROM live_recordings ";

LiveRecordingInfo readRecording(const Statement& s) {
    LiveRecordingInfo r;
    r.traceId = s.int64(0);
    r.source = s.text(1);
    r.state = s.text(2);
    r.targetPid = optionalInt(s, 3);
    r.command = s.text(4);
    r.intervalNs = s.int64(5);
    r.children = s.int64(6) != 0;
    r.recorderPid = static_cast<int>(s.int64(7));
    r.recorderStart = s.int64(8);
    r.recorderBoot = s.text(9);
    r.lastCommitNs = s.int64(10);
    r.endReason = s.text(11);
    r.exitCode = optionalInt(s, 12);
    r.exitSignal = optionalInt(s, 13);
    r.message = s.text(14);
    return r;
}

// Device numbers as the finalised trace will have them: in order of the first series.
std::map<std::string, int> liveDeviceNumbers(Database& db, std::int64_t traceId) {
    Statement s(db, "SELECT device FROM live_series WHERE trace_id = ? GROUP BY device ORDER BY min(series)");
    s.bind(1, traceId);
    std::map<std::string, int> out;
    while (s.step()) out.emplace(s.text(0), static_cast<int>(out.size()));
    return out;
}

} // namespace

std::optional<LiveRecordingInfo> findLiveRecording(Database& db, std::int64_t traceId) {
    if (!hasLiveTables(db)) return std::nullopt;
    Statement s(db, std::string(kRecordingColumns) + "WHERE trace_id = ?");
    s.bind(1, traceId);
    if (!s.step()) return std::nullopt;
    return readRecording(s);
}

std::vector<LiveRecordingInfo> listLiveRecordings(Database& db) {
    std::vector<LiveRecordingInfo> out;
    if (!hasLiveTables(db)) return out;
    Statement s(db, std::string(kRecordingColumns) + "ORDER BY trace_id");
    while (s.step()) out.push_back(readRecording(s));
    return out;
}

std::vector<LiveSeriesInfo> listLiveSeries(Database& db, std::int64_t traceId, LiveSeriesDetail detail) {
    std::vector<LiveSeriesInfo> out;
    Statement s(db, "SELECT series, device, name, unit, is_primary FROM live_series WHERE trace_id = ? ORDER BY series");
    s.bind(1, traceId);
    while (s.step()) {
        LiveSeriesInfo i;
        i.series = static_cast<int>(s.int64(0));
        i.device = s.text(1);
        i.name = s.text(2);
        i.unit = s.text(3);
        i.primary = s.int64(4) != 0;
        out.push_back(std::move(i));
    }
    Statement stats(db, "SELECT count(*), min(t), max(t), min(value), max(value) FROM live_samples "
                        "WHERE trace_id = ? AND series = ?");
    Statement first(db, "SELECT t FROM live_samples WHERE trace_id = ? AND series = ? ORDER BY t LIMIT 1");
    Statement last(db, "SELECT value, t FROM live_samples WHERE trace_id = ? AND series = ? ORDER BY t DESC LIMIT 1");
    for (LiveSeriesInfo& i : out) {
        if (detail == LiveSeriesDetail::Ends) {
            first.bind(1, traceId).bind(2, i.series);
            if (first.step()) i.tFirst = first.int64(0);
            first.reset();
            last.bind(1, traceId).bind(2, i.series);
            if (last.step()) {
                i.vLast = last.int64(0);
                i.tLast = last.int64(1);
            }
            last.reset();
            continue;
        }
        stats.bind(1, traceId).bind(2, i.series);
        if (stats.step() && stats.int64(0) > 0) {
            i.count = stats.int64(0);
            i.tFirst = stats.int64(1);
            i.tLast = stats.int64(2);
            i.vMin = stats.int64(3);
            i.vMax = stats.int64(4);
        }
        stats.reset();
        last.bind(1, traceId).bind(2, i.series);
        if (last.step()) i.vLast = last.int64(0);
        last.reset();
    }
    return out;
}

std::int64_t liveExtent(Database& db, std::int64_t traceId) {
    // Per series, the newest sample is one index seek; max over all of them at once is not.
    Statement s(db, "SELECT max((SELECT max(t) FROM live_samples WHERE trace_id = ?1 AND series = ls.series)) "
                    "FROM live_series ls WHERE trace_id = ?1");
    s.bind(1, traceId);
    std::int64_t t = s.step() && !s.isNull(0) ? s.int64(0) : 0;
    Statement m(db, "SELECT max(t) FROM live_markers WHERE trace_id = ?");
    m.bind(1, traceId);
    if (m.step() && !m.isNull(0)) t = std::max(t, m.int64(0));
    return t;
}

std::int64_t liveSampleCount(Database& db, std::int64_t traceId) {
    Statement s(db, "SELECT count(*) FROM live_samples WHERE trace_id = ?");
    s.bind(1, traceId);
    return s.step() ? s.int64(0) : 0;
}

std::int64_t liveSampleMoments(Database& db, std::int64_t traceId) {
    Statement s(db, "SELECT count(DISTINCT t) FROM live_samples WHERE trace_id = ?");
    s.bind(1, traceId);
    return s.step() ? s.int64(0) : 0;
}

SeriesWindow queryLiveSeries(Database& db, std::int64_t traceId, int series, TimeRange r, int columns) {
    columns = std::max(1, columns);
    if (r.end < r.begin) std::swap(r.begin, r.end);
    SeriesWindow w;
    Statement before(db, "SELECT t, value FROM live_samples WHERE trace_id = ? AND series = ? AND t < ? "
                         "ORDER BY t DESC LIMIT 1");
    before.bind(1, traceId).bind(2, series).bind(3, r.begin);
    if (before.step()) w.points.push_back({before.int64(0), before.int64(1)});
    Statement count(db, "SELECT count(*) FROM live_samples WHERE trace_id = ? AND series = ? AND t BETWEEN ? AND ?");
    count.bind(1, traceId).bind(2, series).bind(3, r.begin).bind(4, r.end);
    const std::int64_t n = count.step() ? count.int64(0) : 0;
    if (n <= static_cast<std::int64_t>(columns) * kRawPointsPerColumn) {
        Statement s(db, "SELECT t, value FROM live_samples WHERE trace_id = ? AND series = ? AND t BETWEEN ? AND ? "
                        "ORDER BY t");
        s.bind(1, traceId).bind(2, series).bind(3, r.begin).bind(4, r.end);
        while (s.step()) w.points.push_back({s.int64(0), s.int64(1)});
    } else {
        // Per pixel column the lowest and highest value (at the column's first and last
        // sample time: within a column the order is not visible), SQLite doing the loop.
        w.level = 1;
        const std::int64_t span = std::max<std::int64_t>(1, r.end - r.begin);
        Statement s(db, "SELECT min(t), max(t), min(value), max(value) FROM live_samples "
                        "WHERE trace_id = ?1 AND series = ?2 AND t BETWEEN ?3 AND ?4 "
                        "GROUP BY (t - ?3) * ?5 / ?6 ORDER BY 1");
        s.bind(1, traceId).bind(2, series).bind(3, r.begin).bind(4, r.end).bind(5, columns).bind(6, span);
        while (s.step()) {
            w.points.push_back({s.int64(0), s.int64(2)});
            if (s.int64(3) != s.int64(2) || s.int64(1) != s.int64(0)) w.points.push_back({s.int64(1), s.int64(3)});
        }
        // The exact last value in the range, so a followed end shows what is current.
        Statement last(db, "SELECT t, value FROM live_samples WHERE trace_id = ? AND series = ? AND t <= ? "
                           "ORDER BY t DESC LIMIT 1");
        last.bind(1, traceId).bind(2, series).bind(3, r.end);
        if (last.step() && !w.points.empty() && last.int64(0) >= w.points.back().t)
            w.points.push_back({last.int64(0), last.int64(1)});
    }
    Statement after(db, "SELECT t, value FROM live_samples WHERE trace_id = ? AND series = ? AND t > ? ORDER BY t LIMIT 1");
    after.bind(1, traceId).bind(2, series).bind(3, r.end);
    if (after.step()) w.points.push_back({after.int64(0), after.int64(1)});
    return w;
}

std::optional<std::int64_t> liveValueAt(Database& db, std::int64_t traceId, int series, std::int64_t t) {
    Statement s(db, "SELECT value FROM live_samples WHERE trace_id = ? AND series = ? AND t <= ? ORDER BY t DESC LIMIT 1");
    s.bind(1, traceId).bind(2, series).bind(3, t);
    if (!s.step()) return std::nullopt;
    return s.int64(0);
}

std::vector<LiveMarker> listLiveMarkers(Database& db, std::int64_t traceId) {
    std::vector<LiveMarker> out;
    Statement s(db, "SELECT t, kind, label FROM live_markers WHERE trace_id = ? ORDER BY t, rowid");
    s.bind(1, traceId);
    while (s.step()) out.push_back({s.int64(0), s.text(1), s.text(2)});
    return out;
}

std::vector<LivePhaseSpan> livePhaseSpans(const std::vector<LiveMarker>& markers, std::int64_t end) {
    std::vector<LivePhaseSpan> out;
    for (const LiveMarker& m : markers) {
        if (m.kind != "phase") continue;
        if (!out.empty()) {
            out.back().end = m.t;
            if (out.back().phase == m.label) continue; // the same phase again: one span
        }
        out.push_back({m.t, std::max(m.t, end), m.label});
    }
    if (!out.empty()) out.back().end = std::max(out.back().begin, end);
    // Drop empty spans (a phase that lasted no time).
    std::erase_if(out, [](const LivePhaseSpan& s) { return s.end <= s.begin; });
    return out;
}

std::vector<OpRow> queryLiveOps(Database& db, std::int64_t traceId, const OpsFilter& filter) {
    std::optional<std::string> device;
    if (filter.device) {
        for (const auto& [name, number] : liveDeviceNumbers(db, traceId))
            if (number == *filter.device) device = name;
        if (!device) return {};
    }
    Statement s(db, "SELECT name, sum(bytes_after > bytes_before), sum(bytes_after < bytes_before), "
                    "sum(max(bytes_after - bytes_before, 0)), sum(max(bytes_before - bytes_after, 0)), "
                    "max(max(bytes_after - bytes_before, 0)) FROM live_ops "
                    "WHERE trace_id = ?1 AND (?2 IS NULL OR device = ?2) AND (?3 IS NULL OR t_end BETWEEN ?3 AND ?4) "
                    "GROUP BY name HAVING sum(bytes_after != bytes_before) > 0");
    s.bind(1, traceId);
    if (device) s.bind(2, *device);
    else s.bindNull(2);
    if (filter.range) s.bind(3, filter.range->begin).bind(4, filter.range->end);
    else s.bindNull(3).bindNull(4);
    std::vector<OpRow> out;
    while (s.step()) {
        OpRow r;
        r.name = s.text(0);
        r.allocs = s.int64(1);
        r.frees = s.int64(2);
        r.bytesAllocated = s.int64(3);
        r.bytesFreed = s.int64(4);
        r.largestAlloc = s.int64(5);
        out.push_back(std::move(r));
    }
    std::sort(out.begin(), out.end(), [](const OpRow& a, const OpRow& b) {
        return a.bytesAllocated != b.bytesAllocated ? a.bytesAllocated > b.bytesAllocated : a.name < b.name;
    });
    return out;
}

std::string liveOpAt(Database& db, std::int64_t traceId, std::int64_t t) {
    // The innermost record around t starts last: walk back from t a little way.
    Statement s(db, "SELECT t_end, name, phase, step FROM live_ops WHERE trace_id = ? AND t <= ? "
                    "ORDER BY t DESC LIMIT 64");
    s.bind(1, traceId).bind(2, t);
    while (s.step())
        if (s.int64(0) >= t) return s.text(1) + " (" + s.text(2) + ", step " + std::to_string(s.int64(3)) + ")";
    return {};
}

} // namespace memviz

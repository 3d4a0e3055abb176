// SPDX-License-Identifier: MIT
#pragma once
// Helpers for the live-recording tests: the step program's own timeline, the samples a
// recording stored, and windows of them aligned to the program's clock.
#include <QFile>
#include <QMap>
#include <QString>
#include <QTest>
#include <vector>

#include "formats/live/LiveQueries.h"
#include "formats/live/LiveWriter.h"
#include "formats/live/ProbeProtocol.h"
#include "store/ChunkCodec.h"
#include "store/Database.h"
#include "store/TraceQueries.h"

namespace memviz::test {

constexpr std::int64_t kMiB = 1024 * 1024;

// The recording spec of a probe stream written by a test (no process behind it).
inline LiveRecordingSpec probeSpec() {
    LiveRecordingSpec s;
    s.source = "probe";
    s.format = kLiveProbeFormat;
    s.title = "test probe";
    return s;
}

// "event monotonic_ns" lines written by tests/data/live/live_steps.cpp.
inline QMap<QString, qint64> readTimeline(const QString& path) {
    QMap<QString, qint64> out;
    QFile f(path);
    if (!f.open(QIODevice::ReadOnly)) return out;
    for (const QByteArray& line : f.readAll().split('\n')) {
        const QList<QByteArray> parts = line.trimmed().split(' ');
        if (parts.size() == 2) out.insert(QString::fromLatin1(parts[0]), parts[1].toLongLong());
    }
    return out;
}

// A recorded series' samples, with times on the program's clock (CLOCK_MONOTONIC ns).
inline std::vector<SeriesPoint> samplesOnMonotonicClock(Database& db, std::int64_t traceId, const std::string& name) {
    std::int64_t start = 0;
    for (const auto& [k, v] : loadMetadata(db, traceId))
        if (k == "live_monotonic_start_ns") start = std::stoll(v);
    std::vector<SeriesPoint> out;
    for (const LiveSeriesInfo& s : listLiveSeries(db, traceId)) {
        if (s.name != name) continue;
        Statement q(db, "SELECT t, value FROM live_samples WHERE trace_id = ? AND series = ? ORDER BY t");
        q.bind(1, traceId).bind(2, s.series);
        while (q.step()) out.push_back({q.int64(0) + start, q.int64(1)});
    }
    return out;
}

inline std::vector<std::int64_t> valuesBetween(const std::vector<SeriesPoint>& points, std::int64_t begin, std::int64_t end) {
    std::vector<std::int64_t> out;
    for (const SeriesPoint& p : points)
        if (p.t >= begin && p.t <= end) out.push_back(p.v);
    return out;
}

// The last value before t (the baseline before a step).
inline std::optional<std::int64_t> valueBefore(const std::vector<SeriesPoint>& points, std::int64_t t) {
    std::optional<std::int64_t> v;
    for (const SeriesPoint& p : points)
        if (p.t < t) v = p.v;
    return v;
}

// First sample time at or after `from` whose value reaches `atLeast`.
inline std::optional<std::int64_t> firstReaching(const std::vector<SeriesPoint>& points, std::int64_t from,
                                                 std::int64_t atLeast) {
    for (const SeriesPoint& p : points)
        if (p.t >= from && p.v >= atLeast) return p.t;
    return std::nullopt;
}

} // namespace memviz::test

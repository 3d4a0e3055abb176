// SPDX-License-Identifier: MIT
#include "store/TraceQueries.h"

#include "core/Errors.h"
#include "store/Database.h"

namespace memviz {

namespace {

constexpr const char* kTraceColumns =
    "SELECT id, source_path, format, imported_at, time_kind, duration_ns, event_count, epoch_ns, source_size, "
    "source_mtime_ns FROM traces ";

std::optional<std::int64_t> optionalInt(const Statement& s, int column) {
    if (s.isNull(column)) return std::nullopt;
    return s.int64(column);
}

TraceRecord readTrace(const Statement& s) {
    TraceRecord t;
    t.id = s.int64(0);
    t.sourcePath = s.text(1);
    t.format = s.text(2);
    t.importedAt = s.text(3);
    t.timeKind = s.text(4);
    t.durationNs = s.int64(5);
    t.eventCount = s.int64(6);
    t.epochNs = optionalInt(s, 7);
    t.sourceSize = optionalInt(s, 8);
    t.sourceMtimeNs = optionalInt(s, 9);
    return t;
}

} // namespace

std::vector<TraceRecord> listTraces(Database& db) {
    Statement s(db, std::string(kTraceColumns) + "ORDER BY id");
    std::vector<TraceRecord> out;
    while (s.step()) out.push_back(readTrace(s));
    return out;
}

std::optional<TraceRecord> findTrace(Database& db, std::int64_t traceId) {
    Statement s(db, std::string(kTraceColumns) + "WHERE id = ?");
    s.bind(1, traceId);
    if (!s.step()) return std::nullopt;
    return readTrace(s);
}

std::optional<std::int64_t> latestTraceId(Database& db) { return queryInt(db, "SELECT max(id) FROM traces"); }

std::optional<std::int64_t> findImportOf(Database& db, const std::string& sourcePath, std::int64_t size, std::int64_t mtimeNs) {
    Statement s(db, "SELECT max(id) FROM traces WHERE source_path = ? AND source_size = ? AND source_mtime_ns = ?");
    s.bind(1, sourcePath).bind(2, size).bind(3, mtimeNs);
    if (!s.step() || s.isNull(0)) return std::nullopt;
    return s.int64(0);
}

TraceSummary loadSummary(Database& db, std::int64_t traceId) {
    TraceSummary out;
    auto trace = findTrace(db, traceId);
    if (!trace) throw StoreError(db.path() + ": no trace with id " + std::to_string(traceId));
    out.trace = std::move(*trace);
    Statement s(db, "SELECT s.device, d.name, s.events, s.allocs, s.frees, s.unmatched_frees, s.peak_bytes, "
                    "s.peak_time_ns, s.final_bytes, s.duration_ns FROM device_summary s "
                    "JOIN devices d ON d.trace_id = s.trace_id AND d.device = s.device "
                    "WHERE s.trace_id = ? ORDER BY s.device");
    s.bind(1, traceId);
    while (s.step()) {
        DeviceSummary d;
        d.device = static_cast<int>(s.int64(0));
        d.name = s.text(1);
        d.events = s.int64(2);
        d.allocs = s.int64(3);
        d.frees = s.int64(4);
        d.unmatchedFrees = s.int64(5);
        d.peakBytes = s.int64(6);
        d.peakTimeNs = s.int64(7);
        d.finalBytes = s.int64(8);
        d.durationNs = s.int64(9);
        out.devices.push_back(std::move(d));
    }
    Statement w(db, "SELECT kind, count, first_location, message FROM import_warnings WHERE trace_id = ? ORDER BY kind");
    w.bind(1, traceId);
    while (w.step()) out.warnings.push_back({w.text(0), w.int64(1), w.text(2), w.text(3)});
    return out;
}

std::vector<std::pair<std::string, std::string>> loadMetadata(Database& db, std::int64_t traceId) {
    Statement s(db, "SELECT key, value FROM trace_metadata WHERE trace_id = ? ORDER BY key");
    s.bind(1, traceId);
    std::vector<std::pair<std::string, std::string>> out;
    while (s.step()) out.emplace_back(s.text(0), s.text(1));
    return out;
}

std::vector<SeriesInfo> listSeries(Database& db, std::int64_t traceId) {
    Statement s(db, "SELECT s.id, s.device, d.name, s.name, s.unit, s.point_count, coalesce(s.t_first, 0), "
                    "coalesce(s.t_last, 0), coalesce(s.v_min, 0), coalesce(s.v_max, 0), coalesce(s.v_final, 0), "
                    "s.style FROM series s JOIN devices d ON d.trace_id = s.trace_id AND d.device = s.device "
                    "WHERE s.trace_id = ? ORDER BY s.device, s.id");
    s.bind(1, traceId);
    std::vector<SeriesInfo> out;
    while (s.step()) {
        SeriesInfo i;
        i.id = s.int64(0);
        i.device = static_cast<int>(s.int64(1));
        i.deviceName = s.text(2);
        i.name = s.text(3);
        i.unit = s.text(4);
        i.pointCount = s.int64(5);
        i.tFirst = s.int64(6);
        i.tLast = s.int64(7);
        i.vMin = s.int64(8);
        i.vMax = s.int64(9);
        i.vFinal = s.int64(10);
        i.style = s.text(11);
        out.push_back(std::move(i));
    }
    return out;
}

} // namespace memviz

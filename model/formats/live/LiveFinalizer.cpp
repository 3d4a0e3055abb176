// SPDX-License-Identifier: MIT
#include "formats/live/LiveFinalizer.h"

#include <map>
#include <string>

#include "core/Errors.h"
#include "formats/FormatIds.h"
#include "formats/live/LiveQueries.h"
#include "formats/live/LiveWriter.h"
#include "store/Database.h"
#include "store/TraceQueries.h"
#include "store/TraceWriter.h"

namespace memviz {

namespace {

// A series that is zero throughout (swap on a machine without swap, shared memory of a
// process that has none) would only crowd the legend; its samples stay in live_samples.
bool worthKeeping(const LiveSeriesInfo& s) {
    if (s.primary) return true;
    return s.count > 0 && !(s.vMin == 0 && s.vMax == 0);
}

void writeSeries(Database& db, TraceWriter& w, std::int64_t traceId, const std::vector<LiveSeriesInfo>& series,
                 std::map<std::string, std::uint16_t>& devices) {
    std::string skipped;
    for (const LiveSeriesInfo& s : series) {
        const std::uint16_t device = devices.at(s.device);
        if (!worthKeeping(s)) {
            skipped += (skipped.empty() ? "" : ", ") + s.device + " " + s.name;
            continue;
        }
        const std::int64_t id = w.createSeries(device, s.name, s.unit, s.primary);
        Statement points(db, "SELECT t, value FROM live_samples WHERE trace_id = ? AND series = ? ORDER BY t");
        points.bind(1, traceId).bind(2, s.series);
        while (points.step()) w.addPoint(id, points.int64(0), points.int64(1));
    }
    if (!skipped.empty()) w.setMetadata(metadata_key::kLiveSeriesNotDrawn, skipped + " (zero throughout; kept in live_samples)");
}

// Each probe record's change of a device's bytes becomes one event at the record's end: an
// increase an allocation of that size, a decrease a free (docs/formats.md, the probe).
void writeOpEvents(Database& db, TraceWriter& w, std::int64_t traceId, std::map<std::string, std::uint16_t>& devices) {
    Statement ops(db, "SELECT device, t_end, name, phase, bytes_before, bytes_after FROM live_ops "
                      "WHERE trace_id = ? AND bytes_after != bytes_before ORDER BY t_end, seq, device");
    ops.bind(1, traceId);
    while (ops.step()) {
        const std::string device = ops.text(0);
        auto it = devices.find(device);
        if (it == devices.end()) it = devices.emplace(device, w.device(device)).first;
        Event e;
        e.timeNs = ops.int64(1);
        e.device = it->second;
        e.op = w.name(NameKind::Op, ops.text(2));
        e.category = w.name(NameKind::Category, ops.text(3));
        const std::int64_t delta = ops.int64(5) - ops.int64(4);
        e.kind = delta > 0 ? EventKind::Alloc : EventKind::Free;
        e.size = delta > 0 ? delta : -delta;
        w.addEvent(e);
    }
    if (const auto end = queryInt(db, "SELECT max(t_end) FROM live_ops WHERE trace_id = " + std::to_string(traceId)))
        w.extendDuration(*end);
}

// Op mode with storages (live_storages): each storage an operator's call made is an allocation
// at the call's end, and its release a free at the moment its last tensor went, both under
// that operator (an event's address is the storage's number). Then what an operator holds at
// any moment is paired, never a net of its calls (docs/formats.md, the probe).
bool writeStorageEvents(Database& db, TraceWriter& w, std::int64_t traceId, std::map<std::string, std::uint16_t>& devices) {
    if (!queryInt(db, "SELECT 1 FROM live_storages WHERE trace_id = " + std::to_string(traceId) + " LIMIT 1")) return false;
    Statement rows(db, "SELECT t_alloc AS t, 0 AS freed, id, device, bytes, op, phase FROM live_storages WHERE trace_id = ?1 "
                       "UNION ALL SELECT t_free, 1, id, device, bytes, op, phase FROM live_storages "
                       "WHERE trace_id = ?1 AND t_free IS NOT NULL ORDER BY t, freed, id");
    rows.bind(1, traceId);
    while (rows.step()) {
        const std::string device = rows.text(3);
        auto it = devices.find(device);
        if (it == devices.end()) it = devices.emplace(device, w.device(device)).first;
        Event e;
        e.timeNs = rows.int64(0);
        e.kind = rows.int64(1) ? EventKind::Free : EventKind::Alloc;
        e.address = rows.int64(2);
        e.device = it->second;
        e.size = rows.int64(4);
        e.op = w.name(NameKind::Op, rows.text(5));
        e.category = w.name(NameKind::Category, rows.text(6));
        w.addEvent(e);
    }
    return true;
}

} // namespace

bool finalizeLiveRecording(Database& db, std::int64_t traceId) {
    const auto rec = findLiveRecording(db, traceId);
    if (!rec) throw StoreError(db.path() + ": trace " + std::to_string(traceId) + " is not a live recording");
    if (!rec->recording()) return false;
    const auto trace = findTrace(db, traceId);
    if (!trace) throw StoreError(db.path() + ": no trace with id " + std::to_string(traceId));
    const std::vector<LiveSeriesInfo> series = listLiveSeries(db, traceId);

    TraceInfo info;
    info.sourcePath = trace->sourcePath;
    info.format = trace->format;
    info.epochNs = trace->epochNs;
    info.adoptTraceId = traceId;
    TraceWriter w(db, info); // holds the write lock from here on
    // We read live rows through the writer's connection while it writes: no worker thread.
    Database& conn = w.database();
    // Another process may have finalised it while we read: look again under the lock.
    if (findLiveRecording(conn, traceId)->state != "recording") return false;

    std::map<std::string, std::uint16_t> devices; // in order of their first series
    for (const LiveSeriesInfo& s : series)
        if (!devices.count(s.device)) devices.emplace(s.device, w.device(s.device));
    writeSeries(conn, w, traceId, series, devices);
    if (!writeStorageEvents(conn, w, traceId, devices)) writeOpEvents(conn, w, traceId, devices);
    else
        for (const char* sql : {"SELECT max(t_end) FROM live_ops WHERE trace_id = ", "SELECT max(t_free) FROM live_storages WHERE trace_id = "})
            if (const auto end = queryInt(conn, sql + std::to_string(traceId))) w.extendDuration(*end);
    if (const auto end = queryInt(conn, "SELECT max(t) FROM live_markers WHERE trace_id = " + std::to_string(traceId)))
        w.extendDuration(*end);

    Statement done(conn, "UPDATE live_recordings SET state = 'finalized', "
                         "end_reason = coalesce(end_reason, 'recorder-died') WHERE trace_id = ?");
    done.bind(1, traceId).run();
    w.commit();
    // The recording is over: the .memviz alone holds it now, whatever the -wal file does next
    // (a read-only window that closes last would leave the log behind, unmerged).
    conn.checkpoint();
    return true;
}

std::vector<std::int64_t> recoverInterruptedRecordings(Database& db) {
    std::vector<std::int64_t> out;
    for (const LiveRecordingInfo& r : listLiveRecordings(db)) {
        if (!r.recording()) continue;
        if (isRecorderAlive({r.recorderPid, r.recorderStart, r.recorderBoot})) continue;
        if (finalizeLiveRecording(db, r.traceId)) out.push_back(r.traceId);
    }
    return out;
}

} // namespace memviz

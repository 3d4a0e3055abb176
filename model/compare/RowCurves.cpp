// SPDX-License-Identifier: MIT
#include "compare/RowCurves.h"

#include <algorithm>
#include <strings.h>
#include <unordered_map>
#include <unordered_set>

#include "core/Progress.h"
#include "formats/snapshot/SnapshotQueries.h"
#include "store/Database.h"
#include "store/OpsQuery.h"
#include "store/SeriesQuery.h"
#include "store/TraceQueries.h"
#include "store/TraceWriter.h"
#include "trace/Event.h"

namespace memviz {

namespace {

std::optional<int> deviceNamed(Database& db, std::int64_t traceId, const std::string& name) {
    for (const DeviceSummary& d : loadSummary(db, traceId).devices)
        if (strcasecmp(d.name.c_str(), name.c_str()) == 0) return d.device;
    return std::nullopt;
}

// The id of the operator named `name`; kNoName for the events without one.
std::optional<std::int64_t> opId(Database& db, std::int64_t traceId, const std::string& name) {
    if (name == kNoOpName) return kNoName;
    Statement s(db, "SELECT id FROM names WHERE trace_id = ? AND kind = ? AND name = ?");
    s.bind(1, traceId).bind(2, static_cast<int>(NameKind::Op)).bind(3, name);
    if (!s.step()) return std::nullopt;
    return s.int64(0);
}

std::vector<SeriesPoint> binned(const std::vector<SeriesPoint>& points, int columns) {
    if (points.empty()) return {};
    return binByColumn(points, TimeRange{points.front().t, points.back().t}, columns > 0 ? columns : 4096);
}

std::vector<SeriesPoint> operatorCurve(Database& db, std::int64_t traceId, int device, const std::string& name, int columns,
                                       const Progress& progress) {
    const auto op = opId(db, traceId, name);
    if (!op) return {};
    // Events are stored in time order, chunk after chunk.
    Statement s(db, "SELECT data FROM event_chunks WHERE trace_id = ? ORDER BY t_last, chunk");
    s.bind(1, traceId);
    std::vector<SeriesPoint> points;
    std::unordered_set<std::int64_t> live; // addresses of the operator's allocations not freed yet
    std::int64_t bytes = 0;
    while (s.step()) {
        progress.checkCancelled();
        for (const Event& e : decodeEvents(s.blob(0))) {
            if (e.device != device) continue;
            if (e.kind == EventKind::Alloc && e.op == *op) {
                if (!live.insert(e.address).second) continue; // a second alloc at a live address: not moved
                bytes += e.size;
            } else if (e.kind == EventKind::Free && !(e.flags & kFlagUnmatched) && live.erase(e.address)) {
                bytes -= e.size;
            } else {
                continue;
            }
            if (!points.empty() && points.back().t == e.timeNs) points.back().v = bytes;
            else points.push_back({e.timeNs, bytes});
        }
    }
    return binned(points, columns);
}

std::vector<SeriesPoint> categoryCurve(Database& db, std::int64_t traceId, int device, const std::string& name, int columns) {
    for (const SeriesInfo& s : listSeries(db, traceId))
        if (s.style == kSeriesStacked && s.device == device && s.name == name)
            return querySeries(db, s.id, TimeRange{s.tFirst, s.tLast}, columns > 0 ? columns : 4096).points;
    return {};
}

std::vector<SeriesPoint> snapshotSiteCurve(Database& db, std::int64_t traceId, int device, const std::string& site,
                                           int columns, const Progress& progress) {
    const StackCatalog stacks = loadStackCatalog(db, traceId);
    const std::vector<SnapshotAllocationRow> all = loadAllocations(db, traceId, device);
    progress.checkCancelled();
    std::unordered_map<std::int32_t, bool> matches; // stack -> its site is `site`
    std::vector<SeriesPoint> changes;               // (time, +bytes or -bytes)
    std::int64_t start = 0;
    for (const SnapshotAllocationRow& r : all)
        if (r.tAlloc) start = std::min(start, *r.tAlloc);
    for (const SnapshotAllocationRow& r : all) {
        auto it = matches.find(r.stack);
        if (it == matches.end()) it = matches.emplace(r.stack, (r.stack < 0 ? std::string() : stacks.siteOf(r.stack)) == site).first;
        if (!it->second) continue;
        changes.push_back({r.tAlloc.value_or(start), r.requestedSize});
        if (r.tFree) changes.push_back({*r.tFree, -r.requestedSize});
    }
    std::stable_sort(changes.begin(), changes.end(), [](const SeriesPoint& x, const SeriesPoint& y) { return x.t < y.t; });
    std::vector<SeriesPoint> points;
    std::int64_t live = 0;
    for (const SeriesPoint& c : changes) {
        live += c.v;
        if (!points.empty() && points.back().t == c.t) points.back().v = live;
        else points.push_back({c.t, live});
    }
    return binned(points, columns);
}

} // namespace

std::vector<SeriesPoint> readRowCurve(Database& db, std::int64_t traceId, const RowCurveRequest& row, int columns,
                                      const Progress& progress) {
    const std::optional<int> device = deviceNamed(db, traceId, row.device);
    if (!device) return {};
    switch (row.kind) {
    case RowCurveKind::Operator: return operatorCurve(db, traceId, *device, row.name, columns, progress);
    case RowCurveKind::Category: return categoryCurve(db, traceId, *device, row.name, columns);
    case RowCurveKind::SnapshotSite: return snapshotSiteCurve(db, traceId, *device, row.name, columns, progress);
    }
    return {};
}

} // namespace memviz

// SPDX-License-Identifier: MIT
// Reading what the report shows (see ReportData.h).
#include "report/ReportData.h"

#include "compare/Alignment.h"
#include "core/Progress.h"
#include "formats/FormatIds.h"
#include "formats/StackSources.h"
#include "store/SeriesQuery.h"
#include "store/TraceWriter.h"

namespace memviz {

namespace {

// The device's primary curve: "allocated", else the bytes series whose maximum is the peak.
const SeriesInfo* curveSeries(const std::vector<SeriesInfo>& series, const DeviceSummary& d) {
    for (const SeriesInfo& s : series)
        if (s.device == d.device && s.name == series_name::kAllocated) return &s;
    for (const SeriesInfo& s : series)
        if (s.device == d.device && s.unit == "bytes" && s.style != kSeriesStacked && s.vMax == d.peakBytes) return &s;
    for (const SeriesInfo& s : series)
        if (s.device == d.device && s.unit == "bytes" && s.style != kSeriesStacked) return &s;
    return nullptr;
}

} // namespace

ReportData loadReportData(Database& db, std::int64_t traceId, const std::string& title, const Progress& progress) {
    ReportData r;
    r.title = title;
    r.facts = loadTraceFacts(db, traceId);
    const std::vector<SeriesInfo> series = listSeries(db, traceId);
    for (const DeviceSummary& d : r.facts.summary.devices) {
        const SeriesInfo* s = curveSeries(series, d);
        if (!s) continue;
        progress.checkCancelled();
        ReportCurve c{d.name, s->name, d.peakBytes, d.peakTimeNs, {}};
        c.points = querySeries(db, s->id, TimeRange{s->tFirst, s->tLast}, kReportColumns).points;
        r.curves.push_back(std::move(c));
    }
    const StackAvailability stacks = stackAvailability(db, traceId);
    if (stacks.hasStacks()) {
        StackRequest request;
        request.metric = stacks.metrics.front().id;
        r.flame = loadStackTree(db, traceId, request, &progress);
        r.flameMetric = stacks.metrics.front().label;
        r.flameBytes = stacks.metrics.front().bytes;
    }
    return r;
}

void addReportBaseline(ReportData& r, Database& db, std::int64_t traceId, Database& baseline, std::int64_t baselineId,
                       const std::string& baselineTitle, const Progress& progress) {
    r.baselineTitle = baselineTitle;
    TraceComparison c = compareTraces(baseline, baselineId, db, traceId, "", kReportColumns, progress, false);
    AlignSpec peak;
    peak.kind = CompareAlign::Peak;
    const Alignment a = alignTraces(c, peak);
    r.diffShift = a.problem.empty() ? a.shift : 0;
    r.diff = std::move(c);
}

} // namespace memviz

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

ReportData loadReportData(Database& db, std::int64_t traceId, const std::string& title, const Progress& progress,
                          FrameFolder folder) {
    ReportData r;
    r.title = title;
    r.facts = loadTraceFacts(db, traceId);
    const std::vector<SeriesInfo> series = listSeries(db, traceId);
    for (const PlotPeak& p : plotPeaks(db, traceId, r.facts.summary, series)) {
        progress.checkCancelled();
        // The categories "at the peak" are those at the curve's maximum, as the window's read-out
        // shows them, where the file's own peak (massif's detailed one) is lower.
        if (p.named)
            for (CategoryFact& f : r.facts.categories)
                if (f.device == p.deviceName)
                    for (const SeriesInfo& s : series)
                        if (s.device == p.device && s.style == kSeriesStacked && s.name == f.name)
                            f.bytesAtPeak = seriesValueAt(db, s.id, p.t).value_or(0);
        ReportCurve c{p.deviceName, p.seriesName, p.bytes, p.t, p.named, {}};
        for (const SeriesInfo& s : series)
            if (s.id == p.seriesId) c.points = querySeries(db, s.id, TimeRange{s.tFirst, s.tLast}, kReportColumns).points;
        r.curves.push_back(std::move(c));
    }
    const StackAvailability stacks = stackAvailability(db, traceId);
    if (stacks.hasStacks()) {
        StackRequest request;
        request.metric = stacks.metrics.front().id;
        request.folder = std::move(folder);
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

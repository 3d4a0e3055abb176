// SPDX-License-Identifier: MIT
#pragma once
// What `memviz report` shows, read from the store in one call (the HTML is written from this by
// HtmlReport.h): the summary and budget figures (budget/TraceFacts.h), each device's memory curve
// reduced to a few thousand points through the level-of-detail pyramid (SeriesQuery: the lowest
// and highest point per pixel column, so the peak is exact), the call tree for the flame graph
// when the trace has stacks, and with a baseline the comparison lined up at the peaks.
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "budget/TraceFacts.h"
#include "compare/TraceComparison.h"
#include "plot/PlotPeaks.h"
#include "store/ChunkCodec.h"
#include "trace/FrameFolder.h"
#include "trace/StackTree.h"

namespace memviz {

class Database;
class Progress;

struct ReportCurve {
    std::string device;
    std::string series; // the series drawn ("allocated", "total", ...)
    std::int64_t peakBytes = 0, peakTimeNs = 0; // the curve's maximum, exact (plot/PlotPeaks.h)
    std::optional<NamedPeak> named;             // the file's own peak where it is lower (massif's)
    std::vector<SeriesPoint> points;            // time-ordered, at most ~4 per column
};

struct ReportData {
    std::string title; // the source file
    TraceFacts facts;
    std::vector<ReportCurve> curves;
    std::optional<StackTree> flame;
    std::string flameMetric; // its label: "Peak contribution", ...
    bool flameBytes = true;
    // With a baseline (A = baseline, B = this trace), the first common device's curves.
    std::optional<TraceComparison> diff;
    std::string baselineTitle;
    std::int64_t diffShift = 0; // add to B's times to line its peak up with A's
};

constexpr int kReportColumns = 2000;

// `folder` elides frames from the flame graph as the window's "Fold plumbing" does (the CLI
// passes the default presets unless --fold says otherwise).
ReportData loadReportData(Database& db, std::int64_t traceId, const std::string& title, const Progress& progress,
                          FrameFolder folder = {});
// Adds the comparison with a baseline trace (devices in common required).
void addReportBaseline(ReportData& r, Database& db, std::int64_t traceId, Database& baseline, std::int64_t baselineId,
                       const std::string& baselineTitle, const Progress& progress);

} // namespace memviz

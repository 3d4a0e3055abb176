// SPDX-License-Identifier: MIT
// Each device's peak as a chart marks it (see PlotPeaks.h).
#include "plot/PlotPeaks.h"

#include <algorithm>
#include <cstdlib>

#include "formats/FormatIds.h"
#include "store/SeriesQuery.h"
#include "store/TraceWriter.h"

namespace memviz {

const SeriesInfo* primaryCurve(const std::vector<SeriesInfo>& series, const DeviceSummary& d) {
    for (const SeriesInfo& s : series)
        if (s.device == d.device && s.name == series_name::kAllocated) return &s;
    for (const SeriesInfo& s : series)
        if (s.device == d.device && s.unit == "bytes" && s.style != kSeriesStacked && s.vMax == d.peakBytes) return &s;
    for (const SeriesInfo& s : series)
        if (s.device == d.device && s.unit == "bytes" && s.style != kSeriesStacked) return &s;
    return nullptr;
}

const PlotPeak* findPlotPeak(const std::vector<PlotPeak>& peaks, int device) {
    for (const PlotPeak& p : peaks)
        if (p.device == device) return &p;
    return nullptr;
}

bool seriesIsEmpty(const SeriesInfo& s) { return s.pointCount == 0 || (s.vMin == 0 && s.vMax == 0); }

std::vector<PlotPeak> plotPeaks(Database& db, std::int64_t traceId, const TraceSummary& summary,
                                const std::vector<SeriesInfo>& series) {
    std::string massifPeakSnapshot;
    if (summary.trace.format == format_id::kMassif)
        for (const auto& [key, value] : loadMetadata(db, traceId))
            if (key == metadata_key::kMassifPeakSnapshot) massifPeakSnapshot = value;
    std::vector<PlotPeak> out;
    for (const DeviceSummary& d : summary.devices) {
        const SeriesInfo* s = primaryCurve(series, d);
        if (!s || seriesIsEmpty(*s)) continue;
        PlotPeak p;
        p.device = d.device;
        p.deviceName = d.name;
        p.seriesId = s->id;
        p.seriesName = s->name;
        p.bytes = s->vMax;
        p.t = d.peakTimeNs;
        if (d.peakBytes != s->vMax) {
            // The first point at the maximum: one pixel column over the whole series holds the
            // highest point with its time (the level-of-detail pyramid keeps it exactly).
            const SeriesWindow w = querySeries(db, s->id, TimeRange{s->tFirst, s->tLast}, 1);
            for (const SeriesPoint& pt : w.points)
                if (pt.v == s->vMax) {
                    p.t = pt.t;
                    break;
                }
            if (d.peakBytes > 0 && d.peakBytes < s->vMax) {
                NamedPeak n{d.peakTimeNs, d.peakBytes, "the file's own peak", -1};
                if (!massifPeakSnapshot.empty()) {
                    n.what = "massif's detailed peak (snapshot " + massifPeakSnapshot + ")";
                    n.snapshot = std::strtoll(massifPeakSnapshot.c_str(), nullptr, 10);
                }
                p.named = n;
            }
        }
        out.push_back(p);
    }
    std::int64_t largest = 0;
    for (const PlotPeak& p : out) largest = std::max(largest, p.bytes);
    for (PlotPeak& p : out) p.tiny = static_cast<double>(p.bytes) < kTinyDeviceShare * static_cast<double>(largest);
    return out;
}

} // namespace memviz

// SPDX-License-Identifier: MIT
#include "widgets/whatif/TraceBaseline.h"

#include <QFileInfo>

#include "store/SeriesQuery.h"
#include "store/TraceWriter.h"
#include "widgets/TraceSession.h"

namespace memviz {

costmodel::RecordedBaseline readTraceBaseline(TraceSession& session, int columns) {
    costmodel::RecordedBaseline b;
    const TraceSummary& s = session.summary();
    b.source = QFileInfo(QString::fromStdString(s.trace.sourcePath)).fileName().toStdString();
    const DeviceSummary* top = nullptr;
    for (const DeviceSummary& d : s.devices)
        if (!top || d.peakBytes > top->peakBytes) top = &d;
    if (!top) return b;
    b.device = top->name;
    b.peakBytes = top->peakBytes;
    b.peakTimeNs = top->peakTimeNs;
    // Stacked category series (memory-timeline exports) hold each category's own bytes.
    const SeriesInfo* line = nullptr;
    for (const SeriesInfo& series : session.series()) {
        if (series.device != top->device) continue;
        if (series.style == kSeriesStacked) {
            const std::int64_t own = seriesValueAt(session.database(), series.id, top->peakTimeNs).value_or(0);
            b.categories.push_back({series.name, own, costmodel::categoryForRecordedName(series.name)});
        } else if (series.unit == "bytes" && (!line || series.vMax > line->vMax)) {
            line = &series;
        }
    }
    if (line) {
        const SeriesWindow w = querySeries(session.database(), line->id, session.fullRange(), columns);
        for (const SeriesPoint& p : w.points) b.timeline.emplace_back(p.t, p.v);
    }
    return b;
}

} // namespace memviz

#include "widgets/whatif/TraceBaseline.h"

#include <QFileInfo>

#include "store/SeriesQuery.h"
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
    // Stacked category series hold cumulative values, in category order.
    std::int64_t below = 0;
    const SeriesInfo* line = nullptr;
    for (const SeriesInfo& series : session.series()) {
        if (series.device != top->device) continue;
        if (series.display == "stack") {
            const std::int64_t cumulative = seriesValueAt(session.database(), series.id, top->peakTimeNs).value_or(below);
            b.categories.push_back({series.name, cumulative - below, costmodel::categoryForRecordedName(series.name)});
            below = cumulative;
        } else if (!line || series.vMax > line->vMax) {
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

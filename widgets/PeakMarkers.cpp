#include "widgets/PeakMarkers.h"

#include <qcustomplot.h>

#include <algorithm>
#include <cmath>
#include <vector>

#include "core/Units.h"
#include "store/SeriesQuery.h"
#include "store/TraceWriter.h"
#include "widgets/TraceSession.h"

namespace memviz {

std::optional<std::int64_t> stackShareAtPeak(TraceSession& session, const SeriesInfo& series) {
    if (series.style != kSeriesStacked) return std::nullopt;
    for (const DeviceSummary& d : session.summary().devices)
        if (d.device == series.device && d.peakBytes > 0) return seriesValueAt(session.database(), series.id, d.peakTimeNs).value_or(0);
    return std::nullopt;
}

namespace {
// Peaks this close (share of the duration, share of the largest peak) would put their labels
// on top of each other: the later ones go up a lane.
constexpr double kNearInTime = 0.3;
constexpr double kNearInBytes = 0.2;
constexpr int kLaneHeightPx = 17;
constexpr int kMaxLanes = 3;
} // namespace

void addPeakMarkers(QCustomPlot* plot, TraceSession& session, const std::function<QString(double)>& xText) {
    const TraceSummary& summary = session.summary();
    std::int64_t largest = 0;
    for (const DeviceSummary& d : summary.devices) largest = std::max(largest, d.peakBytes);
    std::vector<const DeviceSummary*> placed;
    for (const DeviceSummary& d : summary.devices) {
        if (d.peakBytes <= 0) continue;
        int lane = 0;
        for (const DeviceSummary* other : placed)
            if (std::abs(static_cast<double>(other->peakTimeNs - d.peakTimeNs)) <= kNearInTime * static_cast<double>(summary.trace.durationNs) &&
                std::abs(static_cast<double>(other->peakBytes - d.peakBytes)) <= kNearInBytes * static_cast<double>(largest))
                ++lane;
        lane = std::min(lane, kMaxLanes - 1);
        placed.push_back(&d);
        auto* tracer = new QCPItemTracer(plot);
        tracer->position->setCoords(static_cast<double>(d.peakTimeNs), static_cast<double>(d.peakBytes));
        tracer->setStyle(QCPItemTracer::tsCircle);
        tracer->setSize(8);
        tracer->setPen(QPen(QColor(200, 30, 30), 2));
        tracer->setBrush(QColor(255, 255, 255));
        auto* label = new QCPItemText(plot);
        label->position->setParentAnchor(tracer->position);
        // Labels of peaks in the right half open to the left, so they are never clipped.
        const bool rightHalf = d.peakTimeNs * 2 > summary.trace.durationNs;
        label->position->setCoords(rightHalf ? -6 : 6, -4 - lane * kLaneHeightPx);
        label->setPositionAlignment((rightHalf ? Qt::AlignRight : Qt::AlignLeft) | Qt::AlignBottom);
        label->setTextAlignment(rightHalf ? Qt::AlignRight : Qt::AlignLeft);
        const QString text = QObject::tr("peak %1: %2 at %3")
                           .arg(QString::fromStdString(d.name),
                                QString::fromStdString(formatBytes(static_cast<double>(d.peakBytes))),
                                xText(static_cast<double>(d.peakTimeNs)));
        label->setText(text);
        label->setColor(QColor(160, 20, 20));
        label->setBrush(QColor(255, 255, 255, 210));
        label->setPadding(QMargins(3, 1, 3, 1));
    }
}

} // namespace memviz

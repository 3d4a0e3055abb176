// SPDX-License-Identifier: MIT
#include "widgets/PeakMarkers.h"

#include <qcustomplot.h>

#include <algorithm>
#include <cmath>
#include <vector>

#include "words/Units.h"
#include "store/SeriesQuery.h"
#include "store/TraceWriter.h"
#include "widgets/TraceSession.h"

namespace memviz {

QStringList stackBreakdownAt(TraceSession& session, int device, std::int64_t t) {
    std::vector<std::pair<std::int64_t, QString>> parts;
    for (const SeriesInfo& s : session.series()) {
        if (s.device != device || s.style != kSeriesStacked) continue;
        const std::int64_t own = seriesValueAt(session.database(), s.id, t).value_or(0);
        if (own != 0) parts.emplace_back(own, QString::fromStdString(s.name));
    }
    std::stable_sort(parts.begin(), parts.end(), [](const auto& a, const auto& b) { return a.first > b.first; });
    QStringList out;
    for (const auto& [bytes, name] : parts)
        out << QStringLiteral("%1 %2").arg(name, QString::fromStdString(formatBytes(static_cast<double>(bytes))));
    return out;
}

namespace {
// Peaks this close (share of the duration, share of the largest peak) would put their labels
// on top of each other: the later ones go up a lane.
constexpr double kNearInTime = 0.3;
constexpr double kNearInBytes = 0.2;
constexpr int kLaneHeightPx = 17;
constexpr int kMaxLanes = 3;
// A peak this low (share of the largest) is lifted a lane, clear of the band of marked calls
// at the bottom of the plot.
constexpr double kLowPeakShare = 0.08;
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
            if (std::abs(static_cast<double>(other->peakTimeNs - d.peakTimeNs)) <=
                    kNearInTime * static_cast<double>(summary.trace.durationNs) &&
                std::abs(static_cast<double>(other->peakBytes - d.peakBytes)) <= kNearInBytes * static_cast<double>(largest))
                ++lane;
        if (static_cast<double>(d.peakBytes) < kLowPeakShare * static_cast<double>(largest)) lane = std::max(lane, 1);
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

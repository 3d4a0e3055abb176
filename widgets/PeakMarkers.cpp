#include "widgets/PeakMarkers.h"

#include <qcustomplot.h>

#include <algorithm>

#include "core/Units.h"
#include "store/SeriesQuery.h"
#include "store/TraceWriter.h"
#include "widgets/TraceSession.h"

namespace memviz {

QString stackBreakdownAt(TraceSession& session, int device, std::int64_t t) {
    std::vector<std::pair<std::int64_t, QString>> parts;
    for (const SeriesInfo& s : session.series()) {
        if (s.device != device || s.style != kSeriesStacked) continue;
        const std::int64_t own = seriesValueAt(session.database(), s.id, t).value_or(0);
        if (own != 0) parts.emplace_back(own, QString::fromStdString(s.name));
    }
    std::stable_sort(parts.begin(), parts.end(), [](const auto& a, const auto& b) { return a.first > b.first; });
    QStringList lines;
    for (const auto& [bytes, name] : parts)
        lines << QStringLiteral("%1 %2").arg(name, QString::fromStdString(formatBytes(static_cast<double>(bytes))));
    return lines.join(QStringLiteral("\n"));
}

void addPeakMarkers(QCustomPlot* plot, TraceSession& session, const std::function<QString(double)>& xText) {
    const TraceSummary& summary = session.summary();
    for (const DeviceSummary& d : summary.devices) {
        if (d.peakBytes <= 0) continue;
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
        label->position->setCoords(rightHalf ? -6 : 6, -4);
        label->setPositionAlignment((rightHalf ? Qt::AlignRight : Qt::AlignLeft) | Qt::AlignBottom);
        label->setTextAlignment(rightHalf ? Qt::AlignRight : Qt::AlignLeft);
        QString text = QObject::tr("peak %1: %2 at %3")
                           .arg(QString::fromStdString(d.name),
                                QString::fromStdString(formatBytes(static_cast<double>(d.peakBytes))),
                                xText(static_cast<double>(d.peakTimeNs)));
        const QString breakdown = stackBreakdownAt(session, d.device, d.peakTimeNs);
        if (!breakdown.isEmpty()) {
            // A tall label hangs down beside the peak: above it there is no room.
            text += "\n" + breakdown;
            label->position->setCoords(rightHalf ? -10 : 10, 2);
            label->setPositionAlignment((rightHalf ? Qt::AlignRight : Qt::AlignLeft) | Qt::AlignTop);
        }
        label->setText(text);
        label->setColor(QColor(160, 20, 20));
        label->setBrush(QColor(255, 255, 255, 210));
        label->setPadding(QMargins(3, 1, 3, 1));
    }
}

} // namespace memviz

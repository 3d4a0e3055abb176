// SPDX-License-Identifier: MIT
#include "widgets/PeakMarkers.h"

#include <qcustomplot.h>

#include <algorithm>
#include <cmath>
#include <vector>

#include "plot/PlotPeaks.h"
#include "words/Units.h"
#include "store/SeriesQuery.h"
#include "store/TraceWriter.h"
#include "widgets/PlotLabels.h"
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

void addPeakMarkers(QCustomPlot* plot, TraceSession& session, const std::function<QString(double)>& xText, PlotLabels& labels) {
    const TraceSummary& summary = session.summary();
    std::vector<PlotPeak> peaks;
    if (session.isLive()) { // a recording's series are not final: its summary's peaks
        std::int64_t largest = 0;
        for (const DeviceSummary& d : summary.devices) largest = std::max(largest, d.peakBytes);
        for (const DeviceSummary& d : summary.devices)
            if (d.peakBytes > 0)
                peaks.push_back({d.device, d.name, 0, {}, d.peakTimeNs, d.peakBytes,
                                 static_cast<double>(d.peakBytes) < kTinyDeviceShare * static_cast<double>(largest), std::nullopt});
    } else {
        peaks = plotPeaks(session.database(), session.traceId(), summary, session.series());
    }
    const auto addLabel = [&](double x, double y, const QString& text, const QString& shortText, LabelSide side, int priority,
                              const QColor& color, bool xRatio = false, bool yRatio = false) {
        auto* label = new QCPItemText(plot);
        label->setText(text);
        label->setColor(color);
        label->setBrush(QColor(255, 255, 255, 220));
        label->setPadding(QMargins(3, 1, 3, 1));
        label->setSelectable(false);
        labels.add({label, x, y, xRatio, yRatio, false, side, priority, text, shortText, 0});
    };
    const auto addMark = [&](double x, double y, bool hollow) {
        auto* tracer = new QCPItemTracer(plot);
        tracer->position->setCoords(x, y);
        tracer->setStyle(QCPItemTracer::tsCircle);
        tracer->setSize(hollow ? 7 : 8);
        tracer->setPen(QPen(QColor(200, 30, 30), hollow ? 1.5 : 2));
        tracer->setBrush(QColor(255, 255, 255));
        tracer->setSelectable(false);
    };
    const QColor red(160, 20, 20);
    for (const PlotPeak& p : peaks) {
        const QString bytes = QString::fromStdString(formatBytes(static_cast<double>(p.bytes)));
        const QString name = QString::fromStdString(p.deviceName);
        const QString at = xText(static_cast<double>(p.t));
        if (p.tiny) {
            // On an axis scaled for a device 1000 times larger this one is a flat line at 0: a
            // label there would sit on the other device's curve. A note in the corner instead.
            addLabel(1.0, 0.0, QObject::tr("peak %1: %2 at %3 (too small for this axis)").arg(name, bytes, at),
                     QObject::tr("peak %1: %2").arg(name, bytes), LabelSide::Below, 20, red, true, true);
            continue;
        }
        addMark(static_cast<double>(p.t), static_cast<double>(p.bytes), false);
        addLabel(static_cast<double>(p.t), static_cast<double>(p.bytes), QObject::tr("peak %1: %2 at %3").arg(name, bytes, at),
                 QObject::tr("peak %1: %2").arg(name, bytes), LabelSide::Above, 0, red);
        if (p.named) {
            const QString namedBytes = QString::fromStdString(formatBytes(static_cast<double>(p.named->bytes)));
            addMark(static_cast<double>(p.named->t), static_cast<double>(p.named->bytes), true);
            addLabel(static_cast<double>(p.named->t), static_cast<double>(p.named->bytes),
                     QObject::tr("%1: %2 at %3")
                         .arg(QString::fromStdString(p.named->what), namedBytes, xText(static_cast<double>(p.named->t))),
                     QObject::tr("%1: %2").arg(QString::fromStdString(p.named->what), namedBytes), LabelSide::Below, 1, red);
        }
    }
}

} // namespace memviz

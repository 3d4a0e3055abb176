// SPDX-License-Identifier: MIT
#include "widgets/live/LiveTracePanel.h"

#include <set>

#include "formats/live/LiveQueries.h"
#include <qcustomplot.h>

#include "widgets/TimelinePlot.h"
#include "widgets/TraceSession.h"

namespace memviz {

namespace {

QColor phaseColor(const std::string& phase) {
    if (phase == "forward") return QColor(60, 150, 90);
    if (phase == "backward") return QColor(220, 120, 30);
    if (phase == "optimizer") return QColor(130, 90, 200);
    return QColor(120, 120, 120);
}

} // namespace

LiveTracePanel::LiveTracePanel(TraceSession* session, TimelinePlot* timeline, QObject* parent)
    : QObject(parent), session_(session), timeline_(timeline) {
    connect(session_, &TraceSession::traceChanged, this, [this] {
        shownMarkers_ = 0;
        shownEnd_ = -1;
        update();
    });
    connect(session_, &TraceSession::liveAdvanced, this, &LiveTracePanel::update);
    watchTimer_.setInterval(500);
    connect(&watchTimer_, &QTimer::timeout, this, &LiveTracePanel::watch);
    update();
}

void LiveTracePanel::setWatching(bool watching) {
    if (watching) watchTimer_.start();
    else watchTimer_.stop();
}

void LiveTracePanel::watch() {
    if (!session_->isOpen() || !session_->isLive()) return;
    try {
        const auto rec = findLiveRecording(session_->database(), session_->traceId());
        if (rec && !rec->recording()) {
            session_->open(session_->storePath(), session_->traceId()); // finalised meanwhile
            return;
        }
        QCPAxis* x = timeline_->plot()->xAxis;
        const double oldEnd = static_cast<double>(session_->fullRange().end);
        const bool atEnd = x->range().upper >= oldEnd;
        session_->refreshLive();
        const double end = static_cast<double>(session_->fullRange().end);
        if (atEnd && end > oldEnd) x->setRange(x->range().lower, end + (end - x->range().lower) * 0.02);
    } catch (const std::exception&) {
        // The store is busy for a moment: next time.
    }
}

void LiveTracePanel::update() {
    const bool wasActive = active_;
    active_ = session_->isOpen() && findLiveRecording(session_->database(), session_->traceId()).has_value();
    if (!active_) {
        if (wasActive) timeline_->setReadoutExtra({});
        return;
    }
    Database& db = session_->database();
    const std::vector<LiveMarker> markers = listLiveMarkers(db, session_->traceId());
    const qint64 end = session_->fullRange().end;
    // Nothing new: keep the items (rebuilding them on every refresh would flicker).
    if (wasActive && markers.size() == shownMarkers_ && (end == shownEnd_ || markers.empty())) return;
    shownMarkers_ = markers.size();
    shownEnd_ = end;

    std::vector<TimelineMarker> lines;
    std::vector<TimelineRegion> regions;
    const auto spans = livePhaseSpans(markers, end);
    if (static_cast<int>(spans.size()) <= kMaxSpans) {
        // Each phase is named on its first span only: the colours say the rest, and short
        // spans side by side would pile their labels up.
        std::set<std::string> named;
        for (const LivePhaseSpan& s : spans)
            regions.push_back({s.begin, s.end, named.insert(s.phase).second ? QString::fromStdString(s.phase) : QString(),
                               phaseColor(s.phase)});
    }
    std::size_t steps = 0;
    for (const LiveMarker& m : markers) steps += m.kind == "step";
    const std::size_t stepEvery = steps > static_cast<std::size_t>(kMaxSpans) ? steps / kMaxSpans + 1 : 1;
    std::size_t stepIndex = 0;
    for (const LiveMarker& m : markers) {
        const QString label = QString::fromStdString(m.label);
        if (m.kind == "user") lines.push_back({m.t, label, QColor(30, 90, 200)});
        else if (m.kind == "exit") lines.push_back({m.t, label, QColor(200, 30, 30)});
        else if (m.kind == "step" && stepIndex++ % stepEvery == 0)
            lines.push_back({m.t, spans.empty() || regions.empty() ? label : QString(), QColor(110, 110, 110)});
    }
    timeline_->setOverlays(std::move(lines), std::move(regions));
    const bool probe = findLiveRecording(db, session_->traceId())->source == "probe";
    if (probe) {
        TraceSession* session = session_;
        timeline_->setReadoutExtra([session](std::int64_t t) {
            if (!session->isOpen()) return QString();
            const std::string op = liveOpAt(session->database(), session->traceId(), t);
            return op.empty() ? QString() : QObject::tr("operator: %1").arg(QString::fromStdString(op));
        });
    } else {
        timeline_->setReadoutExtra({});
    }
}

} // namespace memviz

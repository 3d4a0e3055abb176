// SPDX-License-Identifier: MIT
#include "widgets/snapshot/SnapshotPanel.h"

#include <QTabWidget>
#include <qcustomplot.h>

#include "words/Units.h"
#include "widgets/TimelinePlot.h"
#include "widgets/TraceSession.h"
#include "widgets/snapshot/ActiveMemoryView.h"
#include "widgets/snapshot/AllocationsView.h"
#include "widgets/snapshot/AllocatorStateView.h"
#include "widgets/snapshot/SnapshotSession.h"
#include "widgets/snapshot/SnapshotSummaryView.h"

namespace memviz {

SnapshotPanel::SnapshotPanel(TraceSession* trace, QTabWidget* tabs, TimelinePlot* timeline, QObject* parent)
    : QObject(parent), trace_(trace), tabs_(tabs), timeline_(timeline), session_(new SnapshotSession(trace, this)),
      allocations_(new AllocationsView(session_, tabs)), active_(new ActiveMemoryView(session_, tabs)),
      state_(new AllocatorStateView(session_, tabs)), summary_(new SnapshotSummaryView(session_, tabs)) {
    allocations_->hide();
    active_->hide();
    state_->hide();
    summary_->hide();
    connect(session_, &SnapshotSession::reloaded, this, &SnapshotPanel::onReloaded);
    connect(session_, &SnapshotSession::momentChanged, this, &SnapshotPanel::onMomentChanged);
    connect(timeline_, &TimelinePlot::timeClicked, session_, &SnapshotSession::setMomentAtTime);
    // Zooming or panning the timeline shows the same window of the active memory.
    connect(timeline_->plot()->xAxis, qOverload<const QCPRange&>(&QCPAxis::rangeChanged), active_,
            [this](const QCPRange& r) { active_->setXRange(r.lower, r.upper); });
    onReloaded();
    onMomentChanged();
}

void SnapshotPanel::onReloaded() {
    const bool active = session_->isActive();
    QWidget* const views[] = {active_, allocations_, state_, summary_};
    const bool shown = tabs_->indexOf(allocations_) >= 0;
    if (active && !shown) {
        tabs_->addTab(active_, tr("Active &Memory"));
        tabs_->addTab(allocations_, tr("&Allocations"));
        tabs_->addTab(state_, tr("Allocator &State"));
        tabs_->addTab(summary_, tr("S&napshot"));
    } else if (!active && shown) {
        for (QWidget* w : views) tabs_->removeTab(tabs_->indexOf(w));
    }
    std::vector<TimelineMarker> markers;
    std::vector<TimelineRegion> regions;
    if (active) {
        const SnapshotOverview& o = session_->overview();
        for (const SnapshotOomRow& oom : o.ooms) {
            QString label = tr("OOM: asked %1").arg(QString::fromStdString(formatBytes(static_cast<double>(oom.requestedBytes))));
            if (oom.deviceFreeBytes)
                label += tr(", %1 free").arg(QString::fromStdString(formatBytes(static_cast<double>(*oom.deviceFreeBytes))));
            markers.push_back({oom.t, label, QColor(200, 30, 30)});
        }
        for (const AnnotationSpan& span : annotationSpans(o.annotations, trace_->summary().trace.durationNs))
            regions.push_back({span.begin, span.end, QString::fromStdString(span.name), QColor(120, 90, 200)});
    }
    timeline_->setOverlays(std::move(markers), std::move(regions));
}

void SnapshotPanel::onMomentChanged() {
    if (!session_->isActive() || !session_->momentTime()) {
        timeline_->setMoment(std::nullopt);
        return;
    }
    timeline_->setMoment(*session_->momentTime(), session_->moment() == session_->peakMoment()
                                                      ? tr("tabs below: the peak")
                                                      : tr("tabs below: entry %L1").arg(session_->moment()));
}

} // namespace memviz

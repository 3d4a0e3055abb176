// SPDX-License-Identifier: MIT
#pragma once
// Wires the snapshot views into the main window: while a CUDA memory snapshot is open, the
// detail tabs gain "Active Memory", "Allocations", "Allocator State" and "Snapshot", and the timeline shows
// OOMs, annotations and the moment the views show (a click on the timeline picks it).
#include <QObject>

class QTabWidget;

namespace memviz {

class ActiveMemoryView;
class AllocationsView;
class AllocatorStateView;
class SnapshotSession;
class SnapshotSummaryView;
class TimelinePlot;
class TraceSession;

class SnapshotPanel : public QObject {
    Q_OBJECT
public:
    SnapshotPanel(TraceSession* trace, QTabWidget* tabs, TimelinePlot* timeline, QObject* parent = nullptr);

    SnapshotSession* session() const { return session_; }
    AllocationsView* allocationsView() const { return allocations_; }
    ActiveMemoryView* activeMemoryView() const { return active_; }
    AllocatorStateView* stateView() const { return state_; }
    SnapshotSummaryView* summaryView() const { return summary_; }

private:
    void onReloaded();
    void onMomentChanged();

    TraceSession* trace_;
    QTabWidget* tabs_;
    TimelinePlot* timeline_;
    SnapshotSession* session_;
    AllocationsView* allocations_;
    ActiveMemoryView* active_;
    AllocatorStateView* state_;
    SnapshotSummaryView* summary_;
};

} // namespace memviz

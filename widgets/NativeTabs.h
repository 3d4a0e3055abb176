// SPDX-License-Identifier: MIT
#pragma once
// The detail tabs for native-profiler traces: "Allocation sites" for heaptrack, "Heap tree"
// for massif. Each is in the main window's tab widget only while a trace of its format is
// open (and then is the current tab); a click on the timeline picks the massif snapshot.
#include <QObject>

class QTabWidget;

namespace memviz {

class AllocationSitesView;
class MassifView;
class TimelinePlot;
class TraceSession;

class NativeTabs : public QObject {
    Q_OBJECT
public:
    NativeTabs(TraceSession* session, QTabWidget* tabs, TimelinePlot* timeline, QObject* parent = nullptr);

    AllocationSitesView* sitesView() const { return sites_; }
    MassifView* massifView() const { return massif_; }

private:
    void update();

    TraceSession* session_;
    QTabWidget* tabs_;
    AllocationSitesView* sites_;
    MassifView* massif_;
};

} // namespace memviz

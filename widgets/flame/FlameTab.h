// SPDX-License-Identifier: MIT
#pragma once
// Puts the Flame tab (FlameView) into the main window's tab widget while a trace is open, last,
// and passes the timeline's moment clicks to it.
#include <QObject>

class QTabWidget;

namespace memviz {

class FlameView;
class TimelinePlot;
class TraceSession;

class FlameTab : public QObject {
    Q_OBJECT
public:
    FlameTab(TraceSession* session, QTabWidget* tabs, TimelinePlot* timeline, QObject* parent = nullptr);
    FlameView* view() const { return view_; }

private:
    void update();

    TraceSession* session_;
    QTabWidget* tabs_;
    FlameView* view_;
};

} // namespace memviz

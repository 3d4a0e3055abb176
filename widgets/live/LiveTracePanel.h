// SPDX-License-Identifier: MIT
#pragma once
// What a live recording adds to a timeline, live or finalised: the user's markers, the
// probe's training steps and phases (forward, backward, optimizer) as shaded spans, the exit,
// and the probe's operator at the hovered time in the read-out. For other traces it leaves
// the timeline alone.
#include <QObject>
#include <QTimer>

namespace memviz {

class TimelinePlot;
class TraceSession;

class LiveTracePanel : public QObject {
    Q_OBJECT
public:
    LiveTracePanel(TraceSession* session, TimelinePlot* timeline, QObject* parent = nullptr);

    // Re-reads the markers (a live recording gains them as it runs).
    void update();
    // For a window that only watches a store another memviz records into: re-read it every
    // half second, keep the view at the end when it was there, and show the finalised trace
    // once the recording ends. (A live window's own session does this itself.)
    void setWatching(bool watching);
    bool active() const { return active_; }

    // More phase spans than this are not drawn (a long run would bury the series under
    // thousands of bands); steps are thinned to as many markers.
    static constexpr int kMaxSpans = 240;

private:
    void watch();

    TraceSession* session_;
    QTimer watchTimer_;
    TimelinePlot* timeline_;
    bool active_ = false;
    std::size_t shownMarkers_ = 0;
    qint64 shownEnd_ = -1;
};

} // namespace memviz

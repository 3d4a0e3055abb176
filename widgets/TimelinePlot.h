#pragma once
// Memory over time, fed from the level-of-detail pyramid for the visible range and pixel
// width: a step line per device's allocated bytes (dashed: reserved), or a stacked chart
// when the trace has stacked series (memory categories). Wheel zooms and drag pans the time axis; Shift+drag
// (or right-drag) selects a time window; the peak is marked; hovering reads out exact values.
#include <QPointer>
#include <QTimer>
#include <QWidget>
#include <vector>

#include "store/SeriesQuery.h"

class QCustomPlot;
class QCPGraph;
class QCPItemRect;
class QCPItemStraightLine;
class QCPItemText;
class QMouseEvent;
class QWheelEvent;

namespace memviz {

class CallSpanOverlay;
class ScaledAxisTicker;
class TraceSession;

class TimelinePlot : public QWidget {
    Q_OBJECT
public:
    explicit TimelinePlot(TraceSession* session, QWidget* parent = nullptr);
    ~TimelinePlot() override;

    QCustomPlot* plot() const { return plot_; }
    // Shows the whole trace.
    void resetZoom();
    // Redraws now instead of on the next event loop turn (screenshots, tests).
    void refreshNow();
    CallSpanOverlay* callSpans() const { return overlay_; }
    // Pyramid level behind the last redraw of each series (0 = raw points).
    const std::vector<int>& lastLevels() const { return lastLevels_; }
    // Points handed to the plot in the last redraw, all series together.
    int lastPointCount() const { return lastPointCount_; }
    // The hover read-out for a time (also shown on the plot while the mouse moves).
    QString readoutAt(std::int64_t t);

signals:
    void hoverTextChanged(const QString& text);

protected:
    void keyPressEvent(QKeyEvent* event) override;

private:
    void rebuild();
    void scheduleRefresh();
    void refreshData();
    void updateAxisLabels();
    void updateSelectionItem();
    void onMousePress(QMouseEvent* event);
    void onMouseMove(QMouseEvent* event);
    void onMouseRelease(QMouseEvent* event);

    TraceSession* session_;
    QCustomPlot* plot_;
    QSharedPointer<ScaledAxisTicker> timeTicker_;
    QSharedPointer<ScaledAxisTicker> bytesTicker_;
    std::vector<QCPGraph*> graphs_;
    std::vector<std::int64_t> seriesIds_;
    std::vector<int> lastLevels_;
    int lastPointCount_ = 0;
    QCPItemRect* selectionRect_ = nullptr;
    QCPItemStraightLine* cursorLine_ = nullptr;
    QCPItemText* readout_ = nullptr;
    CallSpanOverlay* overlay_ = nullptr;
    QTimer refreshTimer_;
    bool selecting_ = false;
    double selectStart_ = 0;
    bool refreshing_ = false;
};

} // namespace memviz

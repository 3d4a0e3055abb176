#pragma once
// Live bytes over time, one step line per device, fed from the level-of-detail pyramid for
// the visible range and pixel width. Wheel zooms and drag pans the time axis; Shift+drag
// (or right-drag) selects a time window; the peak is marked; hovering reads out exact values.
#include <QColor>
#include <QPointer>
#include <QString>
#include <QTimer>
#include <QWidget>
#include <optional>
#include <vector>

#include "store/SeriesQuery.h"

class QCustomPlot;
class QCPGraph;
class QCPItemRect;
class QCPItemStraightLine;
class QCPItemText;
class QCPAbstractItem;
class QMouseEvent;
class QWheelEvent;

namespace memviz {

class ScaledAxisTicker;
class TraceSession;

// A vertical line with a label at a time (e.g. an out-of-memory event).
struct TimelineMarker {
    std::int64_t t = 0;
    QString label;
    QColor color;
};

// A labelled time span (e.g. an annotation of the recorded program).
struct TimelineRegion {
    std::int64_t begin = 0, end = 0;
    QString label;
    QColor color;
};

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
    // Pyramid level behind the last redraw of each series (0 = raw points).
    const std::vector<int>& lastLevels() const { return lastLevels_; }
    // Points handed to the plot in the last redraw, all series together.
    int lastPointCount() const { return lastPointCount_; }
    // The hover read-out for a time (also shown on the plot while the mouse moves).
    QString readoutAt(std::int64_t t);

    // Format-specific marks drawn over the series; they stay until replaced.
    void setOverlays(std::vector<TimelineMarker> markers, std::vector<TimelineRegion> regions);
    // The moment other views show (a dashed line), or none.
    void setMoment(std::optional<std::int64_t> t, const QString& label = {});
    const std::vector<TimelineMarker>& markers() const { return markers_; }
    const std::vector<TimelineRegion>& regions() const { return regions_; }

signals:
    void hoverTextChanged(const QString& text);
    // A plain left click (no drag) at time t.
    void clicked(std::int64_t t);

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
    void createOverlayItems();
    // A position on the time axis as text: a duration, or an event number.
    QString positionText(std::int64_t t) const;

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
    QTimer refreshTimer_;
    bool selecting_ = false;
    double selectStart_ = 0;
    bool refreshing_ = false;
    double pressX_ = -1;
    std::vector<TimelineMarker> markers_;
    std::vector<TimelineRegion> regions_;
    std::optional<std::int64_t> moment_;
    QString momentLabel_;
    std::vector<QCPAbstractItem*> overlayItems_;
};

} // namespace memviz

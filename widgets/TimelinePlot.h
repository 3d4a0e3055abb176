// SPDX-License-Identifier: MIT
#pragma once
// Memory over time, fed from the level-of-detail pyramid for the visible range and pixel
// width: step lines per series (dashed: reserved, or non-byte units on the right axis), or
// stacked areas for stacked series (memory categories, massif heap/extra/stacks). Wheel zooms
// and drag pans the time axis; Shift+drag (or right-drag) selects a time window; the peak is
// marked; hovering reads out exact values in a line above the plot (never over the data or
// the labels), and the read-out goes when the pointer leaves or the trace changes.
#include <QColor>
#include <QPen>
#include <QPointer>
#include <QString>
#include <QTimer>
#include <QWidget>
#include <functional>
#include <optional>
#include <vector>

#include "store/SeriesQuery.h"
#include "widgets/PlotLabels.h"
#include "widgets/TraceAxis.h"

class QCustomPlot;
class QCPGraph;
class QCPItemRect;
class QCPItemStraightLine;
class QCPItemText;
class QCPTextElement;
class QCPAbstractItem;
class QMouseEvent;
class QWheelEvent;

namespace memviz {

class BackgroundQuery;
class CallSpanOverlay;
class NoMemoryNotice;
struct TimelineData;
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
    // Reads the data for the range shown now (on a worker) instead of on the next event loop
    // turn; refreshNow() also waits for it and applies it (screenshots, tests).
    void refresh();
    void refreshNow();
    // Marks the calls of the operator the session highlights.
    CallSpanOverlay* callSpans() const { return overlay_; }
    // Pyramid level behind the last redraw of each series (0 = raw points).
    const std::vector<int>& lastLevels() const { return lastLevels_; }
    // Points handed to the plot in the last redraw, all series together.
    int lastPointCount() const { return lastPointCount_; }
    // The hover read-out for a time (also shown above the plot while the mouse moves).
    QString readoutAt(std::int64_t t);
    // What the read-out line above the plot shows now ("" when the pointer is not over it).
    QString shownReadout() const { return shownReadout_; }
    // Hides the hover read-out and cursor line (the pointer left, the trace changed).
    void clearHover();

    // Format-specific marks drawn over the series; they stay until replaced.
    void setOverlays(std::vector<TimelineMarker> markers, std::vector<TimelineRegion> regions);
    // The moment other views show (a dashed line), or none.
    void setMoment(std::optional<std::int64_t> t, const QString& label = {});
    const std::vector<TimelineMarker>& markers() const { return markers_; }
    const std::vector<TimelineRegion>& regions() const { return regions_; }
    // A line the hover read-out adds for a time (e.g. the probe's operator running then);
    // empty text adds nothing. Stays until replaced.
    void setReadoutExtra(std::function<QString(std::int64_t)> extra);

signals:
    void hoverTextChanged(const QString& text);
    // A plain left click (no drag) at this x, e.g. to pick the massif snapshot there.
    void timeClicked(std::int64_t x);

protected:
    void keyPressEvent(QKeyEvent* event) override;
    bool eventFilter(QObject* watched, QEvent* event) override;

private:
    void rebuild();
    void scheduleRefresh();
    void refreshData();
    void applyData(TimelineData read, int columns);
    void updateAxisLabels();
    void updateSelectionItem();
    void onMousePress(QMouseEvent* event);
    void onMouseMove(QMouseEvent* event);
    void onMouseRelease(QMouseEvent* event);
    void createOverlayItems();
    // Sizes the read-out line for the series shown, so hovering never moves the plot.
    void resetReadoutLine();
    // Shows the read-out, or the caption of the marked calls, in the line above the plot.
    void updateLine();
    void onLayoutDone();

    TraceSession* session_;
    QCustomPlot* plot_;
    QSharedPointer<ScaledAxisTicker> timeTicker_;
    QSharedPointer<ScaledAxisTicker> bytesTicker_;
    QSharedPointer<ScaledAxisTicker> otherTicker_; // the second value axis (rates, counts)
    std::vector<QCPGraph*> graphs_;
    std::vector<QPen> pens_; // each graph's pen as chosen; densityPen narrows it on dense data
    std::vector<std::int64_t> seriesIds_;
    // Per graph: -2 = not stacked, -1 = bottom of a stack, else the graph it stacks on.
    std::vector<int> stackedOn_;
    XKind xKind_ = XKind::Time;
    std::vector<int> lastLevels_;
    int lastPointCount_ = 0;
    // Pixel columns the last refresh asked the pyramid for; a layout that changes the plot's
    // width asks again (the first layout of a new trace does: legend and axis labels).
    int lastColumns_ = 0;
    int lastHeight_ = 0; // and the height the value axis' headroom was computed for
    int layoutRefreshes_ = 0;
    QCPItemRect* selectionRect_ = nullptr;
    QCPItemStraightLine* cursorLine_ = nullptr;
    QCPTextElement* readout_ = nullptr;
    QString shownReadout_;
    QString readoutBlank_;
    QString peakBreakdown_; // stacked charts: the categories at the peak
    CallSpanOverlay* overlay_ = nullptr;
    NoMemoryNotice* notice_ = nullptr; // instead of the plot when the trace has no memory series
    QTimer refreshTimer_;
    BackgroundQuery* refreshQuery_ = nullptr; // the store is read on a worker
    // While a selection is dragged the rectangle follows the mouse at once; the session (and
    // with it the tables' queries) gets the range when the drag pauses or ends.
    QTimer selectionTimer_;
    double selectEnd_ = 0;
    void commitDraggedSelection();
    bool selecting_ = false;
    bool clickCandidate_ = false;
    QPointF pressPos_;
    double selectStart_ = 0;
    bool refreshing_ = false;
    std::vector<TimelineMarker> markers_;
    std::vector<TimelineRegion> regions_;
    std::optional<std::int64_t> moment_;
    QString momentLabel_;
    std::vector<QCPAbstractItem*> overlayItems_;
    // Every text on the chart (peaks, annotations, the moment, regions, notes), placed by the
    // one rule (PlotLabels.h) whenever the axes or the layout change.
    PlotLabels labels_;
    static constexpr int kPeakLabels = 0, kOverlayLabels = 1;
    void layOutLabels();

public:
    // For tests and screenshots: the boxes of the texts drawn, and the plot area they must fit in.
    const PlotLabels& plotLabels() const { return labels_; }

private:
    std::function<QString(std::int64_t)> readoutExtra_;
};

} // namespace memviz

// SPDX-License-Identifier: MIT
#pragma once
// The active memory timeline of a CUDA memory snapshot, as memory_viz draws it: every
// allocation a band from its allocation to its free, stacked in allocation order, coloured by
// call site; the smaller ones summed in grey on top. Hovering names the allocation; a click
// shows its stack and moves the other snapshot tabs to that moment.
#include <QWidget>

#include <optional>
#include <utility>
#include <vector>

#include "trace/ActiveMemoryLayout.h"
#include "widgets/BackgroundQuery.h"

class QCPItemStraightLine;
class QCustomPlot;
class QLabel;
class QMouseEvent;

namespace memviz {

class AllocationBands;
class ScaledAxisTicker;
class SnapshotSession;
class StackPane;

class ActiveMemoryView : public QWidget {
    Q_OBJECT
public:
    // Allocations that get a band of their own; the rest are summed.
    static constexpr std::size_t kMaxBands = 3000;

    explicit ActiveMemoryView(SnapshotSession* session, QWidget* parent = nullptr);
    ~ActiveMemoryView() override;

    // The layout is computed off the GUI thread when a snapshot opens; this waits for it.
    void waitForLayout();

    QCustomPlot* plot() const { return plot_; }
    AllocationBands* bands() const { return bands_; }
    QCPItemStraightLine* momentLine() const { return momentLine_; }
    // "1,204 allocations as bands (≥ 2.00 MiB); 3,310 smaller ones summed in grey".
    QString headline() const;
    // Shows [lower, upper] of the axis (the main timeline's window follows into this view).
    void setXRange(double lower, double upper);
    // The allocation row (of the session's allocations) under a plot pixel, if any.
    std::optional<std::size_t> allocationAt(const QPointF& pixel) const;
    // The band under a plot pixel, if any.
    std::optional<std::size_t> bandUnder(const QPointF& pixel) const;

private:
    // What the worker returns: the layout (a band's span is its allocation row) and, per
    // band, its call site.
    struct Computed {
        ActiveLayout layout;
        std::vector<std::int32_t> sites;
        std::vector<std::pair<std::int64_t, std::int64_t>> blocks; // AllocationBands::summaryBlocksOf
    };
    void rebuild();
    void applyLayout(Computed c);
    void showMoment(); // the other tabs' moment as a dashed line
    void updateAxes();
    void onMouseMove(QMouseEvent* event);
    void onClick(QMouseEvent* event);
    QString describe(std::size_t row) const;

    SnapshotSession* session_;
    QLabel* headline_;
    QCustomPlot* plot_;
    // The window the timeline shows (setXRange); a layout that lands later keeps it.
    std::optional<std::pair<double, double>> followedX_;
    AllocationBands* bands_;
    StackPane* stack_;
    ScaledAxisTicker* timeTicker_;
    ScaledAxisTicker* bytesTicker_;
    QCPItemStraightLine* momentLine_;
    BackgroundQuery layoutJob_; // stacking the allocations, off the GUI thread
};

} // namespace memviz

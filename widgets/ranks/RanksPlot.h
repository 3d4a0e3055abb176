// SPDX-License-Identifier: MIT
#pragma once
// The Ranks window's chart (issue 13): one lane per rank of a distributed job, small multiples
// on one shared time axis (each trace shifted by its wall-clock start, model/ranks/RankSet.h)
// and one shared bytes scale, so lanes compare at a glance; each lane's peak is marked. Zoom
// and pan (wheel, drag) move every lane together; Shift+drag or right-drag selects a time
// window, drawn in every lane; double-click or Esc clears it. Draws what it is given; reads
// nothing.
#include <QSharedPointer>
#include <QWidget>
#include <optional>
#include <utility>
#include <vector>

#include "ranks/RankSet.h"

class QCustomPlot;
class QCPAxisRect;
class QCPGraph;
class QCPItemRect;
class QCPItemText;
class QMouseEvent;

namespace memviz {

class ScaledAxisTicker;

class RanksPlot : public QWidget {
    Q_OBJECT
public:
    explicit RanksPlot(QWidget* parent = nullptr);
    void show(const RankSet& set);
    void resetZoom();
    // The selected window on the shared axis (ns from the earliest rank's start).
    std::optional<std::pair<double, double>> selection() const { return selection_; }
    void setSelection(std::optional<std::pair<double, double>> range);
    // Draws lane `lane` (a row of the set) thicker; -1: none.
    void highlight(int lane);

    QCustomPlot* plot() const { return plot_; }
    int laneCount() const { return static_cast<int>(lanes_.size()); }
    QCPAxisRect* lane(int i) const { return lanes_[static_cast<std::size_t>(i)].rect; }
    QCPGraph* graph(int i) const { return lanes_[static_cast<std::size_t>(i)].graph; }

signals:
    void selectionChanged();

protected:
    void keyPressEvent(QKeyEvent* event) override;

private:
    struct Lane {
        QCPAxisRect* rect = nullptr;
        QCPGraph* graph = nullptr;
        QCPItemRect* band = nullptr;
        QCPItemText* peakLabel = nullptr;
        double peakX = 0;
    };
    void syncX(const QCPAxisRect* from);
    void updateAxes();
    void drawSelection();
    void onPress(QMouseEvent* event);
    void onMove(QMouseEvent* event);
    void onRelease();

    QCustomPlot* plot_;
    std::vector<Lane> lanes_;
    QSharedPointer<ScaledAxisTicker> timeTicker_;
    QSharedPointer<ScaledAxisTicker> bytesTicker_;
    double xMin_ = 0, xMax_ = 1, yMax_ = 1;
    std::optional<std::pair<double, double>> selection_;
    bool selecting_ = false;
    double selectFrom_ = 0;
    bool syncing_ = false;
    bool wallClock_ = false; // the lanes are lined up by the traces' clock (else at their starts)
};

} // namespace memviz

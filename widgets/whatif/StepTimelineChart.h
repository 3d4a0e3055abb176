// SPDX-License-Identifier: MIT
#pragma once
// The projected timeline of one step: live memory after every simulated op, stacked by
// category, with the phases marked, the memory limit as a line and the peak labelled. When
// calibrated on a trace, the recorded timeline and its projection are drawn on a second
// (time) axis.
#include <QWidget>
#include <optional>
#include <vector>

#include "costmodel/CostModel.h"

class QCustomPlot;
class QCPGraph;
class QCPItemStraightLine;
class QCPItemText;

namespace memviz {

class ScaledAxisTicker;

class StepTimelineChart : public QWidget {
    Q_OBJECT
public:
    explicit StepTimelineChart(QWidget* parent = nullptr);

    void setEstimate(const costmodel::Estimate& estimate, std::optional<std::int64_t> limit);
    // Recorded (measured) and projected timelines, (t ns, bytes); empty hides them.
    void setRecorded(const std::vector<std::pair<std::int64_t, std::int64_t>>& recorded,
                     const std::vector<std::pair<std::int64_t, std::int64_t>>& projected);
    QCustomPlot* plot() const { return plot_; }
    int pointCount() const; // points drawn per category (after thinning long timelines)

private:
    void updateRanges();
    // The y range's top as a multiple of the highest point.
    double headroom() const;

    QCustomPlot* plot_;
    std::vector<QCPGraph*> layers_;
    QCPGraph* recorded_;
    QCPGraph* projected_;
    std::vector<QCPItemStraightLine*> phaseLines_;
    std::vector<QCPItemText*> phaseLabels_;
    QCPItemStraightLine* limitLine_;
    QCPItemText* limitLabel_;
    QCPItemText* peakLabel_;
    QSharedPointer<ScaledAxisTicker> bytesTicker_, timeTicker_;
    std::optional<std::int64_t> limit_;
    double top_ = 1;
    double rangedTop_ = 1; // the highest point the y range holds (estimate, recording, limit)
};

} // namespace memviz

// SPDX-License-Identifier: MIT
#pragma once
// Stacked bars of memory by category (QCPBars stacked with moveAbove): the modelled peak and,
// when calibrated on a trace, the recorded and the projected peaks; the memory limit as a line.
#include <QString>
#include <QWidget>
#include <optional>
#include <vector>

#include "costmodel/Types.h"

class QCustomPlot;
class QCPBars;
class QCPItemStraightLine;
class QCPItemText;

namespace memviz {

class ScaledAxisTicker;

class BreakdownChart : public QWidget {
    Q_OBJECT
public:
    struct Bar {
        QString label;
        costmodel::CategoryBytes parts{};
        std::int64_t unattributed = 0; // recorded bytes without a category
    };
    explicit BreakdownChart(QWidget* parent = nullptr);

    void setBars(const std::vector<Bar>& bars, std::optional<std::int64_t> limit);
    QCustomPlot* plot() const { return plot_; }
    // The stacked value of `category` in bar `bar` (for tests).
    double value(int bar, costmodel::Category category) const;
    double unattributed(int bar) const;
    int barCount() const { return static_cast<int>(bars_.size()); }

private:
    QCustomPlot* plot_;
    std::vector<QCPBars*> layers_; // one per category, then the unattributed layer
    QCPItemStraightLine* limitLine_;
    QCPItemText* limitLabel_;
    QSharedPointer<ScaledAxisTicker> ticker_;
    std::vector<Bar> bars_;
};

} // namespace memviz

// SPDX-License-Identifier: MIT
#pragma once
// The Ranks window's chart for many ranks (issue 55: a gathered job of hundreds or thousands of
// ranks, where a lane each would be a pixel tall): one thin row per rank on the shared time
// axis, each rank's bytes as a shade (light at 0, dark blue at the set's largest peak), drawn
// once from the rows' summary curves into an image of a row per rank and a thousand columns
// (bounded work, whatever the traces held) and scaled to the widget. Click a row to choose that
// rank, double-click to open it. Draws what it is given; reads nothing.
#include <QImage>
#include <QWidget>

#include "ranks/RankSet.h"

namespace memviz {

class RanksHeatmap : public QWidget {
    Q_OBJECT
public:
    explicit RanksHeatmap(QWidget* parent = nullptr);
    void show(const RankSet& set);
    // Marks row `row` of the set (-1: none).
    void highlight(int row);
    const QImage& image() const { return image_; }
    // The set's row under widget position `y` (-1 outside the rows).
    int rowAt(int y) const;

signals:
    void rowClicked(int row);
    void rowActivated(int row);

protected:
    void paintEvent(QPaintEvent* event) override;
    void mousePressEvent(QMouseEvent* event) override;
    void mouseDoubleClickEvent(QMouseEvent* event) override;

private:
    QRect imageRect() const;

    QImage image_;
    QStringList names_;
    std::int64_t t0_ = 0, t1_ = 1;
    std::int64_t maxPeak_ = 0;
    int highlighted_ = -1;
};

} // namespace memviz

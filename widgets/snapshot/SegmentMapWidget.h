// SPDX-License-Identifier: MIT
#pragma once
// The allocator's segments drawn as bars, largest first, packed into rows to the scale of the
// largest one, with their blocks inside: allocated (a colour per block), pending free (red),
// free (white). The selected segment is also drawn full width above the map. Hovering tells
// what is under the mouse; clicking a block selects it.
#include <QWidget>
#include <optional>
#include <vector>

#include "trace/AllocatorState.h"

namespace memviz {

struct StackCatalog;

class SegmentMapWidget : public QWidget {
    Q_OBJECT
public:
    explicit SegmentMapWidget(QWidget* parent = nullptr);

    void setState(const std::vector<StateSegment>* segments, const StackCatalog* stacks);
    void setSelectedSegment(std::optional<std::size_t> index);
    std::optional<std::size_t> selectedSegment() const { return selected_; }

    bool hasHeightForWidth() const override { return true; }
    int heightForWidth(int width) const override;
    QSize sizeHint() const override;
    // What is under a point: tooltip text (empty when nothing).
    QString describeAt(const QPoint& p) const;

    static QColor blockColor(const StateBlock& b);

signals:
    void segmentClicked(std::size_t index);
    void blockClicked(std::size_t segment, std::size_t block);

protected:
    void paintEvent(QPaintEvent* event) override;
    void mouseMoveEvent(QMouseEvent* event) override;
    void mousePressEvent(QMouseEvent* event) override;
    void resizeEvent(QResizeEvent* event) override;

private:
    struct Placed {
        std::size_t segment;
        QRectF rect;
    };
    void layoutBars(int width);
    void drawSegment(QPainter& p, const StateSegment& s, const QRectF& r, bool highlighted) const;
    // (segment, block or -1) under a point.
    std::optional<std::pair<std::size_t, long>> hit(const QPoint& p) const;
    QRectF detailRect() const;

    const std::vector<StateSegment>* segments_ = nullptr;
    const StackCatalog* stacks_ = nullptr;
    std::vector<Placed> placed_;
    std::optional<std::size_t> selected_;
    int laidOutWidth_ = -1;
    int contentHeight_ = 0;
};

} // namespace memviz

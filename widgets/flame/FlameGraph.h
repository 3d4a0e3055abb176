// SPDX-License-Identifier: MIT
#pragma once
// The flame graph itself: a QWidget that paints a call tree (model/trace/StackTree) as an
// icicle, the root on top (or, with setFlame(true), a flame with the root at the bottom).
// Widths are inclusive values relative to the frame zoomed into; frames narrower than a
// pixel are not laid out, so painting and hit-testing cost what is on screen. Hover shows a
// tooltip (frame, file:line, module, inclusive and self value and percent), a click zooms
// into a frame, Escape, Backspace or the mouse's Back button go up one zoom step. Frames
// that setMatches() marks are highlighted. Building the tree and searching it happen off the
// GUI thread (FlameView).
#include <QWidget>
#include <memory>
#include <vector>

#include "trace/StackTree.h"

namespace memviz {

class FlameGraph : public QWidget {
    Q_OBJECT
public:
    explicit FlameGraph(QWidget* parent = nullptr);

    // `bytes`: values are bytes (else counts).
    void setTree(std::shared_ptr<const StackTree> tree, bool bytes);
    const StackTree* tree() const { return tree_.get(); }
    // By node id: nonzero for the nodes a search matched (empty: no search).
    void setMatches(std::vector<char> matches);
    void setFlame(bool flame);
    bool isFlame() const { return flame_; }

    std::int32_t hovered() const { return hovered_; }
    std::int32_t zoomRoot() const { return zoom_.empty() ? 0 : zoom_.back(); }
    void zoomInto(std::int32_t node);
    // One step up; false when already at the root.
    bool zoomOut();
    void resetZoom();

    // The node painted at a point (-1: none); valid after the widget has its size.
    std::int32_t nodeAt(const QPoint& p) const;
    // The rectangle of a node, empty when it is not laid out (too narrow, or outside the zoom).
    QRect nodeRect(std::int32_t node) const;
    QString tooltipText(std::int32_t node) const;
    QString valueText(std::int64_t v) const;

    static constexpr int kRowHeight = 18;
    QSize sizeHint() const override { return {800, 400}; }

signals:
    void zoomChanged(std::int32_t node);
    void hoveredChanged(std::int32_t node);

protected:
    void paintEvent(QPaintEvent* event) override;
    void resizeEvent(QResizeEvent* event) override;
    void mouseMoveEvent(QMouseEvent* event) override;
    void mouseReleaseEvent(QMouseEvent* event) override;
    void leaveEvent(QEvent* event) override;
    void keyPressEvent(QKeyEvent* event) override;
    bool event(QEvent* event) override;

private:
    struct Box {
        std::int32_t node;
        QRectF rect;
    };
    void layoutBoxes();
    QColor colorFor(std::int32_t node) const;
    void updateMinimumHeight();

    std::shared_ptr<const StackTree> tree_;
    bool bytes_ = true;
    bool flame_ = false;
    std::vector<std::int32_t> zoom_; // zoom history; empty = the root
    std::vector<char> matches_;
    std::vector<Box> boxes_; // laid out for the current size and zoom, parents before children
    std::int32_t hovered_ = -1;
};

} // namespace memviz

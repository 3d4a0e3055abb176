// SPDX-License-Identifier: MIT
#include "widgets/flame/FlameGraph.h"

#include <QHelpEvent>
#include <QKeyEvent>
#include <QLocale>
#include <QMouseEvent>
#include <QPainter>
#include <QToolTip>
#include <algorithm>

#include "words/Units.h"

namespace memviz {

FlameGraph::FlameGraph(QWidget* parent) : QWidget(parent) {
    setMouseTracking(true);
    setFocusPolicy(Qt::StrongFocus);
    setAttribute(Qt::WA_OpaquePaintEvent);
}

void FlameGraph::setTree(std::shared_ptr<const StackTree> tree, bool bytes) {
    tree_ = std::move(tree);
    bytes_ = bytes;
    zoom_.clear();
    matches_.clear();
    hovered_ = -1;
    updateMinimumHeight();
    layoutBoxes();
    update();
    emit zoomChanged(0);
}

void FlameGraph::setMatches(std::vector<char> matches) {
    matches_ = std::move(matches);
    update();
}

void FlameGraph::setFlame(bool flame) {
    if (flame_ == flame) return;
    flame_ = flame;
    layoutBoxes();
    update();
}

void FlameGraph::zoomInto(std::int32_t node) {
    if (!tree_ || node < 0 || static_cast<std::size_t>(node) >= tree_->nodes.size() || node == zoomRoot()) return;
    if (node == 0) {
        resetZoom();
        return;
    }
    zoom_.push_back(node);
    layoutBoxes();
    update();
    emit zoomChanged(node);
}

bool FlameGraph::zoomOut() {
    if (zoom_.empty()) return false;
    zoom_.pop_back();
    layoutBoxes();
    update();
    emit zoomChanged(zoomRoot());
    return true;
}

void FlameGraph::resetZoom() {
    if (zoom_.empty()) return;
    zoom_.clear();
    layoutBoxes();
    update();
    emit zoomChanged(0);
}

void FlameGraph::updateMinimumHeight() { setMinimumHeight(tree_ ? (tree_->maxDepth() + 1) * kRowHeight : 0); }

void FlameGraph::layoutBoxes() {
    boxes_.clear();
    if (!tree_ || width() <= 0) return;
    const auto& nodes = tree_->nodes;
    const double w = width();
    const auto rowTop = [&](int depth) {
        return flame_ ? height() - (depth + 1) * kRowHeight : depth * kRowHeight;
    };
    // The zoomed frame and its callers span the whole width.
    const std::int32_t zoomNode = zoomRoot();
    std::vector<std::int32_t> chain{0};
    const std::vector<std::int32_t> path = tree_->pathTo(zoomNode);
    chain.insert(chain.end(), path.begin(), path.end());
    for (std::int32_t n : chain)
        boxes_.push_back({n, QRectF(0, rowTop(nodes[static_cast<std::size_t>(n)].depth), w, kRowHeight)});
    const double total = static_cast<double>(nodes[static_cast<std::size_t>(zoomNode)].inclusive);
    if (total <= 0) return;
    // Breadth-first below the zoomed frame; a frame under a pixel wide is not laid out.
    std::size_t next = boxes_.size() - 1;
    while (next < boxes_.size()) {
        const Box parent = boxes_[next++];
        double x = parent.rect.left();
        for (std::int32_t c : nodes[static_cast<std::size_t>(parent.node)].children) {
            const StackNode& child = nodes[static_cast<std::size_t>(c)];
            const double cw = static_cast<double>(child.inclusive) / total * w;
            if (cw < 1.0) break; // children are sorted largest first
            boxes_.push_back({c, QRectF(x, rowTop(child.depth), cw, kRowHeight)});
            x += cw;
        }
    }
}

std::int32_t FlameGraph::nodeAt(const QPoint& p) const {
    for (const Box& b : boxes_)
        if (b.rect.contains(p)) return b.node;
    return -1;
}

QRect FlameGraph::nodeRect(std::int32_t node) const {
    for (const Box& b : boxes_)
        if (b.node == node) return b.rect.toRect();
    return {};
}

QString FlameGraph::valueText(std::int64_t v) const {
    return bytes_ ? QString::fromStdString(formatBytes(static_cast<double>(v))) : QLocale().toString(static_cast<qlonglong>(v));
}

QString FlameGraph::tooltipText(std::int32_t node) const {
    if (!tree_ || node < 0) return {};
    const StackNode& n = tree_->nodes[static_cast<std::size_t>(node)];
    const double total = static_cast<double>(std::max<std::int64_t>(tree_->total(), 1));
    QString text;
    if (const StackFrameInfo* f = tree_->frameOf(node)) {
        text = "<b>" + QString::fromStdString(f->function).toHtmlEscaped() + "</b>";
        if (!f->file.empty())
            text += "<br>" + QString::fromStdString(f->file).toHtmlEscaped() + (f->line > 0 ? ":" + QString::number(f->line) : QString());
        if (!f->module.empty()) text += "<br>" + tr("in %1").arg(QString::fromStdString(f->module).toHtmlEscaped());
    } else {
        text = "<b>" + tr("All stacks") + "</b>";
    }
    text += "<br>" + tr("Inclusive: %1 (%2%)").arg(valueText(n.inclusive)).arg(100.0 * static_cast<double>(n.inclusive) / total, 0, 'f', 1);
    text += "<br>" + tr("Self: %1 (%2%)").arg(valueText(n.self)).arg(100.0 * static_cast<double>(n.self) / total, 0, 'f', 1);
    return text;
}

QColor FlameGraph::colorFor(std::int32_t node) const {
    if (node == 0) return QColor(200, 200, 200);
    if (!matches_.empty()) {
        if (matches_[static_cast<std::size_t>(node)]) return QColor(200, 80, 220);
    }
    const std::size_t h = std::hash<std::string>()(tree_->frameAt(node).function);
    QColor c = QColor::fromHsv(static_cast<int>(h % 50), 150 + static_cast<int>((h >> 8) % 80), 230 + static_cast<int>((h >> 16) % 25));
    if (!matches_.empty()) c = c.lighter(115); // de-emphasise what the search did not match
    return c;
}

void FlameGraph::paintEvent(QPaintEvent* event) {
    QPainter p(this);
    p.fillRect(rect(), palette().base());
    if (!tree_) return;
    const QRect dirty = event->rect();
    const QFontMetrics fm = p.fontMetrics();
    for (const Box& b : boxes_) {
        if (!b.rect.intersects(dirty)) continue;
        const QRectF r = b.rect.adjusted(0, 0, -1, -1);
        p.fillRect(r, colorFor(b.node));
        if (b.node == hovered_) {
            p.setPen(QPen(Qt::black, 1));
            p.drawRect(r);
        }
        if (r.width() < 24) continue;
        const StackFrameInfo* f = tree_->frameOf(b.node);
        const QString label = f ? QString::fromStdString(frameLabel(*f))
                                : tr("all (%1)").arg(valueText(tree_->nodes[0].inclusive));
        p.setPen(Qt::black);
        p.drawText(r.adjusted(3, 0, -2, 0), Qt::AlignVCenter | Qt::AlignLeft,
                   fm.elidedText(label, Qt::ElideRight, static_cast<int>(r.width()) - 5));
    }
}

void FlameGraph::resizeEvent(QResizeEvent* event) {
    QWidget::resizeEvent(event);
    layoutBoxes();
}

void FlameGraph::mouseMoveEvent(QMouseEvent* event) {
    const std::int32_t n = nodeAt(event->position().toPoint());
    if (n != hovered_) {
        hovered_ = n;
        update();
        emit hoveredChanged(n);
    }
}

void FlameGraph::leaveEvent(QEvent* event) {
    QWidget::leaveEvent(event);
    if (hovered_ >= 0) {
        hovered_ = -1;
        update();
        emit hoveredChanged(-1);
    }
}

void FlameGraph::mouseReleaseEvent(QMouseEvent* event) {
    if (event->button() == Qt::BackButton) {
        zoomOut();
        return;
    }
    if (event->button() != Qt::LeftButton) return;
    const std::int32_t n = nodeAt(event->position().toPoint());
    if (n >= 0) zoomInto(n);
}

void FlameGraph::keyPressEvent(QKeyEvent* event) {
    if (event->key() == Qt::Key_Escape || event->key() == Qt::Key_Backspace || event->key() == Qt::Key_Back) {
        if (zoomOut()) {
            event->accept();
            return;
        }
    }
    QWidget::keyPressEvent(event);
}

bool FlameGraph::event(QEvent* event) {
    // The window's own Escape (clear the selection) must not take the key while zoomed here.
    if (event->type() == QEvent::ShortcutOverride) {
        const int key = static_cast<QKeyEvent*>(event)->key();
        if ((key == Qt::Key_Escape || key == Qt::Key_Backspace) && !zoom_.empty()) {
            event->accept();
            return true;
        }
    }
    if (event->type() == QEvent::ToolTip) {
        auto* help = static_cast<QHelpEvent*>(event);
        const std::int32_t n = nodeAt(help->pos());
        if (n >= 0) QToolTip::showText(help->globalPos(), tooltipText(n), this, nodeRect(n));
        else QToolTip::hideText();
        return true;
    }
    return QWidget::event(event);
}

} // namespace memviz

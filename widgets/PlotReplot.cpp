// SPDX-License-Identifier: MIT
#include "widgets/PlotReplot.h"

#include <QEvent>

namespace memviz {

namespace {

const QString kName = QStringLiteral("memviz-replot-on-show");

// One per chart, its child (found by name: without Q_OBJECT, findChild<ReplotOnShow*> would
// match any child): replots the chart when it is shown with a replot pending.
class ReplotOnShow : public QObject {
public:
    explicit ReplotOnShow(QCustomPlot* plot) : QObject(plot), plot_(plot) {
        setObjectName(kName);
        plot->installEventFilter(this);
    }
    bool pending = false;

protected:
    bool eventFilter(QObject* watched, QEvent* event) override {
        if (watched == plot_ && event->type() == QEvent::Show && pending) {
            pending = false;
            plot_->replot(QCustomPlot::rpQueuedReplot);
        }
        return false;
    }

private:
    QCustomPlot* plot_;
};

// The chart's child: takes its resize events (QCustomPlot::resizeEvent would redraw at once).
class QueuedResizeReplot : public QObject {
public:
    explicit QueuedResizeReplot(QCustomPlot* plot) : QObject(plot), plot_(plot) { plot->installEventFilter(this); }

protected:
    bool eventFilter(QObject* watched, QEvent* event) override {
        if (watched != plot_ || event->type() != QEvent::Resize) return false;
        plot_->setViewport(plot_->rect());
        replotWhenShown(plot_);
        return true; // QCustomPlot::resizeEvent would only have done the same, at once
    }

private:
    QCustomPlot* plot_;
};

} // namespace

void replotQueuedOnResize(QCustomPlot* plot) { new QueuedResizeReplot(plot); }

void replotWhenShown(QCustomPlot* plot, QCustomPlot::RefreshPriority priority) {
    auto* watcher = static_cast<ReplotOnShow*>(plot->findChild<QObject*>(kName, Qt::FindDirectChildrenOnly));
    if (plot->isVisible()) {
        if (watcher) watcher->pending = false;
        plot->replot(priority);
        return;
    }
    if (!watcher) watcher = new ReplotOnShow(plot);
    watcher->pending = true;
}

} // namespace memviz

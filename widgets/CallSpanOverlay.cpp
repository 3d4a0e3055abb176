// SPDX-License-Identifier: MIT
#include "widgets/CallSpanOverlay.h"

#include <qcustomplot.h>

#include "formats/profiler/ProfilerQuery.h"
#include "widgets/TraceSession.h"

namespace memviz {

namespace {
constexpr std::size_t kMaxCalls = 20000;
// The band of spans: a thin strip at the bottom of the plot (axis-rect ratio, 0 = top).
constexpr double kBandTop = 0.96;
} // namespace

CallSpanOverlay::CallSpanOverlay(QCustomPlot* plot, TraceSession* session, QObject* parent)
    : QObject(parent), plot_(plot), session_(session) {}

bool CallSpanOverlay::owns(const QCPAbstractItem* item) const {
    return std::find(items_.begin(), items_.end(), item) != items_.end();
}

void CallSpanOverlay::clear() {
    for (QCPAbstractItem* item : items_) plot_->removeItem(item);
    items_.clear();
}

void CallSpanOverlay::update() {
    clear();
    caption_.clear();
    const QString op = session_->highlightedOp();
    if (op.isEmpty() || !session_->isOpen()) return;
    const QCPRange r = plot_->xAxis->range();
    const auto spans = queryCallSpans(session_->database(), session_->traceId(), op.toStdString(),
                                      {static_cast<std::int64_t>(r.lower), static_cast<std::int64_t>(r.upper)}, kMaxCalls);
    const double nsPerPixel = r.size() / std::max(1, plot_->axisRect()->width());
    const QColor colour(230, 120, 0);
    for (std::size_t i = 0; i < spans.size();) {
        double begin = static_cast<double>(spans[i].begin), end = static_cast<double>(spans[i].end);
        std::size_t j = i + 1;
        while (j < spans.size() && static_cast<double>(spans[j].begin) <= end + nsPerPixel)
            end = std::max(end, static_cast<double>(spans[j++].end));
        if (end - begin < nsPerPixel) end = begin + nsPerPixel; // at least a pixel wide
        auto* rect = new QCPItemRect(plot_);
        rect->topLeft->setTypeY(QCPItemPosition::ptAxisRectRatio);
        rect->bottomRight->setTypeY(QCPItemPosition::ptAxisRectRatio);
        rect->topLeft->setCoords(begin, kBandTop);
        rect->bottomRight->setCoords(end, 1.0);
        rect->setPen(Qt::NoPen);
        rect->setBrush(colour);
        rect->setSelectable(false);
        items_.push_back(rect);
        i = j;
    }
    caption_ = tr("calls of %1: %2 in view%3")
                   .arg(op)
                   .arg(spans.size())
                   .arg(spans.size() >= kMaxCalls ? tr(" (first %1 shown)").arg(kMaxCalls) : QString());
}

} // namespace memviz

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
    : QObject(parent), plot_(plot), session_(session), query_(this) {
    query_.setErrorHandler([this](const QString& message) {
        clear();
        caption_ = tr("calls of %1: cannot read them (%2)").arg(shownOp_, message);
        emit changed();
    });
}

CallSpanOverlay::~CallSpanOverlay() { query_.cancel(); }

bool CallSpanOverlay::owns(const QCPAbstractItem* item) const {
    return std::find(items_.begin(), items_.end(), item) != items_.end();
}

void CallSpanOverlay::clear() {
    for (QCPAbstractItem* item : items_) plot_->removeItem(item);
    items_.clear();
}

void CallSpanOverlay::update() {
    const QString op = session_->highlightedOp();
    if (op.isEmpty() || !session_->isOpen()) {
        query_.cancel();
        clear();
        caption_.clear();
        shownOp_.clear();
        shownTrace_ = -1;
        return;
    }
    if (op != shownOp_ || session_->traceId() != shownTrace_ || session_->storePath() != shownStore_) {
        // Another operator's (or trace's) band would be wrong: gone until this one's lands.
        clear();
        shownOp_ = op;
        shownTrace_ = session_->traceId();
        shownStore_ = session_->storePath();
        caption_ = tr("calls of %1: looking them up\u2026").arg(op);
    } // else a new range: the band shown stays until the new one lands
    const QCPRange r = plot_->xAxis->range();
    const double nsPerPixel = r.size() / std::max(1, plot_->axisRect()->width());
    const std::int64_t trace = session_->traceId();
    const std::string name = op.toStdString();
    query_.run(session_->storePath(),
               [this, trace, name, r, nsPerPixel, op](Database& db, const Progress&) -> BackgroundQuery::Apply {
                   const auto spans = queryCallSpans(
                       db, trace, name, {static_cast<std::int64_t>(r.lower), static_cast<std::int64_t>(r.upper)}, kMaxCalls);
                   auto band = std::make_shared<Band>();
                   band->calls = spans.size();
                   for (std::size_t i = 0; i < spans.size();) {
                       double begin = static_cast<double>(spans[i].begin), end = static_cast<double>(spans[i].end);
                       std::size_t j = i + 1;
                       while (j < spans.size() && static_cast<double>(spans[j].begin) <= end + nsPerPixel)
                           end = std::max(end, static_cast<double>(spans[j++].end));
                       if (end - begin < nsPerPixel) end = begin + nsPerPixel; // at least a pixel wide
                       band->rects.emplace_back(begin, end);
                       i = j;
                   }
                   return [this, op, band] {
                       draw(op, *band);
                       emit changed();
                   };
               });
}

void CallSpanOverlay::draw(const QString& op, const Band& band) {
    clear();
    const QColor colour(230, 120, 0);
    for (const auto& [begin, end] : band.rects) {
        auto* rect = new QCPItemRect(plot_);
        rect->topLeft->setTypeY(QCPItemPosition::ptAxisRectRatio);
        rect->bottomRight->setTypeY(QCPItemPosition::ptAxisRectRatio);
        rect->topLeft->setCoords(begin, kBandTop);
        rect->bottomRight->setCoords(end, 1.0);
        rect->setPen(Qt::NoPen);
        rect->setBrush(colour);
        rect->setSelectable(false);
        items_.push_back(rect);
    }
    caption_ = tr("calls of %1: %2 in view%3")
                   .arg(op)
                   .arg(band.calls)
                   .arg(band.calls >= kMaxCalls ? tr(" (first %1 shown)").arg(kMaxCalls) : QString());
}

} // namespace memviz

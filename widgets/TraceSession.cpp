#include "widgets/TraceSession.h"

namespace memviz {

TraceSession::TraceSession(QObject* parent) : QObject(parent) {}
TraceSession::~TraceSession() = default;

void TraceSession::open(const QString& storePath, qint64 traceId) {
    auto db = std::make_unique<Database>(storePath.toStdString(), Database::Mode::ReadOnly);
    TraceSummary summary = loadSummary(*db, traceId);
    std::vector<SeriesInfo> series = listSeries(*db, traceId);
    std::map<QString, QString> metadata;
    for (const auto& [k, v] : loadMetadata(*db, traceId)) metadata[QString::fromStdString(k)] = QString::fromStdString(v);
    db_ = std::move(db);
    storePath_ = storePath;
    traceId_ = traceId;
    summary_ = std::move(summary);
    series_ = std::move(series);
    metadata_ = std::move(metadata);
    selection_.reset();
    highlightedOp_.clear();
    emit traceChanged();
    emit selectionChanged();
}

void TraceSession::close() {
    db_.reset();
    storePath_.clear();
    traceId_ = 0;
    summary_ = {};
    series_.clear();
    metadata_.clear();
    selection_.reset();
    highlightedOp_.clear();
    emit traceChanged();
    emit selectionChanged();
}

void TraceSession::setSelection(std::optional<TimeRange> range) {
    if (range && range->end < range->begin) std::swap(range->begin, range->end);
    const bool same = range.has_value() == selection_.has_value() &&
                      (!range || (range->begin == selection_->begin && range->end == selection_->end));
    if (same) return;
    selection_ = range;
    emit selectionChanged();
}

} // namespace memviz

namespace memviz {

void TraceSession::setHighlightedOp(const QString& name) {
    if (name == highlightedOp_) return;
    highlightedOp_ = name;
    emit highlightedOpChanged();
}

QString TraceSession::metadata(const QString& key) const {
    const auto it = metadata_.find(key);
    return it == metadata_.end() ? QString() : it->second;
}

} // namespace memviz

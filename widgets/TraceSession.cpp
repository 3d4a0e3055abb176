// SPDX-License-Identifier: MIT
#include "widgets/TraceSession.h"

#include "core/Errors.h"
#include "formats/live/LiveQueries.h"

namespace memviz {

TraceSession::TraceSession(QObject* parent) : QObject(parent) {}
TraceSession::~TraceSession() = default;

void TraceSession::open(const QString& storePath, qint64 traceId) {
    auto db = std::make_unique<Database>(storePath.toStdString(), Database::Mode::ReadOnly);
    // Another memviz is recording it right now: show what it has committed so far.
    if (const auto rec = findLiveRecording(*db, traceId); rec && rec->recording()) {
        db.reset();
        openLive(storePath, traceId);
        return;
    }
    TraceSummary summary = loadSummary(*db, traceId);
    std::vector<SeriesInfo> series = listSeries(*db, traceId);
    std::map<QString, QString> metadata;
    for (const auto& [k, v] : loadMetadata(*db, traceId)) metadata[QString::fromStdString(k)] = QString::fromStdString(v);
    db_ = std::move(db);
    live_ = false;
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

void TraceSession::openLive(const QString& storePath, qint64 traceId) {
    auto db = std::make_unique<Database>(storePath.toStdString(), Database::Mode::ReadOnly);
    auto trace = findTrace(*db, traceId);
    if (!trace) throw StoreError(storePath.toStdString() + ": no trace with id " + std::to_string(traceId));
    db_ = std::move(db);
    live_ = true;
    storePath_ = storePath;
    traceId_ = traceId;
    summary_ = {};
    summary_.trace = std::move(*trace);
    series_.clear();
    metadata_.clear();
    loadLive();
    selection_.reset();
    highlightedOp_.clear();
    emit traceChanged();
    emit selectionChanged();
}

void TraceSession::loadLive() {
    const auto series = listLiveSeries(*db_, traceId_, LiveSeriesDetail::Ends);
    std::map<std::string, int> devices;
    for (const LiveSeriesInfo& l : series) devices.emplace(l.device, static_cast<int>(devices.size()));
    series_.clear();
    for (const LiveSeriesInfo& l : series) {
        SeriesInfo i;
        i.id = l.series;
        i.device = devices.at(l.device);
        i.deviceName = l.device;
        i.name = l.name;
        i.unit = l.unit;
        i.pointCount = l.count;
        i.tFirst = l.tFirst;
        i.tLast = l.tLast;
        i.vFinal = l.vLast;
        series_.push_back(std::move(i));
    }
    summary_.trace.durationNs = liveExtent(*db_, traceId_);
    for (const auto& [k, v] : loadMetadata(*db_, traceId_)) metadata_[QString::fromStdString(k)] = QString::fromStdString(v);
}

void TraceSession::refreshLive() {
    if (!live_ || !db_) return;
    const std::size_t before = series_.size();
    loadLive();
    if (series_.size() != before) emit traceChanged();
    else emit liveAdvanced();
}

std::optional<std::int64_t> TraceSession::valueAt(std::int64_t seriesId, std::int64_t t) {
    if (live_) return liveValueAt(*db_, traceId_, static_cast<int>(seriesId), t);
    return seriesValueAt(*db_, seriesId, t);
}

void TraceSession::close() {
    db_.reset();
    live_ = false;
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

// SPDX-License-Identifier: MIT
#pragma once
// The trace the window shows and the time window the user selected on it. One object owns
// both; views listen to its signals and ask it for data (cf. hotspot's FilterAndZoomStack).
#include <QObject>
#include <QString>
#include <map>
#include <memory>
#include <optional>
#include <vector>

#include "store/Database.h"
#include "store/SeriesQuery.h"
#include "store/TraceQueries.h"

namespace memviz {

class TraceSession : public QObject {
    Q_OBJECT
public:
    explicit TraceSession(QObject* parent = nullptr);
    ~TraceSession() override;

    // Opens the store read-only and shows one of its traces (a recording still being
    // written by another memviz: as openLive does). Throws StoreError.
    void open(const QString& storePath, qint64 traceId);
    // Opens a live recording that is still being written: series come from its relational
    // samples (formats/live/LiveQueries) and grow with refreshLive(). Throws StoreError.
    void openLive(const QString& storePath, qint64 traceId);
    void close();
    bool isOpen() const { return db_ != nullptr; }
    bool isLive() const { return live_; }
    // Re-reads a live recording's extent and series; emits liveAdvanced() (traceChanged()
    // when a series appeared).
    void refreshLive();

    // A series' value at a time (the timeline's read-out), from its chunks or, for a live
    // recording, from its relational samples. What the timeline draws is read on a worker
    // (TimelineData.h).
    std::optional<std::int64_t> valueAt(std::int64_t seriesId, std::int64_t t);

    Database& database() { return *db_; }
    QString storePath() const { return storePath_; }
    qint64 traceId() const { return traceId_; }
    const TraceSummary& summary() const { return summary_; }
    const std::vector<SeriesInfo>& series() const { return series_; }
    // Time span of the trace, [0, duration].
    TimeRange fullRange() const { return {0, summary_.trace.durationNs}; }

    const std::optional<TimeRange>& selection() const { return selection_; }
    void setSelection(std::optional<TimeRange> range);

    // An operator whose calls the timeline marks (empty: none).
    const QString& highlightedOp() const { return highlightedOp_; }
    void setHighlightedOp(const QString& name);
    // Trace metadata value, or empty.
    QString metadata(const QString& key) const;

signals:
    void traceChanged();
    // A live recording has more samples (same series as before).
    void liveAdvanced();
    void selectionChanged();
    void highlightedOpChanged();

private:
    void loadLive();

    std::unique_ptr<Database> db_;
    bool live_ = false;
    QString storePath_;
    qint64 traceId_ = 0;
    TraceSummary summary_;
    std::vector<SeriesInfo> series_;
    std::optional<TimeRange> selection_;
    QString highlightedOp_;
    std::map<QString, QString> metadata_;
};

} // namespace memviz

// SPDX-License-Identifier: MIT
#pragma once
// Marks the calls of the operator selected in a table as a band of spans at the bottom of
// the timeline, for the visible range (spans closer than a pixel are merged). Its caption
// ("calls of aten::mm: 12 in view") is shown by the timeline in the line above the plot,
// where it covers no data and no peak label. The calls are read and merged on a worker
// (BackgroundQuery): the caption says so meanwhile; another operator clears the band at once,
// a new range keeps the old band until the new one lands; a newer request supersedes.
#include <QObject>
#include <QString>
#include <vector>

#include "widgets/BackgroundQuery.h"

class QCustomPlot;
class QCPAbstractItem;

namespace memviz {

class TraceSession;

class CallSpanOverlay : public QObject {
    Q_OBJECT
public:
    CallSpanOverlay(QCustomPlot* plot, TraceSession* session, QObject* parent = nullptr);
    ~CallSpanOverlay() override;
    // Redraws for the plot's current range (call after the range changed).
    void update();
    int spanCount() const { return static_cast<int>(items_.size()); }
    // "calls of OP: N in view", "calls of OP: looking them up…" while they are read, or ""
    // when no operator is highlighted.
    const QString& caption() const { return caption_; }
    bool owns(const QCPAbstractItem* item) const;
    // The calls are being read on the worker.
    bool isLoading() const { return query_.isPending(); }
    // Blocks until the newest request's spans are drawn (tests, screenshots).
    void waitForSpans() { query_.wait(); }

signals:
    // The band or the caption changed after the worker's result landed (the timeline redraws).
    void changed();

private:
    // Merged spans in plot coordinates, ready to draw.
    struct Band {
        std::vector<std::pair<double, double>> rects;
        std::size_t calls = 0;
    };
    void clear();
    void draw(const QString& op, const Band& band);

    QCustomPlot* plot_;
    TraceSession* session_;
    std::vector<QCPAbstractItem*> items_;
    QString caption_;
    // What the band shows (or is being read for): another trace or operator clears it at once.
    QString shownOp_;
    qint64 shownTrace_ = -1;
    QString shownStore_;
    BackgroundQuery query_;
};

} // namespace memviz

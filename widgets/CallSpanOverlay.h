// SPDX-License-Identifier: MIT
#pragma once
// Marks the calls of the operator selected in a table as a band of spans at the bottom of
// the timeline, for the visible range (spans closer than a pixel are merged). Its caption
// ("calls of aten::mm: 12 in view") is shown by the timeline in the line above the plot,
// where it covers no data and no peak label.
#include <QObject>
#include <QString>
#include <vector>

class QCustomPlot;
class QCPAbstractItem;

namespace memviz {

class TraceSession;

class CallSpanOverlay : public QObject {
    Q_OBJECT
public:
    CallSpanOverlay(QCustomPlot* plot, TraceSession* session, QObject* parent = nullptr);
    // Redraws for the plot's current range (call after the range changed).
    void update();
    int spanCount() const { return static_cast<int>(items_.size()); }
    // "calls of OP: N in view", or "" when no operator is highlighted.
    const QString& caption() const { return caption_; }
    bool owns(const QCPAbstractItem* item) const;

private:
    void clear();

    QCustomPlot* plot_;
    TraceSession* session_;
    std::vector<QCPAbstractItem*> items_;
    QString caption_;
};

} // namespace memviz

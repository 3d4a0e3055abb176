// SPDX-License-Identifier: MIT
#pragma once
// The live preview of an import (issue 12): while a big trace is read, its devices' allocated
// and reserved bytes so far as step lines (core/PreviewSink.h, sent by the import worker), with
// the peak so far and a line saying that the full views open when the import ends. The window
// shows it in place of the empty page while an import runs and no trace is open.
// The GUI thread only appends points (each device keeps at most a few thousand,
// core/PreviewCurve.h) and redraws at most every kReplotIntervalMs.
#include <QElapsedTimer>
#include <QPen>
#include <QSharedPointer>
#include <QTimer>
#include <QWidget>
#include <map>
#include <string>

#include "core/PreviewCurve.h"
#include "core/PreviewSink.h"

class QCustomPlot;
class QCPGraph;
class QLabel;

namespace memviz {

class ScaledAxisTicker;

class ImportPreview : public QWidget {
    Q_OBJECT
public:
    static constexpr int kReplotIntervalMs = 250;

    explicit ImportPreview(QWidget* parent = nullptr);
    ~ImportPreview() override;

    // A new import of `path`: nothing drawn yet.
    void start(const QString& path);
    void add(const PreviewBatch& batch);
    // Points so far are void (the import restarted them).
    void restart();
    void clear();

    bool hasPoints() const;
    // Points drawn per device after the last redraw (tests).
    int drawnPoints(const std::string& device) const;
    // "cuda:0 peak so far: 1.50 GiB", one line per device.
    QString peakText() const;
    QCustomPlot* plot() const { return plot_; }
    // Redraws now if a redraw is pending (tests, screenshots).
    void redrawNow();

private:
    struct Curve {
        PreviewCurve points;
        std::int64_t allocatedBase = 0, reservedBase = 0;
        QCPGraph* allocated = nullptr;
        QCPGraph* reserved = nullptr;
        QPen allocatedPen, reservedPen; // as chosen; a dense curve is drawn one pixel wide
    };
    void scheduleRedraw();
    void redraw();
    Curve& curve(const std::string& device);

    QLabel* title_;
    QLabel* peak_;
    QLabel* note_;
    QCustomPlot* plot_;
    QSharedPointer<ScaledAxisTicker> xTicker_, bytesTicker_;
    std::map<std::string, Curve> curves_;
    PreviewAxis axis_ = PreviewAxis::TimeUs;
    QTimer redrawTimer_;
    QElapsedTimer sinceRedraw_, sinceStart_;
};

} // namespace memviz

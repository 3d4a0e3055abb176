#pragma once
// Opens a store or imports a raw trace on a worker thread, with progress and cancel, so the
// window stays responsive (cf. massif-visualizer's cancellable parse worker). Progress only
// moves forward and names its phase (reading, building, writing the store). A cancelled or
// failed import leaves no empty store behind in the import cache.
#include <QFutureWatcher>
#include <QObject>
#include <QString>
#include <atomic>

#include "core/Progress.h"
#include "store/StoreFiles.h"

namespace memviz {

class ImportTask : public QObject {
    Q_OBJECT
public:
    explicit ImportTask(QObject* parent = nullptr);
    ~ImportTask() override;

    // `importStore` (a cache, rebuilt when unreadable) receives raw traces; a store path is
    // opened as it is.
    void start(const QString& path, const QString& importStore, qint64 traceId = 0);
    void cancel();
    bool isRunning() const { return watcher_.isRunning(); }
    QString path() const { return path_; }
    // "reading", "building", "writing the store" (translated).
    static QString phaseName(ProgressPhase phase);

signals:
    // Overall progress in permille, never smaller than the last one, and the current phase.
    void progress(int permille, const QString& phase);
    void succeeded(const QString& storePath, qint64 traceId, bool imported);
    void failed(const QString& message);
    void cancelled();

private:
    struct Outcome {
        OpenedTrace trace;
        QString error;
        bool cancelled = false;
    };
    void onFinished();

    QFutureWatcher<Outcome> watcher_;
    std::atomic<bool> cancel_{false};
    std::atomic<int> lastPermille_{-1};
    std::atomic<int> phase_{0};
    QString path_;
};

} // namespace memviz

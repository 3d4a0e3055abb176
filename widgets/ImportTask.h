// SPDX-License-Identifier: MIT
#pragma once
// Opens a store or imports a raw trace with progress and cancel, so the window stays
// responsive. A raw trace is imported by a child process (the same binary in its
// --import-worker mode, see app/ImportWorker.h), as hotspot runs its parser out of process:
// a parser that crashes, aborts or runs past the memory ceiling costs an error message that
// names the file and how far the reader got, never the window, its open traces or a running
// recording. The window never writes to the store meanwhile (its connections are read-only);
// the import is one transaction in the child, so a child that dies leaves the store as it was.
// A .memviz store is opened in-process, on a worker thread (nothing is parsed).
// Progress only moves forward and names its phase (reading, building, writing the store).
// A cancelled or failed import leaves no empty store behind in the import cache.
// While a worker imports, the live preview of its memory curve (core/PreviewSink.h) comes out
// as preview() signals, one per `preview` line (a few per second at most).
#include <QFutureWatcher>
#include <QObject>
#include <QProcess>
#include <QString>
#include <QTimer>
#include <atomic>
#include <optional>

#include "core/PreviewSink.h"
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
    // A store: asks the thread to stop. An import: SIGTERM to the worker (it rolls back and
    // exits), SIGKILL when it has not exited after cancelGraceMs().
    void cancel();
    bool isRunning() const;
    QString path() const { return path_; }
    // "reading", "building", "writing the store" (translated).
    static QString phaseName(ProgressPhase phase);

    // The import worker's program: $MEMVIZ_IMPORT_WORKER, else this executable.
    static QString workerProgram();
    // The most memory (bytes) a worker may allocate, 0 for no ceiling: the environment
    // variable MEMVIZ_IMPORT_MEMORY_LIMIT, else the setting import/memoryLimit, else half of
    // the physical memory. Values are bytes, with K, M, G or T for powers of 1024.
    static qint64 memoryCeiling();
    // "4G" -> 4 GiB; nullopt when not a size.
    static std::optional<qint64> parseSize(const QString& text);

    int cancelGraceMs() const { return graceMs_; }
    void setCancelGraceMs(int ms) { graceMs_ = ms; }
    // The running worker's process id (0 when none), for tests.
    qint64 workerPid() const;

signals:
    // Overall progress in permille, never smaller than the last one, and the current phase.
    void progress(int permille, const QString& phase);
    void succeeded(const QString& storePath, qint64 traceId, bool imported);
    void failed(const QString& message);
    void cancelled();
    // New points of a device's live memory curve, and its bases so far (PreviewSink.h).
    void preview(const memviz::PreviewBatch& batch);
    // The points sent so far are void.
    void previewRestarted();

private:
    struct Outcome {
        OpenedTrace trace;
        QString error;
        bool cancelled = false;
    };
    void startStore(qint64 traceId);
    void startWorker();
    void onStoreFinished();
    void onWorkerOutput();
    void onWorkerFinished(int exitCode, QProcess::ExitStatus status);
    void onWorkerError(QProcess::ProcessError error);
    void endWorker();
    // Maps progress within `phase` onto the bar; never below what was shown.
    void report(ProgressPhase phase, double share);
    void failLater(const QString& message);

    QFutureWatcher<Outcome> watcher_;
    std::atomic<bool> cancel_{false};
    QString path_, store_;
    int lastPermille_ = -1;

    // The worker and what it said.
    QProcess* worker_ = nullptr;
    QTimer killTimer_;
    int graceMs_ = 3000;
    bool cancelRequested_ = false;
    bool phaseSeen_ = false;
    ProgressPhase phase_ = ProgressPhase::Reading;
    qint64 lastByte_ = -1, fileSize_ = 0, ceiling_ = 0;
    QByteArray pendingOut_, errTail_;
    bool done_ = false, outOfMemory_ = false, workerCancelled_ = false;
    qint64 doneTraceId_ = 0;
    bool doneImported_ = false;
    QString errorMessage_;
};

} // namespace memviz

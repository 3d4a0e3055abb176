// SPDX-License-Identifier: MIT
#pragma once
// The one way a view runs a query or a computation off the GUI thread (ARCHITECTURE.md,
// "Threads"). The work runs on a worker of Qt's thread pool, with its own read-only connection
// to the store when it asks for one (SQLite connections stay on one thread), and gets a
// Progress whose cancel flag it checks (checkCancelled() throws Cancelled). It returns what
// the GUI thread then applies. A newer request supersedes the running one: its cancel flag is
// raised and its result dropped, and requests made meanwhile collapse into the newest, so the
// pool never holds more than one stale job per view. Not a widget: a QObject its view owns.
#include <QFuture>
#include <QObject>
#include <QString>
#include <atomic>
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>

namespace memviz {

class Database;
class Progress;

class BackgroundQuery : public QObject {
    Q_OBJECT
public:
    // What the GUI thread runs once the work is done (may be empty).
    using Apply = std::function<void()>;
    // Work on the worker. Copy into it everything it needs; it must not touch widgets or the
    // GUI thread's Database.
    using Work = std::function<Apply(const Progress& cancel)>;
    using StoreWork = std::function<Apply(Database& db, const Progress& cancel)>;

    explicit BackgroundQuery(QObject* parent = nullptr);
    // Raises the cancel flag and waits for the worker; nothing more is applied.
    ~BackgroundQuery() override;

    // Runs `work` with a read-only connection to the store at `storePath`.
    void run(const QString& storePath, StoreWork work);
    // Runs `work` that needs no store (a layout, a /proc listing).
    void run(Work work);
    // Drops the running request (its cancel flag is raised) and any queued one.
    void cancel();
    // A request runs (or waits) whose result is not applied yet.
    bool isPending() const { return running_.has_value(); }
    // Blocks until nothing is pending, applying the newest result here (tests, screenshots,
    // MainWindow::openFileBlocking).
    void wait();
    // Called on the GUI thread with the message when the work throws (not for Cancelled).
    void setErrorHandler(std::function<void(const QString& message)> onError) { onError_ = std::move(onError); }

signals:
    // A result was applied, or an error reported.
    void finished();

private:
    struct Outcome {
        Apply apply;
        QString error;
        bool cancelled = false;
    };
    struct Running {
        std::uint64_t id = 0;
        std::shared_ptr<std::atomic<bool>> cancel;
        QFuture<Outcome> future;
    };
    void launch(Work work);
    void take(std::uint64_t id);

    std::optional<Running> running_;
    std::optional<Work> queued_;
    std::uint64_t lastId_ = 0;
    std::function<void(const QString&)> onError_;
};

} // namespace memviz

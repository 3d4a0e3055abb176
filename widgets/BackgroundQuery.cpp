// SPDX-License-Identifier: MIT
#include "widgets/BackgroundQuery.h"

#include <QFutureWatcher>
#include <QtConcurrent/QtConcurrentRun>

#include "core/Errors.h"
#include "core/Progress.h"
#include "store/Database.h"
#include "widgets/WorkerPool.h"

namespace memviz {

BackgroundQuery::BackgroundQuery(QObject* parent) : QObject(parent) {}

BackgroundQuery::~BackgroundQuery() {
    queued_.reset();
    if (running_) {
        running_->cancel->store(true);
        running_->future.waitForFinished();
    }
}

void BackgroundQuery::run(const QString& storePath, StoreWork work) {
    run([store = storePath.toStdString(), work = std::move(work)](const Progress& cancel) {
        Database db(store, Database::Mode::ReadOnly);
        return work(db, cancel);
    });
}

void BackgroundQuery::run(Work work) {
    if (running_) {
        // Superseded: the running work stops at its next check, and its result is dropped.
        running_->cancel->store(true);
        queued_ = std::move(work);
        return;
    }
    launch(std::move(work));
}

void BackgroundQuery::launch(Work work) {
    auto cancel = std::make_shared<std::atomic<bool>>(false);
    const std::uint64_t id = ++lastId_;
    QFuture<Outcome> future = QtConcurrent::run(workerPool(), [work = std::move(work), cancel] {
        Outcome outcome;
        const Progress progress(Progress::Callback{}, cancel.get());
        try {
            progress.checkCancelled();
            outcome.apply = work(progress);
        } catch (const Cancelled&) {
            outcome.cancelled = true;
        } catch (const std::exception& e) {
            outcome.error = QString::fromUtf8(e.what());
        }
        return outcome;
    });
    running_ = Running{id, cancel, future};
    // One watcher per request: a finished signal still queued for an older request is told
    // apart by its id (wait() may have taken that result already).
    auto* watcher = new QFutureWatcher<Outcome>(this);
    connect(watcher, &QFutureWatcher<Outcome>::finished, this, [this, watcher, id] {
        watcher->deleteLater();
        take(id);
    });
    watcher->setFuture(future);
}

void BackgroundQuery::take(std::uint64_t id) {
    if (!running_ || running_->id != id) return; // already taken by wait()
    // Moved, not copied: the result may hold a whole layout or table for the GUI thread.
    Outcome outcome = running_->future.takeResult();
    const bool superseded = running_->cancel->load();
    running_.reset();
    if (queued_) {
        Work next = std::move(*queued_);
        queued_.reset();
        launch(std::move(next));
        return;
    }
    if (superseded || outcome.cancelled) return;
    if (!outcome.error.isEmpty()) {
        if (onError_) onError_(outcome.error);
    } else if (outcome.apply) {
        outcome.apply();
    }
    emit finished();
}

void BackgroundQuery::cancel() {
    queued_.reset();
    if (running_) running_->cancel->store(true);
}

void BackgroundQuery::wait() {
    while (running_) {
        running_->future.waitForFinished();
        take(running_->id);
    }
}

} // namespace memviz

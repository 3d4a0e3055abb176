#include "widgets/ImportTask.h"

#include <QtConcurrent/QtConcurrentRun>

#include "core/Errors.h"
#include "core/Progress.h"

namespace memviz {

ImportTask::ImportTask(QObject* parent) : QObject(parent) {
    connect(&watcher_, &QFutureWatcher<Outcome>::finished, this, &ImportTask::onFinished);
}

ImportTask::~ImportTask() {
    cancel_ = true;
    watcher_.waitForFinished();
}

void ImportTask::start(const QString& path, const QString& importStore, qint64 traceId) {
    if (watcher_.isRunning()) return;
    cancel_ = false;
    lastPermille_ = -1;
    path_ = path;
    const std::string file = path.toStdString();
    const std::string store = importStore.toStdString();
    Progress progress(
        [this](std::int64_t done, std::int64_t total) {
            const int permille = total > 0 ? static_cast<int>(done * 1000 / total) : 0;
            if (lastPermille_.exchange(permille) != permille)
                QMetaObject::invokeMethod(this, [this, permille] { emit this->progress(permille); }, Qt::QueuedConnection);
        },
        &cancel_);
    watcher_.setFuture(QtConcurrent::run([file, store, traceId, progress]() {
        Outcome o;
        try {
            o.trace = openTrace(file, store, progress, traceId, ImportStore::Cache);
        } catch (const Cancelled&) {
            o.cancelled = true;
        } catch (const std::exception& e) {
            o.error = QString::fromUtf8(e.what());
        }
        return o;
    }));
}

void ImportTask::cancel() { cancel_ = true; }

void ImportTask::onFinished() {
    const Outcome o = watcher_.result();
    if (o.cancelled) emit cancelled();
    else if (!o.error.isEmpty()) emit failed(o.error);
    else emit succeeded(QString::fromStdString(o.trace.storePath), o.trace.traceId, o.trace.imported);
}

} // namespace memviz

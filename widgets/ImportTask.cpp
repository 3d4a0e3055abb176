#include "widgets/ImportTask.h"

#include <QFile>
#include <algorithm>
#include <QFileInfo>
#include <QtConcurrent/QtConcurrentRun>

#include "core/Errors.h"
#include "store/Database.h"
#include "store/TraceQueries.h"

namespace memviz {

namespace {

// Each phase's share of the bar, in permille: [begin, end).
struct PhaseSpan {
    int begin, end;
};
PhaseSpan spanOf(ProgressPhase phase) {
    switch (phase) {
    case ProgressPhase::Reading: return {0, 700};
    case ProgressPhase::Building: return {700, 850};
    case ProgressPhase::Writing: return {850, 1000};
    }
    return {0, 1000};
}

// Removes an import-cache store that holds no trace (left by a cancelled or failed import).
void removeIfEmpty(const std::string& store) {
    if (!QFileInfo::exists(QString::fromStdString(store))) return;
    try {
        Database db(store, Database::Mode::ReadOnly);
        if (!listTraces(db).empty()) return;
    } catch (const std::exception&) {
        return; // not ours to judge: leave it
    }
    for (const char* suffix : {"", "-wal", "-shm"}) QFile::remove(QString::fromStdString(store + suffix));
}

} // namespace

ImportTask::ImportTask(QObject* parent) : QObject(parent) {
    connect(&watcher_, &QFutureWatcher<Outcome>::finished, this, &ImportTask::onFinished);
}

ImportTask::~ImportTask() {
    cancel_ = true;
    watcher_.waitForFinished();
}

QString ImportTask::phaseName(ProgressPhase phase) {
    switch (phase) {
    case ProgressPhase::Reading: return tr("reading");
    case ProgressPhase::Building: return tr("building");
    case ProgressPhase::Writing: return tr("writing the store");
    }
    return {};
}

void ImportTask::start(const QString& path, const QString& importStore, qint64 traceId) {
    if (watcher_.isRunning()) return;
    cancel_ = false;
    lastPermille_ = -1;
    phase_ = static_cast<int>(ProgressPhase::Reading);
    path_ = path;
    const std::string file = path.toStdString();
    const std::string store = importStore.toStdString();
    // Called on the worker: maps progress within the phase onto the phase's share of the bar,
    // never below what was shown (an importer that reads twice does not make it jump back).
    const auto report = [this](int permille) {
        int last = lastPermille_.load();
        while (permille > last && !lastPermille_.compare_exchange_weak(last, permille)) {
        }
        if (permille <= last) return;
        const QString phase = phaseName(static_cast<ProgressPhase>(phase_.load()));
        QMetaObject::invokeMethod(this, [this, permille, phase] { emit this->progress(permille, phase); }, Qt::QueuedConnection);
    };
    Progress progress(
        [this, report](std::int64_t done, std::int64_t total) {
            const PhaseSpan span = spanOf(static_cast<ProgressPhase>(phase_.load()));
            const double share = total > 0 ? std::clamp(static_cast<double>(done) / static_cast<double>(total), 0.0, 1.0) : 0.0;
            report(span.begin + static_cast<int>(share * (span.end - span.begin)));
        },
        &cancel_,
        [this, report](ProgressPhase phase) {
            phase_ = static_cast<int>(phase);
            report(spanOf(phase).begin);
        });
    watcher_.setFuture(QtConcurrent::run([file, store, traceId, progress]() {
        Outcome o;
        try {
            o.trace = openTrace(file, store, progress, traceId, ImportStore::Cache);
        } catch (const Cancelled&) {
            o.cancelled = true;
        } catch (const std::exception& e) {
            o.error = QString::fromUtf8(e.what());
        }
        // "Nothing was stored" must be true: no empty store is left in the cache.
        if (o.cancelled || !o.error.isEmpty()) removeIfEmpty(store);
        return o;
    }));
}

void ImportTask::cancel() { cancel_ = true; }

void ImportTask::onFinished() {
    const Outcome o = watcher_.result();
    if (o.cancelled) emit cancelled();
    else if (!o.error.isEmpty()) emit failed(o.error);
    else {
        if (lastPermille_.load() < 1000) emit progress(1000, phaseName(static_cast<ProgressPhase>(phase_.load())));
        emit succeeded(QString::fromStdString(o.trace.storePath), o.trace.traceId, o.trace.imported);
    }
}

} // namespace memviz

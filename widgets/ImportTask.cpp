// SPDX-License-Identifier: MIT
#include "widgets/ImportTask.h"

#include <QCoreApplication>
#include <QFile>
#include <QFileInfo>
#include <QRegularExpression>
#include <QSettings>
#include <QtConcurrent/QtConcurrentRun>
#include <algorithm>
#include <csignal>
#include <limits>

#include "core/Errors.h"
#include "core/SystemMemory.h"
#include "store/Database.h"
#include "store/TraceQueries.h"
#include "widgets/ImportFailure.h"
#include "widgets/WorkerPool.h"
#include "formats/ImportWorkerProtocol.h"

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
    } catch (const std::exception& e) {
        qWarning("memviz: keeping %s: %s", store.c_str(), e.what());
        return; // not ours to judge: leave it
    }
    for (const char* suffix : {"", "-wal", "-shm"}) QFile::remove(QString::fromStdString(store + suffix));
}

constexpr qsizetype kStderrKept = 4096;

} // namespace

ImportTask::ImportTask(QObject* parent) : QObject(parent) {
    connect(&watcher_, &QFutureWatcher<Outcome>::finished, this, &ImportTask::onStoreFinished);
    killTimer_.setSingleShot(true);
    connect(&killTimer_, &QTimer::timeout, this, [this] {
        if (worker_) worker_->kill();
    });
}

ImportTask::~ImportTask() {
    cancel_ = true;
    watcher_.waitForFinished();
    if (worker_) {
        worker_->disconnect(this);
        worker_->kill();
        worker_->waitForFinished(5000);
        removeIfEmpty(store_.toStdString());
    }
}

QString ImportTask::phaseName(ProgressPhase phase) {
    switch (phase) {
    case ProgressPhase::Reading: return tr("reading");
    case ProgressPhase::Building: return tr("building");
    case ProgressPhase::Writing: return tr("writing the store");
    }
    return {};
}

QString ImportTask::workerProgram() {
    const QString fromEnvironment = qEnvironmentVariable("MEMVIZ_IMPORT_WORKER");
    return fromEnvironment.isEmpty() ? QCoreApplication::applicationFilePath() : fromEnvironment;
}

std::optional<qint64> ImportTask::parseSize(const QString& text) {
    static const QRegularExpression size(QStringLiteral("^\\s*(\\d+)\\s*([KMGT]?)\\s*$"),
                                         QRegularExpression::CaseInsensitiveOption);
    const QRegularExpressionMatch m = size.match(text);
    if (!m.hasMatch()) return std::nullopt;
    bool ok = false;
    const qint64 number = m.captured(1).toLongLong(&ok);
    const QString unit = m.captured(2).toUpper();
    const int shift = unit.isEmpty() ? 0 : 10 * (1 + static_cast<int>(QStringLiteral("KMGT").indexOf(unit)));
    if (!ok || number > (std::numeric_limits<qint64>::max() >> shift)) return std::nullopt;
    return number << shift;
}

qint64 ImportTask::memoryCeiling() {
    for (const QString& text :
         {qEnvironmentVariable("MEMVIZ_IMPORT_MEMORY_LIMIT"), QSettings().value("import/memoryLimit").toString()}) {
        if (text.isEmpty()) continue;
        if (const auto bytes = parseSize(text)) return *bytes;
        qWarning("memviz: ignoring the memory ceiling '%s' (expected bytes, with K, M, G or T)", qPrintable(text));
    }
    return totalPhysicalMemory().value_or(0) / 2;
}

bool ImportTask::isRunning() const { return watcher_.isRunning() || worker_; }

qint64 ImportTask::workerPid() const { return worker_ ? worker_->processId() : 0; }

void ImportTask::start(const QString& path, const QString& importStore, qint64 traceId) {
    if (isRunning()) return;
    cancel_ = false;
    lastPermille_ = -1;
    path_ = path;
    store_ = importStore;
    const QFileInfo info(path);
    if (!info.exists()) return failLater(tr("%1: no such file").arg(path));
    if (info.isDir()) return failLater(tr("%1 is a folder, not a trace file").arg(path));
    if (!info.isReadable()) return failLater(tr("%1 cannot be read (permission denied)").arg(path));
    if (isStoreFile(path.toStdString())) startStore(traceId);
    else startWorker();
}

void ImportTask::failLater(const QString& message) {
    QMetaObject::invokeMethod(
        this, [this, message] { emit failed(message); }, Qt::QueuedConnection);
}

void ImportTask::report(ProgressPhase phase, double share) {
    const PhaseSpan span = spanOf(phase);
    const int permille = span.begin + static_cast<int>(std::clamp(share, 0.0, 1.0) * (span.end - span.begin));
    if (permille <= lastPermille_) return;
    lastPermille_ = permille;
    emit progress(permille, phaseName(phase));
}

// --- a store, in-process ---------------------------------------------------------------

void ImportTask::startStore(qint64 traceId) {
    const std::string file = path_.toStdString();
    watcher_.setFuture(QtConcurrent::run(workerPool(), [this, file, traceId]() {
        Outcome o;
        try {
            o.trace = openTrace(file, std::string(), Progress({}, &cancel_), traceId, ImportStore::Keep);
        } catch (const Cancelled&) {
            o.cancelled = true;
        } catch (const std::exception& e) {
            o.error = QString::fromUtf8(e.what());
        }
        return o;
    }));
}

void ImportTask::onStoreFinished() {
    const Outcome o = watcher_.result();
    if (o.cancelled) emit cancelled();
    else if (!o.error.isEmpty()) emit failed(o.error);
    else {
        if (lastPermille_ < 1000) emit progress(1000, phaseName(ProgressPhase::Writing));
        emit succeeded(QString::fromStdString(o.trace.storePath), o.trace.traceId, o.trace.imported);
    }
}

// --- a raw trace, in the worker --------------------------------------------------------

void ImportTask::startWorker() {
    cancelRequested_ = phaseSeen_ = done_ = outOfMemory_ = workerCancelled_ = false;
    phase_ = ProgressPhase::Reading;
    lastByte_ = -1;
    fileSize_ = QFileInfo(path_).size();
    ceiling_ = memoryCeiling();
    pendingOut_.clear();
    errTail_.clear();
    errorMessage_.clear();
    worker_ = new QProcess(this);
    connect(worker_, &QProcess::readyReadStandardOutput, this, &ImportTask::onWorkerOutput);
    connect(worker_, &QProcess::readyReadStandardError, this, [this] {
        errTail_ += worker_->readAllStandardError();
        if (errTail_.size() > kStderrKept) errTail_ = errTail_.right(kStderrKept);
    });
    connect(worker_, &QProcess::finished, this, &ImportTask::onWorkerFinished);
    connect(worker_, &QProcess::errorOccurred, this, &ImportTask::onWorkerError);
    worker_->start(workerProgram(), {QString::fromLatin1(importworker::kSwitch), path_, QStringLiteral("--db"), store_,
                                     QStringLiteral("--memory-limit"), QString::number(ceiling_)});
}

void ImportTask::onWorkerOutput() {
    pendingOut_ += worker_->readAllStandardOutput();
    qsizetype newline;
    while ((newline = pendingOut_.indexOf('\n')) >= 0) {
        const QByteArray text = pendingOut_.left(newline);
        pendingOut_.remove(0, newline + 1);
        const auto line = importworker::parse(std::string_view(text.constData(), static_cast<std::size_t>(text.size())));
        if (!line) continue;
        using Kind = importworker::Line::Kind;
        switch (line->kind) {
        case Kind::Phase:
            phaseSeen_ = true;
            phase_ = line->phase;
            report(phase_, 0);
            break;
        case Kind::Progress: {
            phaseSeen_ = true;
            const double share = line->total > 0 ? static_cast<double>(line->done) / static_cast<double>(line->total) : 0.0;
            if (phase_ == ProgressPhase::Reading)
                lastByte_ = line->total == fileSize_ ? line->done : static_cast<qint64>(share * static_cast<double>(fileSize_));
            report(phase_, share);
            break;
        }
        case Kind::Done:
            done_ = true;
            doneTraceId_ = line->traceId;
            doneImported_ = line->imported;
            break;
        case Kind::Error: errorMessage_ = QString::fromStdString(line->message); break;
        case Kind::OutOfMemory: outOfMemory_ = true; break;
        case Kind::Cancelled: workerCancelled_ = true; break;
        case Kind::Preview: emit preview(line->preview); break;
        case Kind::PreviewRestart: emit previewRestarted(); break;
        }
    }
}

void ImportTask::cancel() {
    cancel_ = true;
    if (!worker_ || cancelRequested_) return;
    cancelRequested_ = true;
    worker_->terminate(); // SIGTERM: the worker rolls back and exits
    killTimer_.start(graceMs_);
}

void ImportTask::onWorkerError(QProcess::ProcessError error) {
    if (error != QProcess::FailedToStart) return; // the others end in finished()
    const QString message = tr("Could not start memviz's reader (%1): %2").arg(workerProgram(), worker_->errorString());
    endWorker();
    emit failed(message);
}

void ImportTask::onWorkerFinished(int exitCode, QProcess::ExitStatus status) {
    onWorkerOutput(); // what is left in the pipe
    WorkerEnd end;
    end.file = path_;
    end.phaseSeen = phaseSeen_;
    end.phase = phase_;
    end.lastByte = lastByte_;
    end.fileSize = fileSize_;
    // On Unix, QProcess gives the signal's number as the exit code of a crashed process.
    end.signal = status == QProcess::CrashExit ? exitCode : 0;
    end.exitCode = status == QProcess::NormalExit ? exitCode : 0;
    end.outOfMemory = outOfMemory_;
    end.memoryCeiling = ceiling_;
    const QList<QByteArray> errLines = errTail_.trimmed().split('\n');
    end.lastWords = QString::fromUtf8(errLines.last()).trimmed();
    const bool done = done_, stopped = cancelRequested_ || workerCancelled_;
    const QString error = errorMessage_;
    const qint64 traceId = doneTraceId_;
    const bool imported = doneImported_;
    endWorker();
    if (done) { // it finished before a cancel could stop it: the trace is there
        if (lastPermille_ < 1000) emit progress(1000, phaseName(ProgressPhase::Writing));
        emit succeeded(store_, traceId, imported);
        return;
    }
    removeIfEmpty(store_.toStdString());
    if (stopped) emit cancelled();
    else if (!error.isEmpty() && !end.signal) emit failed(error);
    else emit failed(describeWorkerEnd(end));
}

void ImportTask::endWorker() {
    killTimer_.stop();
    worker_->disconnect(this);
    worker_->deleteLater();
    worker_ = nullptr;
}

} // namespace memviz

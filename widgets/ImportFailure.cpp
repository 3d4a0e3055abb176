// SPDX-License-Identifier: MIT
#include "widgets/ImportFailure.h"

#include <QCoreApplication>
#include <csignal>
#include <cstring>

#include "words/Units.h"

namespace memviz {

namespace {

QString where(const WorkerEnd& e) {
    if (!e.phaseSeen || (e.phase == ProgressPhase::Reading && e.lastByte < 0))
        return QCoreApplication::translate("memviz::ImportTask", "while opening %1").arg(e.file);
    switch (e.phase) {
    case ProgressPhase::Reading:
        return QCoreApplication::translate("memviz::ImportTask", "while reading byte %1 of %2").arg(e.lastByte).arg(e.file);
    case ProgressPhase::Building:
        return QCoreApplication::translate("memviz::ImportTask", "while building the trace from %1 (the whole file was read)")
            .arg(e.file);
    case ProgressPhase::Writing:
        return QCoreApplication::translate("memviz::ImportTask", "while writing the trace of %1 into the store").arg(e.file);
    }
    return QCoreApplication::translate("memviz::ImportTask", "while opening %1").arg(e.file);
}

} // namespace

QString signalName(int signal) {
    if (const char* abbrev = sigabbrev_np(signal)) return QStringLiteral("SIG") + QString::fromLatin1(abbrev);
    return QStringLiteral("signal %1").arg(signal);
}

QString describeWorkerEnd(const WorkerEnd& e) {
    QString what;
    if (e.outOfMemory) {
        what = QCoreApplication::translate(
                   "memviz::ImportTask",
                   "memviz's reader ran out of memory %1: it may use at most %2 (set by import/memoryLimit in the "
                   "settings or the environment variable MEMVIZ_IMPORT_MEMORY_LIMIT; by default half of this "
                   "machine's memory).")
                   .arg(where(e), QString::fromStdString(formatBytes(static_cast<double>(e.memoryCeiling))));
    } else if (e.signal == SIGKILL) {
        what = QCoreApplication::translate(
                   "memviz::ImportTask", "memviz's reader was killed (signal %1, %2) %3; the system may have run out of memory.")
                   .arg(e.signal)
                   .arg(signalName(e.signal), where(e));
    } else if (e.signal) {
        what = QCoreApplication::translate("memviz::ImportTask", "memviz's reader stopped unexpectedly (signal %1, %2) %3.")
                   .arg(e.signal)
                   .arg(signalName(e.signal), where(e));
    } else {
        what = QCoreApplication::translate("memviz::ImportTask", "memviz's reader stopped unexpectedly (exit status %1) %2.")
                   .arg(e.exitCode)
                   .arg(where(e));
    }
    what += QLatin1Char(' ') +
            QCoreApplication::translate("memviz::ImportTask", "Nothing was stored; the window and its traces are not affected.");
    if (!e.lastWords.isEmpty())
        what += QStringLiteral("\n\n") +
                QCoreApplication::translate("memviz::ImportTask", "Its last message: %1").arg(e.lastWords);
    return what;
}

} // namespace memviz

// SPDX-License-Identifier: MIT
#pragma once
// What the user is told when an import worker (see ImportTask) ended without importing:
// which file, what happened to the reader (a signal, an exit status, the memory ceiling)
// and how far it had got ("while reading byte N of FILE").
#include <QString>

#include "core/Progress.h"

namespace memviz {

struct WorkerEnd {
    QString file;
    bool phaseSeen = false; // false: it ended before it began reading
    ProgressPhase phase = ProgressPhase::Reading;
    qint64 lastByte = -1; // the last file position it reported; -1 when none
    qint64 fileSize = 0;
    int signal = 0;           // it was ended by this signal (0: it exited)
    int exitCode = 0;         // else its exit status
    bool outOfMemory = false; // it said an allocation failed under its ceiling
    qint64 memoryCeiling = 0; // bytes, 0 = none
    QString lastWords;        // the last line it wrote on stderr, if any
};

// "SIGSEGV"; "signal 64" for a number without a name.
QString signalName(int signal);
// One paragraph naming the file, what happened, and how far the reader got.
QString describeWorkerEnd(const WorkerEnd& end);

} // namespace memviz

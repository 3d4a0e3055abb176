// SPDX-License-Identifier: MIT
#include "widgets/WorkerPool.h"

#include <QThread>
#include <QThreadPool>
#include <algorithm>

namespace memviz {

namespace {

struct Pool : QThreadPool {
    Pool() {
        setObjectName(QStringLiteral("memviz workers"));
        // As many as the global pool had: one per core, at least two (a query and a layout).
        setMaxThreadCount(std::max(2, QThread::idealThreadCount()));
    }
};

} // namespace

Q_GLOBAL_STATIC(Pool, pool)

QThreadPool* workerPool() { return pool(); }

} // namespace memviz

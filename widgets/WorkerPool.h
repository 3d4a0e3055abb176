// SPDX-License-Identifier: MIT
#pragma once
// The thread pool memviz's own work runs on: every BackgroundQuery and the opening of a store
// (ImportTask). Not QThreadPool::globalInstance(), on purpose: Qt 6.4's raster paint engine
// splits a large polygon fill into jobs on the global pool and the GUI thread waits for them
// (qdrawhelper's QT_THREAD_PARALLEL_FILLS), so while our long queries held every thread of
// that pool, one fill on the GUI thread waited for a whole query: 0.3 to 1.2 s after a snapshot
// device switch (docs/performance-snapshot.md, "GUI-thread stalls"). Keeping our jobs apart
// leaves the global pool free for Qt's short ones.
#include <QThreadPool>
#include <memory>
#include <utility>

namespace memviz {

QThreadPool* workerPool();

// Destroys `value` on a worker: freeing a big container (hundreds of MB of pages handed back
// to the kernel) costs the GUI thread tens of milliseconds. For a shared_ptr, the worker drops
// this reference; the memory goes when the last one does.
template <class T>
void releaseOnWorker(T value) {
    workerPool()->start([held = std::make_shared<T>(std::move(value))]() mutable { held.reset(); });
}

} // namespace memviz

// SPDX-License-Identifier: MIT
#pragma once
// Legend text for the series of a /proc recording (formats/live/ProcSampler.h names them).
#include <QObject>
#include <QString>
#include <string>

#include "formats/FormatIds.h"

namespace memviz {

inline QString processSeriesLabel(const std::string& name) {
    using namespace proc_series;
    if (name == kRss) return QObject::tr("RSS");
    if (name == kHwm) return QObject::tr("peak RSS (VmHWM)");
    if (name == kRssAnon) return QObject::tr("RSS anonymous");
    if (name == kRssFile) return QObject::tr("RSS file-backed");
    if (name == kRssShmem) return QObject::tr("RSS shared memory");
    if (name == kSwap) return QObject::tr("swapped out");
    if (name == kPss) return QObject::tr("PSS");
    if (name == kPrivate) return QObject::tr("private");
    if (name == kProcesses) return QObject::tr("processes");
    if (name == "heap_consumed") return QObject::tr("heap consumed (heaptrack)"); // memviz record --native
    if (name == "allocations_per_s") return QObject::tr("allocations per second (heaptrack)");
    return QString::fromStdString(name);
}

} // namespace memviz

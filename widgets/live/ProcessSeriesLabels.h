#pragma once
// Legend text for the series of a /proc recording (live/ProcSampler.h names them).
#include <QObject>
#include <QString>
#include <string>

namespace memviz {

inline QString processSeriesLabel(const std::string& name) {
    if (name == "rss") return QObject::tr("RSS");
    if (name == "hwm") return QObject::tr("peak RSS (VmHWM)");
    if (name == "rss_anon") return QObject::tr("RSS anonymous");
    if (name == "rss_file") return QObject::tr("RSS file-backed");
    if (name == "rss_shmem") return QObject::tr("RSS shared memory");
    if (name == "swap") return QObject::tr("swapped out");
    if (name == "pss") return QObject::tr("PSS");
    if (name == "private") return QObject::tr("private");
    if (name == "processes") return QObject::tr("processes");
    return QString::fromStdString(name);
}

} // namespace memviz

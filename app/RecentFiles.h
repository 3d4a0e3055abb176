// SPDX-License-Identifier: MIT
#pragma once
// The recent-files list kept in QSettings, most recent first.
#include <QSettings>
#include <QStringList>

namespace memviz::recent {

constexpr int kMax = 10;

inline QStringList files() { return QSettings().value("recentFiles").toStringList(); }

inline void add(const QString& path) {
    QStringList list = files();
    list.removeAll(path);
    list.prepend(path);
    while (list.size() > kMax) list.removeLast();
    QSettings().setValue("recentFiles", list);
}

inline void remove(const QString& path) {
    QStringList list = files();
    list.removeAll(path);
    QSettings().setValue("recentFiles", list);
}

inline void clear() { QSettings().remove("recentFiles"); }

} // namespace memviz::recent

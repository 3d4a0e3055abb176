// SPDX-License-Identifier: MIT
#pragma once
// A hash of a store file's pages, blind only to the two counters in SQLite's file header that
// every write transaction bumps (bytes 24-27, the change counter, and 92-95, its copy). A failed
// first import goes through the rollback journal (store/ImportJournal.h): it leaves every page
// as it was, but SQLite counts the rolled-back transaction in the header.
#include <QByteArray>
#include <QCryptographicHash>
#include <QString>

#include "TestSupport.h"

namespace memviz::test {

inline QByteArray storePagesHash(const QString& path) {
    QByteArray bytes = readFile(path);
    for (const int at : {24, 92})
        if (bytes.size() >= at + 4) bytes.replace(at, 4, QByteArray(4, '\0'));
    return QCryptographicHash::hash(bytes, QCryptographicHash::Sha1).toHex();
}

} // namespace memviz::test

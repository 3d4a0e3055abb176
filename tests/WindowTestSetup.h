// SPDX-License-Identifier: MIT
#pragma once
// The start of a suite that opens memviz's windows: QStandardPaths in test mode, an
// organisation of the suite's own (settings and import cache apart from the user's and from
// other suites'), both emptied so that nothing a previous run left behind leaks in, and
// memviz's resources (icons, sample, translations) loaded. At global scope, as
// Q_INIT_RESOURCE must be.
#include <QCoreApplication>
#include <QDir>
#include <QSettings>
#include <QStandardPaths>

inline void startIsolatedWindowSuite(const char* organization) {
    QStandardPaths::setTestModeEnabled(true);
    QCoreApplication::setOrganizationName(QString::fromLatin1(organization));
    QDir(QStandardPaths::writableLocation(QStandardPaths::CacheLocation)).removeRecursively();
    QSettings().clear();
    Q_INIT_RESOURCE(memviz);
}

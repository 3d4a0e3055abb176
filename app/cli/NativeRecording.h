// SPDX-License-Identifier: MIT
#pragma once
// memviz record --native: heaptrack live, launched or attached (docs/cli.md). Called by
// recordCommand once it parsed the options.
#include <QCommandLineParser>
#include <QStringList>

namespace memviz::cli {

int recordNative(const QCommandLineParser& p, const QStringList& command, const char* usage);

} // namespace memviz::cli

// SPDX-License-Identifier: MIT
#pragma once
// The headless command line: `memviz <subcommand> ...`. Every subcommand prints data to
// stdout (with --json where it prints data), errors to stderr, and returns an exit status.
#include <QStringList>

namespace memviz::cli {

// True when argv names a subcommand or a global option, so main() runs headless.
bool isCommandLineInvocation(int argc, char** argv);
// The subcommand that renders widgets (`screenshot`) lives in app/screenshot/, which links the
// widgets; main() hands it in, so that this library (memviz_cli) links only the model.
using WindowCommand = int (*)(int argc, char** argv, const QStringList& args);
int run(int argc, char** argv, WindowCommand screenshot);

// Subcommands; `args` excludes the program name and the subcommand itself.
int importCommand(const QStringList& args);
int summaryCommand(const QStringList& args);
int opsCommand(const QStringList& args);
int estimateCommand(const QStringList& args);
int recordCommand(const QStringList& args);
int explainCommand(const QStringList& args);
int stacksCommand(const QStringList& args);
int diffCommand(const QStringList& args);
int ranksCommand(const QStringList& args);
int checkCommand(const QStringList& args);
int reportCommand(const QStringList& args);
int allocatorReplayCommand(const QStringList& args);

} // namespace memviz::cli

// SPDX-License-Identifier: MIT
#pragma once
// The window lives in a second executable, memviz-gui, beside memviz (app/CMakeLists.txt): the
// command line then loads only Qt Core, not Qt's GUI stack (53 shared libraries, 8 ms of every
// `memviz` command's start on the 2-core test machine, issue 33). memviz hands the window, and
// the subcommands that render it (`screenshot`), to memviz-gui with the same arguments.
#include <QStringList>
#include <string>

namespace memviz::cli {

// The path of memviz-gui: beside this executable, else found on PATH.
std::string windowProgram();
// Replaces this process by memviz-gui with argv; returns only when that fails (after printing
// why), with status 127.
int execWindow(int argc, char** argv);
// cli::run's WindowCommand for `screenshot`: execWindow.
int execWindowCommand(int argc, char** argv, const QStringList& args);

} // namespace memviz::cli

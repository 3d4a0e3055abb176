// SPDX-License-Identifier: MIT
// memviz: the subcommands run here, headless, with Qt Core only; the window and `screenshot`
// run in memviz-gui (main.cpp), which this program becomes with the same arguments
// (cli/WindowLauncher.h). The hidden --import-worker mode is handled in both.
#include <QCoreApplication>
#include <cstring>

#include "cli/Cli.h"
#include "cli/ImportWorker.h"
#include "cli/WindowLauncher.h"
#include "formats/ImportWorkerProtocol.h"

int main(int argc, char** argv) {
    if (argc > 1 && !std::strcmp(argv[1], memviz::importworker::kSwitch)) return memviz::runImportWorker(argc, argv);
    QCoreApplication::setOrganizationName("memviz");
    QCoreApplication::setApplicationName("memviz");
    QCoreApplication::setApplicationVersion(MEMVIZ_VERSION);
    if (memviz::cli::isCommandLineInvocation(argc, argv))
        return memviz::cli::run(argc, argv, memviz::cli::execWindowCommand);
    return memviz::cli::execWindow(argc, argv);
}

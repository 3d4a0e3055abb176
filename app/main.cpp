// SPDX-License-Identifier: MIT
// memviz: a subcommand runs headless (cli::run); the hidden --import-worker mode is the
// window's import child (ImportWorker.h); anything else opens the window.
#include <QApplication>
#include <QIcon>
#include <cstring>

#include "Language.h"
#include "MainWindow.h"
#include "WindowHost.h"
#include "cli/Cli.h"
#include "cli/ImportWorker.h"
#include "formats/ImportWorkerProtocol.h"
#include "screenshot/Screenshot.h"
#include "widgets/ranks/RanksOpener.h"

int main(int argc, char** argv) {
    // Before Qt starts: the worker needs no application object, only the model.
    if (argc > 1 && !std::strcmp(argv[1], memviz::importworker::kSwitch)) return memviz::runImportWorker(argc, argv);
    Q_INIT_RESOURCE(memviz); // the resources live in a static library
    QCoreApplication::setOrganizationName("memviz");
    QCoreApplication::setApplicationName("memviz");
    QCoreApplication::setApplicationVersion(MEMVIZ_VERSION);
    if (memviz::cli::isCommandLineInvocation(argc, argv)) return memviz::cli::run(argc, argv, memviz::cli::screenshotCommand);

    QApplication app(argc, argv);
    QApplication::setWindowIcon(QIcon(":/icons/memviz.png"));
    memviz::language::apply(memviz::language::resolve(memviz::language::saved()));
    memviz::WindowHost host;
    memviz::MainWindow& window = *host.window();
    window.show();
    const QStringList args = QApplication::arguments().mid(1);
    if (args.contains("--sample")) window.openSample();
    else if (args.contains("--learn")) window.openLearn();
    else if (args.size() >= 2 && args.first() == "--ranks") { // the Ranks window on PATH... (memviz --ranks PATH...)
        if (auto* ranks = window.findChild<memviz::RanksOpener*>()) ranks->open(args.mid(1));
    } else if (!args.isEmpty()) window.openFile(args.first());
    else window.openInitial();
    return QApplication::exec();
}

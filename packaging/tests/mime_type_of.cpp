// SPDX-License-Identifier: MIT
// Prints the MIME type Qt's QMimeDatabase gives each file argument (by name and content), one
// per line: the Qt side of check_mime.sh (memviz's own file dialogs and KDE use this database).
#include <QCoreApplication>
#include <QMimeDatabase>
#include <cstdio>

int main(int argc, char** argv) {
    QCoreApplication app(argc, argv);
    const QMimeDatabase db;
    for (int i = 1; i < argc; ++i) std::printf("%s\n", qPrintable(db.mimeTypeForFile(QString::fromLocal8Bit(argv[i])).name()));
    return 0;
}

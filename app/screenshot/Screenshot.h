// SPDX-License-Identifier: MIT
#pragma once
// `memviz screenshot`: renders the main window, the what-if panel or a lesson offscreen to a
// PNG. It needs the widgets, so it lives in the app (memviz_app) and main() hands it to
// cli::run() (cli/Cli.h) as the window command.
#include <QCommandLineParser>
#include <QSize>
#include <QStringList>

class QWidget;

namespace memviz::cli {

int screenshotCommand(int argc, char** argv, const QStringList& args);
// --learn LESSON: one lesson or the OOM decoder (app/screenshot/LearnScreenshot.cpp).
int learnScreenshot(const QCommandLineParser& p, QSize size);

// Grabs `window` into a PNG at `out` and reports it; the exit status (1: cannot write).
int saveScreenshot(QWidget& window, const QString& out);

} // namespace memviz::cli

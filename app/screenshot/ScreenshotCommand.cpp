// SPDX-License-Identifier: MIT
#include <QApplication>
#include <QDockWidget>
#include <QPixmap>
#include <QScreen>
#include <QTabWidget>
#include <stdexcept>

#include "Language.h"
#include "MainWindow.h"
#include "cli/Cli.h"
#include "cli/CliSupport.h"
#include "cli/CostModelOptions.h"
#include "screenshot/Screenshot.h"

#include "costmodel/OptionNames.h"
#include "widgets/AsyncTableView.h"
#include "widgets/TimelinePlot.h"
#include "widgets/snapshot/ActiveMemoryView.h"
#include "widgets/snapshot/AllocatorStateView.h"
#include "widgets/snapshot/SnapshotPanel.h"
#include "widgets/whatif/MemoryLimitPicker.h"
#include "widgets/whatif/WhatIfPanel.h"

namespace memviz::cli {

namespace {

// How many positional arguments `args` has for the options of `p` (at most 1 is accepted).
qsizetype positionalCount(QCommandLineParser& p, const QStringList& args) {
    p.setSingleDashWordOptionMode(QCommandLineParser::ParseAsLongOptions);
    p.parse(QStringList{QStringLiteral("memviz")} + args);
    return std::min<qsizetype>(1, p.positionalArguments().size());
}

// --whatif: the what-if panel set up from --model/--batch/... (same words as memviz estimate).
void configureWhatIf(WhatIfPanel& panel, const QCommandLineParser& p) {
    using namespace costmodel;
    if (p.isSet("model") && !panel.selectPreset(p.value("model").toLower()))
        throw UsageError{"unknown model preset \"" + p.value("model") + "\" (see memviz estimate --list-models)"};
    if (p.isSet("spec") && !panel.openSpec(p.value("spec"))) throw UsageError{panel.errorText()};
    EstimateOptions base = panel.options();
    base.amp = false;
    base.training = true;
    panel.setOptions(estimateOptionsFrom(p, base));
    if (p.isSet("limit") && !panel.limitPicker()->setTypedLimit(p.value("limit")))
        throw UsageError{"--limit needs a size such as 16GiB, got \"" + p.value("limit") + "\""};
}

} // namespace

int screenshotCommand(int argc, char** argv, const QStringList& args) {
    QCommandLineParser p;
    p.addOption({"out", "PNG file to write.", "PNG"});
    p.addOption({"size", "Window size (default 1400x900).", "WxH"});
    p.addOption({"trace", "Trace id inside a .memviz store (default: the latest).", "ID"});
    p.addOption({"tab", "Detail tab to show, by the start of its title (e.g. \"allocator\").", "NAME"});
    p.addOption({"whatif", "Show the what-if panel (without FILE_OR_DB: the panel alone)."});
    p.addOption({"calibrate", "With --whatif and a trace: calibrate the panel on it."});
    for (const char* flag : {"amp", "inference"}) p.addOption({flag, flag});
    for (const char* valued : {"model", "spec", "batch", "dtype", "optimizer", "checkpoint", "device", "limit"})
        p.addOption({valued, valued, "VALUE"});
    p.addOption({"lang", "User-interface language (en, zh_CN).", "CODE"});
    p.addOption({"learn", "Render the Learn window on this lesson instead (no file needed).", "LESSON"});
    p.addOption({"presenter", "With --learn: presenter scale (x1.5) and high contrast."});
    p.addOption({"scale", "With --learn: font and line scale (1-2).", "X"});
    p.addOption({"message", "With --learn oom-decoder: the message to decode.", "TEXT"});
    const QString usage =
        "memviz screenshot FILE_OR_DB --out PNG [--size WxH] [--trace ID] [--tab NAME] [--lang CODE]\n"
        "       memviz screenshot [FILE_OR_DB] --whatif [--calibrate] --out PNG [--model ID | --spec FILE]\n"
        "              [--batch N] [--dtype D] [--amp] [--optimizer O] [--checkpoint C] [--inference]\n"
        "              [--device cpu|cuda] [--limit SIZE]\n"
        "       memviz screenshot --learn LESSON --out PNG [--size WxH] [--lang CODE] [--presenter] [--scale X]\n"
        "              [--message TEXT]";
    // FILE_OR_DB is required, except with --whatif (then the panel is shown alone) and --learn.
    const bool whatIf = args.contains("--whatif");
    const bool learn = args.contains("--learn");
    parseOrThrow(p, args, learn ? 0 : whatIf ? static_cast<int>(positionalCount(p, args)) : 1, usage);
    if (!p.isSet("out")) throw UsageError{"--out PNG is required\nusage: " + usage};
    QSize size(1400, 900);
    if (p.isSet("size")) {
        const QStringList wh = p.value("size").split('x');
        bool ok1 = false, ok2 = false;
        if (wh.size() == 2) size = QSize(wh[0].toInt(&ok1), wh[1].toInt(&ok2));
        if (!ok1 || !ok2 || size.width() < 200 || size.height() < 150 || size.width() > 8000 || size.height() > 8000)
            throw UsageError{"--size needs WxH between 200x150 and 8000x8000, got \"" + p.value("size") + "\""};
    }
    const qint64 traceId = traceIdOption(p);
    // Headless: render offscreen unless the caller chose a platform.
    if (qEnvironmentVariableIsEmpty("QT_QPA_PLATFORM")) qputenv("QT_QPA_PLATFORM", "offscreen");
    QApplication app(argc, argv);
    QApplication::setApplicationName("memviz-screenshot"); // keeps the user's settings and recent files untouched
    if (p.isSet("lang") && !language::apply(p.value("lang")))
        throw UsageError{"no translation for \"" + p.value("lang") + "\" (languages: " + language::available().join(", ") + ")"};
    if (p.isSet("learn")) return learnScreenshot(p, size);
    if (whatIf && p.positionalArguments().isEmpty()) { // the panel alone
        WhatIfPanel panel;
        panel.resize(size);
        configureWhatIf(panel, p);
        panel.show();
        QApplication::processEvents();
        const QPixmap shot = panel.grab();
        if (!shot.save(p.value("out"), "PNG")) {
            printErr("memviz screenshot: cannot write " + p.value("out") + "\n");
            return 1;
        }
        printOut(QStringLiteral("wrote %1 (%2x%3)\n").arg(p.value("out")).arg(shot.width()).arg(shot.height()));
        return 0;
    }
    MainWindow window;
    window.resize(size);
    window.openFileBlocking(p.positionalArguments().first(), traceId);
    if (whatIf) {
        window.whatIfDock()->show();
        configureWhatIf(*window.whatIfPanel(), p);
        if (p.isSet("calibrate") && !window.whatIfPanel()->calibrate()) throw UsageError{"cannot calibrate on this trace"};
    }
    if (p.isSet("tab")) {
        const QString wanted = p.value("tab");
        QTabWidget* tabs = window.detailTabs();
        QStringList titles;
        int found = -1;
        for (int i = 0; i < tabs->count(); ++i) {
            const QString title = tabs->tabText(i).remove('&');
            titles << title;
            if (found < 0 && title.startsWith(wanted, Qt::CaseInsensitive)) found = i;
        }
        if (found < 0) throw UsageError{"no tab starts with \"" + wanted + "\" for this trace (tabs: " + titles.join(", ") + ")"};
        tabs->setCurrentIndex(found);
    }
    window.show();
    QApplication::processEvents();
    window.timeline()->refreshNow();
    for (AsyncTableView* view : window.findChildren<AsyncTableView*>()) view->waitForQuery();
    window.snapshotPanel()->stateView()->waitForQuery();
    window.snapshotPanel()->activeMemoryView()->waitForLayout();
    QApplication::processEvents();
    return saveScreenshot(window, p.value("out"));
}

int saveScreenshot(QWidget& window, const QString& out) {
    const QPixmap shot = window.grab();
    if (!shot.save(out, "PNG")) {
        printErr("memviz screenshot: cannot write " + out + "\n");
        return 1;
    }
    printOut(QStringLiteral("wrote %1 (%2x%3)\n").arg(out).arg(shot.width()).arg(shot.height()));
    return 0;
}

} // namespace memviz::cli

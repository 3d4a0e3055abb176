#include <QApplication>
#include <QPixmap>
#include <QScreen>
#include <QTabWidget>

#include "Language.h"
#include "MainWindow.h"
#include "cli/Cli.h"
#include "cli/CliSupport.h"
#include "widgets/learn/LearnWindow.h"

#include "widgets/AsyncTableView.h"
#include "widgets/TimelinePlot.h"
#include "widgets/snapshot/AllocatorStateView.h"
#include "widgets/snapshot/SnapshotPanel.h"

namespace memviz::cli {

int learnScreenshot(const QCommandLineParser& p, QSize size);

int screenshotCommand(int argc, char** argv, const QStringList& args) {
    QCommandLineParser p;
    p.addOption({"out", "PNG file to write.", "PNG"});
    p.addOption({"size", "Window size (default 1400x900).", "WxH"});
    p.addOption({"trace", "Trace id inside a .memviz store (default: the latest).", "ID"});
    p.addOption({"tab", "Detail tab to show, by the start of its title (e.g. \"allocator\").", "NAME"});
    p.addOption({"lang", "User-interface language (en, zh_CN).", "CODE"});
    p.addOption({"learn", "Render the Learn window on this lesson instead (no file needed).", "LESSON"});
    p.addOption({"presenter", "With --learn: presenter scale (x1.5) and high contrast."});
    p.addOption({"scale", "With --learn: font and line scale (1-2).", "X"});
    p.addOption({"message", "With --learn oom-decoder: the message to decode.", "TEXT"});
    const QString usage = "memviz screenshot FILE_OR_DB --out PNG [--size WxH] [--trace ID] [--tab NAME] [--lang CODE]\n"
                          "       memviz screenshot --learn LESSON --out PNG [--size WxH] [--lang CODE] [--presenter] [--scale X]";
    parseOrThrow(p, args, args.contains("--learn") ? 0 : 1, usage);
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
    MainWindow window;
    window.resize(size);
    window.openFileBlocking(p.positionalArguments().first(), traceId);
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
        if (found < 0)
            throw UsageError{"no tab starts with \"" + wanted + "\" for this trace (tabs: " + titles.join(", ") + ")"};
        tabs->setCurrentIndex(found);
    }
    window.show();
    QApplication::processEvents();
    window.timeline()->refreshNow();
    for (AsyncTableView* view : window.findChildren<AsyncTableView*>()) view->waitForQuery();
    window.snapshotPanel()->stateView()->waitForQuery();
    QApplication::processEvents();
    const QPixmap shot = window.grab();
    const QString out = p.value("out");
    if (!shot.save(out, "PNG")) {
        printErr("memviz screenshot: cannot write " + out + "\n");
        return 1;
    }
    printOut(QStringLiteral("wrote %1 (%2x%3)\n").arg(out).arg(shot.width()).arg(shot.height()));
    return 0;
}

} // namespace memviz::cli

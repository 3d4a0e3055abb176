// SPDX-License-Identifier: MIT
// The live window as a user meets it (issue 19): how many samples it says it saved, a
// recording that is a self-contained file once it ended (no data left in the -wal), the
// default file name of a launched command, a launched program that outlives Stop and can
// still be ended from the window, the Launch dialog's pre-filled command, and the program's
// last stderr lines shown when it fails.
#include <QLabel>
#include <QLineEdit>
#include <QMenu>
#include <QPushButton>
#include <QtTest>

#include <csignal>
#include <sys/types.h>
#include <unistd.h>

#include "LiveActions.h"
#include "TestSupport.h"
#include "formats/live/Launcher.h"
#include "formats/live/LiveQueries.h"
#include "formats/live/ProcRecorder.h"
#include "formats/live/RecordingName.h"
#include "formats/live/StderrTail.h"
#include "store/Database.h"
#include "store/TraceQueries.h"
#include "widgets/TraceSession.h"
#include "widgets/live/LaunchDialog.h"
#include "widgets/live/LiveSession.h"
#include "widgets/live/LiveView.h"
#include "widgets/live/LiveWindow.h"
#include "widgets/live/ProbeDialog.h"
#include "widgets/live/ProcessPickerDialog.h"
#include "widgets/live/RecordingOptionsWidget.h"
#include <QPlainTextEdit>
#include <fcntl.h>

using namespace memviz;

namespace {

// A window recording `command` (launched), sampled every `intervalMs`, its stderr captured as
// the Record menu does.
LiveWindow* launchWindow(const QString& store, const std::vector<std::string>& command, int intervalMs = 20) {
    ProcRecordingOptions o;
    o.command = command;
    o.intervalNs = std::int64_t{intervalMs} * 1'000'000;
    o.captureStderr = true;
    auto* session = new LiveSession(std::make_unique<ProcRecorder>(store.toStdString(), o), LiveSession::Kind::Launch);
    session->setPollIntervalMs(50);
    auto* window = new LiveWindow(session, "live window test");
    window->setAskBeforeStopping(false);
    window->resize(1280, 760);
    window->show();
    return window;
}

QPushButton* buttonNamed(QWidget* w, const QString& text) {
    for (QPushButton* b : w->findChildren<QPushButton*>())
        if (b->text() == text) return b;
    return nullptr;
}

// True while `pid` exists and is not a zombie.
bool running(int pid) {
    QFile stat(QStringLiteral("/proc/%1/stat").arg(pid));
    if (!stat.open(QIODevice::ReadOnly)) return false;
    const QByteArray s = stat.readAll();
    const qsizetype close = s.lastIndexOf(')');
    return close > 0 && close + 2 < s.size() && s.at(close + 2) != 'Z';
}

std::int64_t scalar(Database& db, const std::string& sql) { return queryInt(db, sql).value_or(-1); }

} // namespace

class TestLiveWindow : public QObject {
    Q_OBJECT
private slots:
    void initTestCase();
    void samplesSavedCountsSamplingMoments();
    void finishedRecordingIsSelfContained();
    void launchDialogNamesTheRecordingAfterTheProgram();
    void launchDialogSelectsThePrefilledCommand();
    void dialogLabelsHaveWorkingMnemonics();
    void stoppedProgramCanStillBeTerminated();
    void programIgnoringTerminateCanBeKilled();
    void recordingNameOfCommands_data();
    void recordingNameOfCommands();
    void fileNameStemIsSafe();
    void commandLinesSplitAsAShellWould_data();
    void commandLinesSplitAsAShellWould();
    void lastLinesAsATerminalShowsThem();
    void stderrIsPassedThroughAndTailed();
    void failingProgramShowsItsStderr();
};

void TestLiveWindow::initTestCase() {
    QStandardPaths::setTestModeEnabled(true);
    QCoreApplication::setOrganizationName("memviz-tests");
}

void TestLiveWindow::samplesSavedCountsSamplingMoments() {
    QTemporaryDir dir;
    const QString store = dir.filePath("moments.memviz");
    std::unique_ptr<LiveWindow> window(
        launchWindow(store, {std::string(MEMVIZ_LIVE_STEPS), "--hold-ms", "150", "--step-mib", "8"}));
    LiveSession* session = window->session();
    QTRY_VERIFY_WITH_TIMEOUT(session->isFinished(), 30000);
    const RecorderStatus s = session->status();
    QVERIFY(s.traceId > 0);
    Database db(store.toStdString(), Database::Mode::ReadOnly);
    const std::string id = std::to_string(s.traceId);
    // A sampling moment reads every series once: as many moments as distinct sample times, and
    // as many as RSS readings (RSS is read every time).
    const std::int64_t moments = scalar(db, "SELECT count(DISTINCT t) FROM live_samples WHERE trace_id = " + id);
    const std::int64_t rows = scalar(db, "SELECT count(*) FROM live_samples WHERE trace_id = " + id);
    const std::int64_t rss = scalar(db, "SELECT count(*) FROM live_samples JOIN live_series USING (trace_id, series) "
                                        "WHERE trace_id = " +
                                            id + " AND name = 'rss'");
    QCOMPARE(rss, moments);
    QVERIFY2(rows >= 4 * moments, qPrintable(QStringLiteral("%1 rows, %2 moments").arg(rows).arg(moments)));
    // The program holds 4 × 150 ms: at 20 ms about 30 moments, never more than its run time allows.
    const std::int64_t bound = s.lastT / 20'000'000 + 2;
    QVERIFY2(moments >= 10 && moments <= bound, qPrintable(QStringLiteral("%1 moments in %2 ns").arg(moments).arg(s.lastT)));
    QCOMPARE(s.committedSamples, moments);
    const QString text = window->view()->statusLabel()->text();
    QVERIFY2(text.contains(QStringLiteral("%L1 samples saved").arg(moments)), qPrintable(text));
}

void TestLiveWindow::finishedRecordingIsSelfContained() {
    QTemporaryDir dir;
    const QString store = dir.filePath("whole.memviz");
    std::unique_ptr<LiveWindow> window(
        launchWindow(store, {std::string(MEMVIZ_LIVE_STEPS), "--hold-ms", "100", "--step-mib", "8"}));
    LiveSession* session = window->session();
    QTRY_VERIFY_WITH_TIMEOUT(session->isFinished(), 30000);
    // The window still reads the store (its timeline shows the finished trace), as after
    // "Open in Main Window" or before Ctrl+Q.
    QVERIFY(session->trace()->isOpen());
    const std::int64_t traceId = session->status().traceId;
    std::int64_t samples = 0;
    {
        Database db(store.toStdString(), Database::Mode::ReadOnly);
        samples = scalar(db, "SELECT count(*) FROM live_samples WHERE trace_id = " + std::to_string(traceId));
    }
    QVERIFY(samples > 10);
    // A copy of the .memviz alone, as a user would mail or move it while the window is open.
    QTemporaryDir other;
    const QString copy = other.filePath("copy.memviz");
    QVERIFY(QFile::copy(store, copy));
    QVERIFY(!QFileInfo::exists(copy + "-wal"));
    std::unique_ptr<Database> opened;
    try {
        opened = std::make_unique<Database>(copy.toStdString(), Database::Mode::ReadOnly);
    } catch (const std::exception& e) {
        QFAIL(qPrintable(QStringLiteral("the copy does not open (%1): the recording is still in the -wal file").arg(e.what())));
    }
    Database& db = *opened;
    const auto trace = findTrace(db, traceId);
    QVERIFY2(trace.has_value(), "the copy holds no trace: the recording is still in the -wal file");
    QCOMPARE(scalar(db, "SELECT count(*) FROM live_samples WHERE trace_id = " + std::to_string(traceId)), samples);
    const auto rec = findLiveRecording(db, traceId);
    QVERIFY(rec && !rec->recording());
    QVERIFY(!listSeries(db, traceId).empty());
    window.reset();
    // Quitting (every connection closed) leaves no -wal behind that holds data either.
    QVERIFY(QFileInfo(store + "-wal").size() == 0);
}

void TestLiveWindow::launchDialogNamesTheRecordingAfterTheProgram() {
    LaunchDialog dialog;
    const auto nameFor = [&](const QString& command) {
        dialog.commandEdit()->setText(command);
        return QFileInfo(dialog.options()->storePath()).fileName();
    };
    // yyyyMMdd-HHmmss after the program's name.
    const QRegularExpression stamped(QStringLiteral("^(.+)-\\d{8}-\\d{6}\\.memviz$"));
    const auto stem = [&](const QString& command) {
        const QRegularExpressionMatch m = stamped.match(nameFor(command));
        return m.hasMatch() ? m.captured(1) : QStringLiteral("<no match: %1>").arg(nameFor(command));
    };
    QCOMPARE(stem(QStringLiteral("python3 -c \"import time; time.sleep(3)\"")), QStringLiteral("python3"));
    QCOMPARE(stem(QStringLiteral("/usr/bin/python3 train.py --epochs 1")), QStringLiteral("train"));
    QCOMPARE(stem(QStringLiteral("python3 -u scripts/fine_tune.py")), QStringLiteral("fine_tune"));
    QCOMPARE(stem(QStringLiteral("python3 -m torch.utils.bottleneck x.py")), QStringLiteral("torch.utils.bottleneck"));
    QCOMPARE(stem(QStringLiteral("\"./build/my app\" --flag")), QStringLiteral("my_app"));
    QCOMPARE(stem(QStringLiteral("-weird --x")), QStringLiteral("weird"));
    for (const QString& c : {QStringLiteral("python3 -c 1"), QStringLiteral("-x"), QStringLiteral("python3 -")})
        QVERIFY2(!nameFor(c).startsWith('-'), qPrintable(nameFor(c)));
    // A path the user typed stays when the command changes.
    dialog.options()->setStorePath(QStringLiteral("/tmp/mine.memviz"));
    dialog.commandEdit()->setText(QStringLiteral("python3 other.py"));
    QCOMPARE(dialog.options()->storePath(), QStringLiteral("/tmp/mine.memviz"));
    // Attaching names the recording after the selected process (this test, here).
    ProcessPickerDialog picker;
    picker.waitForListing();
    picker.selectPid(static_cast<int>(::getpid()));
    QVERIFY2(QFileInfo(picker.options()->storePath()).fileName().startsWith(QStringLiteral("tst_live_window-")),
             qPrintable(picker.options()->storePath()));
}

void TestLiveWindow::launchDialogSelectsThePrefilledCommand() {
    QSettings().setValue("live/lastCommand", "python3 old_script.py");
    LaunchDialog dialog;
    dialog.show();
    QVERIFY(QTest::qWaitForWindowExposed(&dialog));
    QLineEdit* edit = dialog.commandEdit();
    QCOMPARE(edit->text(), QStringLiteral("python3 old_script.py"));
    QCOMPARE(dialog.focusWidget(), edit);
    QCOMPARE(edit->selectedText(), edit->text());
    // Typing replaces the old command instead of appending to it.
    QTest::keyClicks(edit, "sleep 1");
    QCOMPARE(edit->text(), QStringLiteral("sleep 1"));
}

void TestLiveWindow::stoppedProgramCanStillBeTerminated() {
    QTemporaryDir dir;
    std::unique_ptr<LiveWindow> window(launchWindow(dir.filePath("t.memviz"), {"/bin/sleep", "30"}, 50));
    LiveSession* session = window->session();
    QTRY_VERIFY_WITH_TIMEOUT(session->status().state == RecorderStatus::State::Recording && session->status().lastT > 0, 20000);
    const int pid = session->status().targetPid;
    QVERIFY(pid > 0);
    window->view()->stopButton()->click();
    QTRY_VERIFY_WITH_TIMEOUT(session->isFinished(), 20000);
    QVERIFY(running(pid)); // Stop ends the recording, not the program
    // The window still offers to end it.
    QPushButton* terminate = buttonNamed(window.get(), QStringLiteral("&Terminate Program"));
    QVERIFY(terminate);
    QVERIFY(terminate->isVisible() && terminate->isEnabled());
    terminate->click();
    QTRY_VERIFY_WITH_TIMEOUT(!running(pid), 10000);
    QTRY_VERIFY_WITH_TIMEOUT(!terminate->isVisible(), 5000);
    const QString message = window->view()->messageLabel()->text();
    QVERIFY2(message.contains(QStringLiteral("signal 15")), qPrintable(message));
}

void TestLiveWindow::dialogLabelsHaveWorkingMnemonics() {
    // A label with a mnemonic ('&' before a letter) shows the '&' literally unless it has a
    // buddy; with one, Alt+letter moves the focus there.
    LaunchDialog launch;
    ProbeDialog probe;
    ProcessPickerDialog picker;
    int checked = 0;
    for (QWidget* dialog : std::initializer_list<QWidget*>{&launch, &probe, &picker}) {
        for (QLabel* label : dialog->findChildren<QLabel*>()) {
            const QString text = label->text();
            if (label->textFormat() == Qt::RichText ||
                !QRegularExpression(QStringLiteral("(^|[^&])&[^& ]")).match(text).hasMatch())
                continue;
            QVERIFY2(label->buddy(), qPrintable(dialog->windowTitle() + ": \"" + text + "\" shows its '&'"));
            ++checked;
        }
    }
    QVERIFY(checked >= 7); // command, run in, listen on, and every dialog's sample every / save to
    RecordingOptionsWidget* options = launch.options();
    launch.show();
    QVERIFY(QTest::qWaitForWindowActive(&launch));
    QTest::keyClick(&launch, Qt::Key_S, Qt::AltModifier);
    QCOMPARE(launch.focusWidget(), options->storeEdit());
}

void TestLiveWindow::programIgnoringTerminateCanBeKilled() {
    QTemporaryDir dir;
    // exec keeps the ignored SIGTERM: sleep itself ignores it.
    std::unique_ptr<LiveWindow> window(
        launchWindow(dir.filePath("k.memviz"), {"/bin/sh", "-c", "trap '' TERM; exec sleep 30"}, 50));
    LiveSession* session = window->session();
    QTRY_VERIFY_WITH_TIMEOUT(session->status().state == RecorderStatus::State::Recording && session->status().lastT > 0, 20000);
    const int pid = session->status().targetPid;
    LiveView* view = window->view();
    QVERIFY(view->terminateButton()->isVisible() && view->killButton()->isVisible());
    view->stopButton()->click();
    QTRY_VERIFY_WITH_TIMEOUT(session->isFinished(), 20000);
    view->terminateButton()->click();
    QTest::qWait(500);
    QVERIFY(running(pid)); // SIGTERM ignored
    QVERIFY(view->killButton()->isVisible() && view->killButton()->isEnabled());
    view->killButton()->click();
    QTRY_VERIFY_WITH_TIMEOUT(!running(pid), 10000);
    QTRY_VERIFY_WITH_TIMEOUT(!view->killButton()->isVisible() && !view->terminateButton()->isVisible(), 5000);
    QCOMPARE(session->exitAfterRecording().value_or(ExitStatus{}).signal.value_or(0), SIGKILL);
    QVERIFY2(view->messageLabel()->text().contains(QStringLiteral("killed by signal 9")),
             qPrintable(view->messageLabel()->text()));
}

void TestLiveWindow::recordingNameOfCommands_data() {
    QTest::addColumn<QStringList>("argv");
    QTest::addColumn<QString>("name");
    // CPython's command line: `python [option] ... [-c cmd | -m mod | file | -] [arg] ...`.
    QTest::newRow("python -c") << QStringList{"python3", "-c", "import time"} << "python3";
    QTest::newRow("combined -uc") << QStringList{"python3", "-uc", "print(1)"} << "python3";
    QTest::newRow("script") << QStringList{"/usr/bin/python3", "train.py", "--epochs", "1"} << "train";
    QTest::newRow("options first") << QStringList{"python3.11", "-u", "-X", "dev", "-W", "ignore", "src/fine_tune.py"}
                                   << "fine_tune";
    QTest::newRow("-Wvalue") << QStringList{"python", "-Wignore", "a.b.py"} << "a.b";
    QTest::newRow("module") << QStringList{"python3", "-m", "torch.utils.bottleneck", "x.py"} << "torch.utils.bottleneck";
    QTest::newRow("-mmodule") << QStringList{"pypy3", "-mpip", "list"} << "pip";
    QTest::newRow("stdin") << QStringList{"python3", "-"} << "python3";
    QTest::newRow("--") << QStringList{"python3", "--", "-odd.py"} << "-odd";
    QTest::newRow("no script") << QStringList{"python3"} << "python3";
    QTest::newRow("native") << QStringList{"./build/bench_store", "--rows", "10"} << "bench_store";
    QTest::newRow("not python") << QStringList{"pythonic-tool", "run.py"} << "pythonic-tool";
    QTest::newRow("empty") << QStringList{} << "";
}

void TestLiveWindow::recordingNameOfCommands() {
    QFETCH(QStringList, argv);
    QFETCH(QString, name);
    std::vector<std::string> args;
    for (const QString& a : argv) args.push_back(a.toStdString());
    QCOMPARE(QString::fromStdString(recordingName(args)), name);
}

void TestLiveWindow::fileNameStemIsSafe() {
    QCOMPARE(fileNameStem("-c"), std::string("c"));
    QCOMPARE(fileNameStem("--x"), std::string("x"));
    QCOMPARE(fileNameStem(".hidden"), std::string("hidden"));
    QCOMPARE(fileNameStem("-odd"), std::string("odd"));
    QCOMPARE(fileNameStem("my app (v2)"), std::string("my_app_v2_"));
    QCOMPARE(fileNameStem("训练.py"), std::string("_.py"));
    QCOMPARE(fileNameStem(""), std::string("recording"));
    QCOMPARE(fileNameStem("---"), std::string("recording"));
    QCOMPARE(fileNameStem("/"), std::string("recording"));
    QCOMPARE(fileNameStem(std::string(100, 'a')).size(), std::size_t(40));
}

void TestLiveWindow::commandLinesSplitAsAShellWould_data() {
    QTest::addColumn<QString>("line");
    QTest::addColumn<QStringList>("words"); // empty list + "!" first: an error
    // The common cases as Python's shlex.split (POSIX mode) gives them; the edge cases as
    // POSIX sh (2.2 Quoting): in "…" a backslash escapes only $ ` " \ and newline, and
    // backslash-newline is removed.
    QTest::newRow("single quotes") << "sh -c 'echo hi >&2; exit 3'" << QStringList{"sh", "-c", "echo hi >&2; exit 3"};
    QTest::newRow("double quotes") << R"x(python3 -c "import sys; print(\"x\")")x"
                                   << QStringList{"python3", "-c", R"x(import sys; print("x"))x"};
    QTest::newRow("backslash space") << R"(a\ b c)" << QStringList{"a b", "c"};
    QTest::newRow("concatenated") << R"(x"y"'z')" << QStringList{"xyz"};
    QTest::newRow("empty word") << "prog '' \"\"" << QStringList{"prog", "", ""};
    QTest::newRow("kept backslash") << R"("a\$b\c" 'd\e')" << QStringList{"a$b\\c", "d\\e"};
    QTest::newRow("continuation") << "one\\\ntwo \\\n three" << QStringList{"onetwo", "three"};
    QTest::newRow("white space") << "  lead \t trail  " << QStringList{"lead", "trail"};
    QTest::newRow("joined back") << QString::fromStdString(joinCommandLine({"python3", "-c", "print('a b')", "$HOME"}))
                                 << QStringList{"python3", "-c", "print('a b')", "$HOME"};
    QTest::newRow("open single") << "sh -c 'echo" << QStringList{"!", "unterminated ' quote"};
    QTest::newRow("open double") << "python3 -c \"x" << QStringList{"!", "unterminated \" quote"};
}

void TestLiveWindow::commandLinesSplitAsAShellWould() {
    QFETCH(QString, line);
    QFETCH(QStringList, words);
    if (!words.isEmpty() && words.first() == "!") {
        try {
            splitCommandLine(line.toStdString());
            QFAIL("no error");
        } catch (const std::invalid_argument& e) {
            QCOMPARE(QString::fromUtf8(e.what()), words.at(1));
        }
        return;
    }
    QStringList got;
    for (const std::string& w : splitCommandLine(line.toStdString())) got << QString::fromStdString(w);
    QCOMPARE(got, words);
}

void TestLiveWindow::lastLinesAsATerminalShowsThem() {
    std::string thirty;
    for (int i = 1; i <= 30; ++i) thirty += "line " + std::to_string(i) + "\n";
    std::string expected;
    for (int i = 11; i <= 30; ++i) expected += (i > 11 ? "\n" : "") + ("line " + std::to_string(i));
    QCOMPARE(lastLines(thirty), expected);
    QCOMPARE(lastLines(thirty, 2), std::string("line 29\nline 30"));
    // A progress bar redrawn with carriage returns, coloured with ANSI escapes.
    QCOMPARE(lastLines("epoch 1\n\x1b[32m 10%\r 50%\r100%\x1b[0m\r\nTraceback\n\n"), std::string("epoch 1\n100%\nTraceback"));
    QCOMPARE(lastLines("a\x1b]0;title\x07"
                       "b\n"),
             std::string("ab"));
    // At most maxBytes, cut at a line start.
    QCOMPARE(lastLines("aaaa\nbbbb\ncccc\n", 20, 10), std::string("bbbb\ncccc")); // 9 bytes
    QCOMPARE(lastLines("aaaa\nbbbb\ncccc\n", 20, 7), std::string("cccc"));
    // The first line of a buffer that lost its beginning is partial: dropped.
    QCOMPARE(lastLines("tial line\nwhole line\n", 20, 4096, true), std::string("whole line"));
    QCOMPARE(lastLines(""), std::string());
}

void TestLiveWindow::stderrIsPassedThroughAndTailed() {
    int in[2], out[2];
    QVERIFY(::pipe(in) == 0 && ::pipe(out) == 0);
    ::fcntl(out[0], F_SETFL, O_NONBLOCK);
    auto tail = std::make_unique<StderrTail>(in[0], out[1]);
    std::string written;
    for (int i = 1; i <= 25; ++i) written += "warning " + std::to_string(i) + "\n";
    QCOMPARE(::write(in[1], written.data(), written.size()), static_cast<ssize_t>(written.size()));
    ::close(in[1]);
    QVERIFY(tail->waitForEnd(5000));
    std::string through(written.size() + 16, '\0');
    const ssize_t n = ::read(out[0], through.data(), through.size());
    QCOMPARE(std::string(through.data(), static_cast<std::size_t>(std::max<ssize_t>(n, 0))), written); // every byte, unchanged
    QCOMPARE(tail->text(), lastLines(written));
    QVERIFY(tail->text().starts_with("warning 6\n"));
    tail.reset();
    ::close(out[0]);
    ::close(out[1]);
}

void TestLiveWindow::failingProgramShowsItsStderr() {
    QTemporaryDir dir;
    // Through the Record menu's code path, as a user launches it.
    QWidget host;
    QMenu menu;
    LiveActions actions(&host, &menu);
    std::unique_ptr<LiveWindow> window(
        actions.launch({"/bin/sh", "-c", "i=1; while [ $i -le 30 ]; do echo \"error line $i\" >&2; i=$((i+1)); done; exit 3"}, {},
                       dir.filePath("f.memviz"), 20, false));
    QVERIFY(window);
    window->setAskBeforeStopping(false);
    LiveSession* session = window->session();
    QTRY_VERIFY_WITH_TIMEOUT(session->isFinished(), 20000);
    QCOMPARE(session->status().exitCode.value_or(-1), 3);
    QString expected;
    for (int i = 11; i <= 30; ++i) expected += QStringLiteral("%1error line %2").arg(i > 11 ? "\n" : "").arg(i);
    LiveView* view = window->view();
    QVERIFY(view->stderrView()->isVisible());
    QCOMPARE(view->stderrView()->toPlainText(), expected);
    // A program that succeeded shows none.
    QTemporaryDir dir2;
    std::unique_ptr<LiveWindow> ok(launchWindow(dir2.filePath("o.memviz"), {"/bin/sh", "-c", "echo chatter >&2; exit 0"}));
    QTRY_VERIFY_WITH_TIMEOUT(ok->session()->isFinished(), 20000);
    QVERIFY(!ok->view()->stderrView()->isVisible());
}

QTEST_MAIN(TestLiveWindow)
#include "tst_live_window.moc"

// SPDX-License-Identifier: MIT
// The live GUI: the process list model and picker, the operator table that merges rows while
// a probe streams, the live window mid-recording (grabbed to live-window-*.png in the test's
// working folder), following the end and pausing, markers, and the Record menu.
#include <QAbstractItemModelTester>
#include <QComboBox>
#include <QLabel>
#include <QLineEdit>
#include <QMenuBar>
#include <QPushButton>
#include <QSortFilterProxyModel>
#include <QTableView>
#include <QtTest>
#include <qcustomplot.h>

#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>

#include "LiveActions.h"
#include "MainWindow.h"
#include "ProbeClient.h"
#include "TestSupport.h"
#include "formats/live/LiveQueries.h"
#include "formats/live/ProbeRecorder.h"
#include "formats/live/ProcRecorder.h"
#include "widgets/OpsTableModel.h"
#include "widgets/OpsView.h"
#include "widgets/TimelinePlot.h"
#include "widgets/TraceSession.h"
#include "widgets/live/LiveSession.h"
#include "widgets/live/LiveView.h"
#include "widgets/live/LiveWindow.h"
#include "widgets/live/ProcessListModel.h"
#include "widgets/live/ProcessPickerDialog.h"

using namespace memviz;
using memviz::test::connectUnix;

namespace {

ProcessEntry entry(int pid, const char* name, std::int64_t rss, const char* cmd = "") {
    ProcessEntry e;
    e.pid = pid;
    e.name = name;
    e.rssBytes = rss;
    e.commandLine = cmd;
    return e;
}

OpRow op(const char* name, std::int64_t allocated) {
    OpRow r;
    r.name = name;
    r.allocs = 1;
    r.bytesAllocated = allocated;
    r.largestAlloc = allocated;
    return r;
}

void sendLine(int fd, const QByteArray& line) {
    const QByteArray data = line + "\n";
    [[maybe_unused]] const ssize_t n = ::send(fd, data.constData(), static_cast<std::size_t>(data.size()), MSG_NOSIGNAL);
}

QString grabTo(QWidget* w, const QString& name) {
    const QString path = QDir::current().filePath(name);
    w->grab().save(path, "PNG");
    return path;
}

} // namespace

class TestLiveViews : public QObject {
    Q_OBJECT
private slots:
    void processListModelMergesListings();
    void opsTableMergesRows();
    void pickerListsAndFiltersThisProcess();
    void liveWindowWhileRecording();
    void probeStreamFillsTheOperatorTable();
    void recordMenuAndFinishedRecordingInMainWindow();
    void mainWindowWatchesAnotherRecorder();
};

void TestLiveViews::processListModelMergesListings() {
    ProcessListModel model;
    QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
    model.setProcesses(
        {entry(10, "bash", 4 << 20, "bash -l"), entry(20, "python3", 900 << 20, "python3 train.py"), entry(30, "vim", 12 << 20)});
    QCOMPARE(model.rowCount(), 3);
    QCOMPARE(model.data(model.index(1, ProcessListModel::Name)).toString(), QStringLiteral("python3"));
    QCOMPARE(model.data(model.index(1, ProcessListModel::Rss)).toString(), QStringLiteral("900.00 MiB"));
    QCOMPARE(model.data(model.index(1, ProcessListModel::Rss), ProcessListModel::SortRole).toLongLong(), 900LL << 20);
    QCOMPARE(model.headerData(ProcessListModel::CommandLine, Qt::Horizontal).toString(), QStringLiteral("Command line"));
    // Next listing: vim ended, python3 grew, pid 10 is now another program, a new one came.
    QSignalSpy changed(&model, &QAbstractItemModel::dataChanged);
    QSignalSpy reset(&model, &QAbstractItemModel::modelReset);
    model.setProcesses(
        {entry(10, "sleep", 1 << 20), entry(20, "python3", 1000 << 20, "python3 train.py"), entry(40, "top", 5 << 20)});
    QCOMPARE(reset.count(), 0); // merged, not reset: selections survive
    QCOMPARE(model.rowCount(), 3);
    QCOMPARE(model.rowOf(30), -1);
    QCOMPARE(model.rowOf(20), 0); // kept its row (the rows above it went)
    QCOMPARE(changed.count(), 1);
    QCOMPARE(model.data(model.index(model.rowOf(10), ProcessListModel::Name)).toString(), QStringLiteral("sleep"));
    QCOMPARE(model.data(model.index(model.rowOf(40), ProcessListModel::Pid), ProcessListModel::PidRole).toInt(), 40);
    model.setProcesses(listProcesses(true)); // the real thing, through the tester
    QVERIFY(model.rowOf(static_cast<int>(::getpid())) >= 0);
    model.setProcesses({});
    QCOMPARE(model.rowCount(), 0);
}

void TestLiveViews::opsTableMergesRows() {
    OpsTableModel model;
    QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
    model.mergeRows({op("aten::mm", 100), op("aten::add", 50)});
    QCOMPARE(model.rowCount(), 2);
    QSignalSpy reset(&model, &QAbstractItemModel::modelReset);
    QSignalSpy inserted(&model, &QAbstractItemModel::rowsInserted);
    model.mergeRows({op("aten::relu", 500), op("aten::mm", 300), op("aten::add", 50)});
    QCOMPARE(reset.count(), 0);
    QCOMPARE(inserted.count(), 1);
    QCOMPARE(model.rows()[0].name, std::string("aten::mm"));
    QCOMPARE(model.rows()[0].bytesAllocated, 300);
    QCOMPARE(model.rows()[2].name, std::string("aten::relu"));
    model.mergeRows({op("aten::relu", 500)});
    QCOMPARE(model.rowCount(), 1);
    QCOMPARE(model.rows()[0].name, std::string("aten::relu"));
}

void TestLiveViews::pickerListsAndFiltersThisProcess() {
    ProcessPickerDialog dialog;
    QAbstractItemModelTester tester(dialog.proxy(), QAbstractItemModelTester::FailureReportingMode::QtTest);
    dialog.waitForListing();
    const int me = static_cast<int>(::getpid());
    QVERIFY(dialog.model()->rowOf(me) >= 0);
    dialog.filterEdit()->setText(QStringLiteral("tst_live_views"));
    QVERIFY(dialog.proxy()->rowCount() >= 1);
    dialog.selectPid(me);
    QCOMPARE(dialog.selectedPid(), me);
    dialog.filterEdit()->setText(QString::number(me));
    QVERIFY(dialog.proxy()->rowCount() >= 1);
    dialog.refresh(); // a refresh keeps the selection
    dialog.waitForListing();
    QCOMPARE(dialog.selectedPid(), me);
    dialog.filterEdit()->setText(QStringLiteral("no process is called this 4b1d"));
    QCOMPARE(dialog.proxy()->rowCount(), 0);
}

void TestLiveViews::liveWindowWhileRecording() {
    QTemporaryDir dir;
    ProcRecordingOptions o;
    o.command = {std::string(MEMVIZ_LIVE_STEPS), "--hold-ms", "700", "--step-mib", "48"};
    o.intervalNs = 20'000'000;
    auto* session = new LiveSession(std::make_unique<ProcRecorder>(dir.filePath("w.memviz").toStdString(), o),
                                    LiveSession::Kind::Launch);
    session->setPollIntervalMs(100);
    LiveWindow window(session, "live test");
    window.setAskBeforeStopping(false);
    window.resize(1200, 700);
    window.show();
    LiveView* view = window.view();
    // Recording: the timeline follows the samples as they are committed.
    QTRY_VERIFY_WITH_TIMEOUT(session->trace()->isLive() && session->trace()->fullRange().end > 1'000'000'000, 20000);
    QVERIFY(view->isFollowing());
    QVERIFY(view->statusLabel()->text().contains("Recording"));
    QVERIFY(view->statusLabel()->text().contains("RSS"));
    QVERIFY(view->timeline()->plot()->graphCount() >= 6);
    const double upper = view->timeline()->plot()->xAxis->range().upper;
    QVERIFY(upper >= static_cast<double>(session->trace()->fullRange().end));
    // A marker, by the button.
    view->markerLabel()->setText("first step");
    view->markerButton()->click();
    // Looking into the past pauses following; recording goes on.
    view->setFollowing(false);
    view->timeline()->plot()->xAxis->setRange(0, 2e8);
    const qint64 endBefore = session->trace()->fullRange().end;
    QTRY_VERIFY_WITH_TIMEOUT(session->trace()->fullRange().end > endBefore + 200'000'000, 20000);
    QCOMPARE(view->timeline()->plot()->xAxis->range().upper, 2e8);
    QCOMPARE(view->pauseButton()->text(), QStringLiteral("&Resume View"));
    view->pauseButton()->click();
    QVERIFY(view->isFollowing());
    view->followBox()->setCurrentIndex(1); // last 10 s: whole recording while shorter
    QTRY_VERIFY(session->trace()->fullRange().end > endBefore + 400'000'000);
    view->timeline()->refreshNow();
    QCoreApplication::processEvents();
    const QString png = grabTo(&window, "live-window-recording.png");
    QVERIFY(QImage(png).width() >= 1000);
    qInfo("live window mid-recording: %s", qPrintable(png));
    // Stop: the recording is finalised and the view shows it.
    view->stopButton()->click();
    QTRY_VERIFY_WITH_TIMEOUT(session->isFinished(), 20000);
    QVERIFY(!session->trace()->isLive());
    QVERIFY(session->trace()->isOpen());
    QVERIFY(view->messageLabel()->isVisible());
    QVERIFY2(view->messageLabel()->text().contains("saved in"), qPrintable(view->messageLabel()->text()));
    const auto markers = listLiveMarkers(session->trace()->database(), session->trace()->traceId());
    QVERIFY(std::any_of(markers.begin(), markers.end(), [](const LiveMarker& m) { return m.label == "first step"; }));
    QVERIFY(std::any_of(view->timeline()->markers().begin(), view->timeline()->markers().end(),
                        [](const TimelineMarker& m) { return m.label == "first step"; }));
    grabTo(&window, "live-window-finished.png");
}

void TestLiveViews::probeStreamFillsTheOperatorTable() {
    QTemporaryDir dir;
    const std::string socket = dir.filePath("p.sock").toStdString();
    auto recorder = std::make_unique<ProbeRecorder>(dir.filePath("p.memviz").toStdString(), parseProbeAddress("unix:" + socket));
    recorder->setCommitIntervalNs(50'000'000);
    auto* session = new LiveSession(std::move(recorder), LiveSession::Kind::Probe);
    session->setPollIntervalMs(50);
    LiveWindow window(session, "probe test");
    window.setAskBeforeStopping(false);
    window.resize(1100, 700);
    window.show();
    QTRY_VERIFY(session->status().state == RecorderStatus::State::Waiting);
    QVERIFY(window.view()->opsView()->isVisible());
    const int fd = connectUnix(socket);
    QVERIFY(fd >= 0);
    sendLine(fd, R"({"type":"hello","protocol":"memviz-probe","version":1,"pid":99,"argv":["train.py"]})");
    sendLine(fd, R"({"type":"phase","t":0,"phase":"forward","step":0})");
    std::int64_t t = 1000, bytes = 1 << 20;
    auto sendOp = [&](const char* name, std::int64_t grow) {
        sendLine(
            fd,
            QStringLiteral(
                R"({"type":"op","t":%1,"dur":5000,"name":"%2","phase":"forward","step":0,"mem":{"cpu":{"before":%3,"after":%4}}})")
                .arg(t)
                .arg(name)
                .arg(bytes)
                .arg(bytes + grow)
                .toUtf8());
        t += 10000;
        bytes += grow;
    };
    sendOp("aten::empty", 4096);
    sendOp("aten::mm", 65536);
    // The table fills while the stream runs (a query once a second).
    OpsTableModel* model = window.view()->opsView()->model();
    QTRY_VERIFY_WITH_TIMEOUT(model->rowCount() == 2, 10000);
    QVERIFY(session->trace()->isLive());
    sendOp("aten::relu", 1024);
    sendLine(fd, QStringLiteral(R"({"type":"phase","t":%1,"phase":"backward","step":0})").arg(t).toUtf8());
    sendOp("aten::mm", 8192);
    QTRY_VERIFY_WITH_TIMEOUT(model->rowCount() == 3, 10000);
    QTRY_VERIFY_WITH_TIMEOUT(std::any_of(model->rows().begin(), model->rows().end(),
                                         [](const OpRow& r) { return r.name == "aten::mm" && r.bytesAllocated == 65536 + 8192; }),
                             10000);
    // Operator names on the timeline: the hover read-out names the op running then.
    QTRY_VERIFY(window.view()->timeline()->readoutAt(12000).contains("operator: aten::mm (forward, step 0)"));
    QTRY_VERIFY(!window.view()->timeline()->regions().empty()); // forward, backward
    grabTo(&window, "live-window-probe.png");
    sendLine(fd, QStringLiteral(R"({"type":"bye","t":%1,"exit_code":0})").arg(t).toUtf8());
    ::close(fd);
    QTRY_VERIFY_WITH_TIMEOUT(session->isFinished(), 10000);
    QCOMPARE(QString::fromStdString(session->status().endReason), QStringLiteral("exited"));
    window.view()->opsView()->waitForQuery();
    QCOMPARE(model->rowCount(), 3); // the finalised trace's op_stats, same rows
}

void TestLiveViews::recordMenuAndFinishedRecordingInMainWindow() {
    MainWindow main;
    QMenu* record = nullptr;
    for (QAction* a : main.menuBar()->actions())
        if (a->text().remove('&') == "Record") record = a->menu();
    QVERIFY(record);
    LiveActions* actions = main.liveActions();
    QCOMPARE(actions->attachAction()->shortcut(), QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_A));
    QCOMPARE(actions->launchAction()->shortcut(), QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_L));
    QCOMPARE(actions->probeAction()->shortcut(), QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_P));
    QVERIFY(record->actions().contains(actions->probeAction()));
    // Launch and record from the menu's code path, then open the result in the main window.
    QTemporaryDir dir;
    const QString store = dir.filePath("sub/menu.memviz"); // the folder is made
    LiveWindow* window = actions->launch({QStringLiteral(MEMVIZ_LIVE_STEPS), "--hold-ms", "150", "--exit-code", "4"}, dir.path(),
                                         store, 20, false);
    QVERIFY(window);
    window->setAskBeforeStopping(false);
    QTRY_VERIFY_WITH_TIMEOUT(window->session()->isFinished(), 30000);
    QCOMPARE(window->session()->status().exitCode.value_or(-1), 4);
    QSignalSpy opened(main.session(), &TraceSession::traceChanged);
    emit window->view()->openRequested(store, window->session()->status().traceId);
    QCOMPARE(opened.count(), 1);
    QCOMPARE(main.session()->traceId(), window->session()->status().traceId);
    QCOMPARE(QString::fromStdString(main.session()->summary().trace.format), QStringLiteral("memviz-live-proc"));
    // The exit is marked on the main timeline.
    QVERIFY(std::any_of(main.timeline()->markers().begin(), main.timeline()->markers().end(),
                        [](const TimelineMarker& m) { return m.label == "exited with status 4"; }));
    window->close();
    // A program that does not exist: the live window says so, nothing is recorded.
    LiveWindow* failed = actions->launch({"/definitely/not/here"}, {}, dir.filePath("x.memviz"), 20, false);
    QVERIFY(failed);
    failed->setAskBeforeStopping(false);
    QTRY_VERIFY_WITH_TIMEOUT(failed->session()->isFinished(), 10000);
    QCOMPARE(failed->session()->status().state, RecorderStatus::State::Failed);
    QVERIFY2(failed->view()->messageLabel()->text().contains("cannot run /definitely/not/here"),
             qPrintable(failed->view()->messageLabel()->text()));
    QVERIFY(!QFileInfo::exists(dir.filePath("x.memviz")));
    failed->close();
}

void TestLiveViews::mainWindowWatchesAnotherRecorder() {
    QTemporaryDir dir;
    const QString store = dir.filePath("watched.memviz");
    QProcess recorder;
    recorder.setReadChannel(QProcess::StandardError);
    recorder.start(QStringLiteral(MEMVIZ_BINARY), {"record", "--out", store, "--interval-ms", "20", "--progress", "--",
                                                   QStringLiteral(MEMVIZ_LIVE_STEPS), "--hold-ms", "400"});
    QVERIFY(recorder.waitForReadyRead(10000)); // a first commit
    MainWindow main;
    main.openFileBlocking(store);
    QVERIFY(main.session()->isLive());
    const qint64 first = main.session()->fullRange().end;
    QTRY_VERIFY_WITH_TIMEOUT(main.session()->fullRange().end > first + 300'000'000, 20000);
    QVERIFY(main.timeline()->plot()->graphCount() >= 6);
    QVERIFY(recorder.waitForFinished(30000));
    QCOMPARE(recorder.exitCode(), 0);
    // Once the other memviz finalised it, the window shows the finished trace.
    QTRY_VERIFY_WITH_TIMEOUT(!main.session()->isLive(), 10000);
    QCOMPARE(main.session()->summary().devices.size(), std::size_t(1));
    QVERIFY(main.session()->summary().devices[0].peakBytes >= 128 * 1024 * 1024);
}

QTEST_MAIN(TestLiveViews)
#include "tst_live_views.moc"

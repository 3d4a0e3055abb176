// SPDX-License-Identifier: MIT
// One file after another in the same window (issue 30, step 5: the walk through the wild
// corpus with Xvfb and xdotool found these): a profiler trace without memory events says so
// instead of drawing an empty chart in a corner; the Flame tab stays last and a new trace opens
// at its first tab, not at the previous trace's Flame; every tab's Alt+letter is its own (Alt+F
// and Alt+L opened the File and Learn menus, not Flame; Alt+H opened Help, not Heap tree); Ctrl+
// PgDown / Ctrl+PgUp walk the tabs wherever the focus is. Offscreen, on the real window.
#include <QAction>
#include <QApplication>
#include <QLabel>
#include <QSortFilterProxyModel>
#include <QMenuBar>
#include <QSet>
#include <QTabWidget>
#include <QtTest>
#include <qcustomplot.h>

#include "MainWindow.h"
#include "TestSupport.h"
#include "WindowTestSetup.h"
#include "widgets/NoMemoryNotice.h"
#include "widgets/OpsView.h"
#include "widgets/TimelinePlot.h"
#include "widgets/TraceSession.h"
#include "widgets/snapshot/ActiveMemoryView.h"

using namespace memviz;

namespace {

QString samplePath() { return QStringLiteral(MEMVIZ_SOURCE_DIR) + "/resources/sample/sample_training_step.csv.gz"; }
QString massifPath() { return QStringLiteral(MEMVIZ_SOURCE_DIR) + "/tests/data/native/massif/time_B.massif"; }

// A kineto trace recorded without profile_memory=True: operators, no [memory] events.
const QByteArray kNoMemoryTrace = R"({"schemaVersion": 1, "traceEvents": [
 {"ph": "X", "cat": "cpu_op", "name": "aten::linear", "pid": 1, "tid": 1, "ts": 0, "dur": 4000},
 {"ph": "X", "cat": "cpu_op", "name": "aten::addmm", "pid": 1, "tid": 1, "ts": 100, "dur": 3000},
 {"ph": "X", "cat": "kernel", "name": "gemm", "pid": 0, "tid": 7, "ts": 200, "dur": 2000}
]})";

// [memory] events of the CPU allocator (Total Reserved always 0: it caches nothing) and of a
// CUDA one (4 MiB reserved, then 6 MiB).
const QByteArray kCpuAndCudaMemoryTrace = R"({"schemaVersion": 1, "traceEvents": [
 {"ph": "i", "cat": "cpu_instant_event", "s": "t", "name": "[memory]", "pid": 1, "tid": 1, "ts": 0,
  "args": {"Device Type": 0, "Device Id": -1, "Addr": 16, "Bytes": 1000, "Total Allocated": 1000, "Total Reserved": 0}},
 {"ph": "i", "cat": "cpu_instant_event", "s": "t", "name": "[memory]", "pid": 1, "tid": 1, "ts": 10,
  "args": {"Device Type": 0, "Device Id": -1, "Addr": 16, "Bytes": -1000, "Total Allocated": 0, "Total Reserved": 0}},
 {"ph": "i", "cat": "cpu_instant_event", "s": "t", "name": "[memory]", "pid": 1, "tid": 1, "ts": 20,
  "args": {"Device Type": 1, "Device Id": 0, "Addr": 4096, "Bytes": 2097152, "Total Allocated": 2097152, "Total Reserved": 4194304}},
 {"ph": "i", "cat": "cpu_instant_event", "s": "t", "name": "[memory]", "pid": 1, "tid": 1, "ts": 30,
  "args": {"Device Type": 1, "Device Id": 0, "Addr": 8192, "Bytes": 3145728, "Total Allocated": 5242880, "Total Reserved": 6291456}}
]})";

QStringList legendNames(QCustomPlot* plot) {
    QStringList names;
    for (int i = 0; i < plot->legend->itemCount(); ++i)
        if (auto* item = qobject_cast<QCPPlottableLegendItem*>(plot->legend->item(i))) names << item->plottable()->name();
    return names;
}

QStringList tabTitles(const QTabWidget* tabs) {
    QStringList titles;
    for (int i = 0; i < tabs->count(); ++i) titles << tabs->tabText(i);
    return titles;
}

// The Alt+letter of a title ("F&lame" → "Alt+L"), empty without one.
QString mnemonicOf(const QString& title) { return QKeySequence::mnemonic(title).toString(); }

} // namespace

class TestWindowFiles : public QObject {
    Q_OBJECT
private slots:
    void initTestCase();
    void traceWithoutMemorySaysWhy();
    void flameStaysLastAndANewTraceOpensAtItsFirstTab();
    void tabLettersAreTheirOwn();
    void ctrlPageDownWalksTheTabs();
    void activeMemoryFirstShowsTheTimelinesWindow();
    void aTraceOfOneMomentDrawsItsLevel();
    void aReservedLineAtZeroIsNotDrawn();
    void anEmptyOperatorsTableSaysWhy();

private:
    QTemporaryDir dir_;
};

void TestWindowFiles::initTestCase() {
    startIsolatedWindowSuite("memviz-tests-window-files");
    QVERIFY(dir_.isValid());
}

// 46 of the wild corpus's 61 traces: the plot was an empty frame squeezed into the top-left
// corner with an axis "0 2 4 6 8 10" and no word on why.
void TestWindowFiles::traceWithoutMemorySaysWhy() {
    MainWindow w;
    w.resize(1280, 800);
    w.show();
    QVERIFY(QTest::qWaitForWindowExposed(&w));
    w.openFileBlocking(test::writeFile(dir_, "no_memory.pt.trace.json", kNoMemoryTrace));
    auto* notice = w.timeline()->findChild<NoMemoryNotice*>();
    QVERIFY(notice);
    QVERIFY(notice->isVisible());
    QVERIFY(!w.timeline()->plot()->isVisible());
    QVERIFY2(notice->text().contains("profile_memory=True"), qPrintable(notice->text()));
    QVERIFY(notice->text().contains("no memory events"));
    QVERIFY(notice->text().contains("4.000 ms")); // its span: 0 .. 4000 us, written by words::duration
    // What it has: the operators are in the first tab.
    QCOMPARE(w.detailTabs()->tabText(0).remove('&'), QStringLiteral("Operators"));
    // The next file has memory: the chart is back and the words are gone.
    w.openFileBlocking(samplePath());
    QVERIFY(w.timeline()->plot()->isVisible());
    QVERIFY(!notice->isVisible());
    QVERIFY(w.timeline()->plot()->graphCount() > 0);
}

void TestWindowFiles::flameStaysLastAndANewTraceOpensAtItsFirstTab() {
    MainWindow w;
    w.resize(1280, 800);
    QTabWidget* tabs = w.detailTabs();
    QStringList paths{test::writeFile(dir_, "ops_only.pt.trace.json", kNoMemoryTrace), samplePath(), massifPath()};
    const QString snapshot = test::sharedFixture("pytorch-snapshot/magma27_2026.pickle");
    if (!snapshot.isEmpty()) paths.insert(2, snapshot);
    else if (test::oraclesRequired()) QFAIL("shared fixture pytorch-snapshot/magma27_2026.pickle is absent");
    paths << paths.first(); // and back to where it began
    // A fresh window's first file opens at its first tab too (a snapshot opened at Active
    // Memory, the third of its tabs, when it was the window's first file).
    if (!snapshot.isEmpty()) {
        MainWindow fresh;
        fresh.openFileBlocking(snapshot);
        QCOMPARE(fresh.detailTabs()->currentIndex(), 0);
    }
    for (const QString& path : paths) {
        // The user looked at Flame in the previous file.
        if (tabs->count() > 0) tabs->setCurrentIndex(tabs->count() - 1);
        w.openFileBlocking(path);
        const QStringList titles = tabTitles(tabs);
        QVERIFY2(titles.size() >= 2, qPrintable(path));
        QCOMPARE(titles.count("Flam&e"), 1);
        QVERIFY2(titles.last() == "Flam&e", qPrintable(path + ": " + titles.join(", ")));
        QVERIFY2(tabs->currentIndex() == 0, qPrintable(path + ": opened at " + tabs->tabText(tabs->currentIndex())));
    }
}

// The menu bar's letters (File, Record, View, Learn, Help) and each file's tabs' letters: no
// letter twice, so Alt+letter reaches the tab.
void TestWindowFiles::tabLettersAreTheirOwn() {
    MainWindow w;
    QStringList menuLetters;
    for (QAction* a : w.menuBar()->actions()) menuLetters << mnemonicOf(a->text());
    QCOMPARE(QSet<QString>(menuLetters.begin(), menuLetters.end()).size(), menuLetters.size());
    QStringList paths{test::writeFile(dir_, "letters.pt.trace.json", kNoMemoryTrace), samplePath(), massifPath()};
    for (const char* fixture : {"pytorch-snapshot/magma27_2026.pickle", "pytorch-profiler/hta_2xv100_2022.pt.trace.json.gz"}) {
        const QString path = test::sharedFixture(fixture);
        if (!path.isEmpty()) paths << path;
        else if (test::oraclesRequired()) QFAIL(qPrintable(QString("shared fixture %1 is absent").arg(fixture)));
    }
    const QString heaptrack = QStringLiteral(MEMVIZ_SOURCE_DIR) + "/tests/data/native/heaptrack/v3_all_records.zst";
    if (QFileInfo::exists(heaptrack)) paths << heaptrack;
    for (const QString& path : paths) {
        w.openFileBlocking(path);
        QStringList letters = menuLetters;
        for (const QString& title : tabTitles(w.detailTabs())) {
            const QString letter = mnemonicOf(title);
            QVERIFY2(!letter.isEmpty(), qPrintable(path + ": tab " + title + " has no letter"));
            QVERIFY2(!letters.contains(letter),
                     qPrintable(QStringLiteral("%1: tab %2's %3 is taken").arg(path, title, letter)));
            letters << letter;
        }
    }
}

void TestWindowFiles::ctrlPageDownWalksTheTabs() {
    MainWindow w;
    w.resize(1280, 800);
    w.openFileBlocking(samplePath());
    w.show();
    w.activateWindow();
    QVERIFY(QTest::qWaitForWindowActive(&w));
    QTabWidget* tabs = w.detailTabs();
    const int n = tabs->count();
    QVERIFY(n >= 2);
    QCOMPARE(tabs->currentIndex(), 0);
    // From the timeline, which has the focus after a click on it, not the tabs.
    w.timeline()->setFocus();
    for (int i = 1; i <= n; ++i) {
        QTest::keyClick(QApplication::focusWidget() ? QApplication::focusWidget() : &w, Qt::Key_PageDown,
                        Qt::ControlModifier);
        QCOMPARE(tabs->currentIndex(), i % n);
    }
    QTest::keyClick(QApplication::focusWidget() ? QApplication::focusWidget() : &w, Qt::Key_PageUp, Qt::ControlModifier);
    QCOMPARE(tabs->currentIndex(), n - 1);
}

// The walk's Constructor-Sun snapshot: Active Memory's first drawing spanned its bands' own
// extent and only took the timeline's window (with its margins) after Home; the layout arrives
// after the timeline set the window, and kept its own.
void TestWindowFiles::activeMemoryFirstShowsTheTimelinesWindow() {
    const QString snapshot = test::sharedFixture("pytorch-snapshot/magma27_2026.pickle");
    if (snapshot.isEmpty()) MEMVIZ_SKIP_OR_FAIL("shared fixture pytorch-snapshot/magma27_2026.pickle is absent");
    MainWindow w;
    w.resize(1280, 800);
    w.show();
    QVERIFY(QTest::qWaitForWindowExposed(&w));
    w.openFileBlocking(snapshot);
    auto* active = w.findChild<ActiveMemoryView*>();
    QVERIFY(active);
    const QCPRange timeline = w.timeline()->plot()->xAxis->range();
    QTRY_COMPARE(active->plot()->xAxis->range().lower, timeline.lower);
    QCOMPARE(active->plot()->xAxis->range().upper, timeline.upper);
}

// Snapshots without history (the wild corpus's ZijianDu, Muduard, Maphsge files: segments at
// one instant) were one point at event 0 on a 0..10 axis, which a step line does not draw: an
// empty chart with a peak label. Two allocations at one moment: 100 + 300 = 400 bytes, drawn
// as a level to the axis' end.
void TestWindowFiles::aTraceOfOneMomentDrawsItsLevel() {
    MainWindow w;
    w.resize(1280, 800);
    w.show();
    QVERIFY(QTest::qWaitForWindowExposed(&w));
    w.openFileBlocking(test::writeFile(dir_, "moment.csv",
                                       "time_ns,action,address,size,op\n0,alloc,0x10,100,a\n0,alloc,0x20,300,b\n"));
    w.timeline()->refreshNow();
    QCustomPlot* plot = w.timeline()->plot();
    QVERIFY(plot->graphCount() >= 1);
    QCPGraph* g = plot->graph(0);
    QVERIFY(g->dataCount() >= 2);
    const double first = g->data()->constBegin()->key, last = (g->data()->constEnd() - 1)->key;
    QVERIFY2(last > first, qPrintable(QStringLiteral("%1 .. %2").arg(first).arg(last)));
    QCOMPARE((g->data()->constEnd() - 1)->value, 400.0);
    QVERIFY(last <= plot->xAxis->range().upper);
}

// The wild corpus's CPU profiler traces showed "cpu reserved" in the legend for a line hidden
// under the axis: the CPU allocator reports Total Reserved 0 on every event.
void TestWindowFiles::aReservedLineAtZeroIsNotDrawn() {
    MainWindow w;
    w.resize(1280, 800);
    w.show();
    QVERIFY(QTest::qWaitForWindowExposed(&w));
    w.openFileBlocking(test::writeFile(dir_, "cpu_and_cuda.pt.trace.json", kCpuAndCudaMemoryTrace));
    w.timeline()->refreshNow();
    QCustomPlot* plot = w.timeline()->plot();
    const QStringList names = legendNames(plot);
    QVERIFY2(names.contains("cpu") && names.contains("cuda:0") && names.contains("cuda:0 reserved"), qPrintable(names.join(", ")));
    QVERIFY2(!names.contains("cpu reserved"), qPrintable(names.join(", ")));
    for (int i = 0; i < plot->graphCount(); ++i)
        QCOMPARE(plot->graph(i)->visible(), plot->graph(i)->name() != "cpu reserved");
    // The read-out names the drawn lines only.
    const QString readout = w.timeline()->readoutAt(20000);
    QVERIFY2(readout.contains("cuda:0 reserved: 4.00 MiB") && !readout.contains("cpu reserved"), qPrintable(readout));
}

// A snapshot whose history holds no allocation (the wild corpus's Yiyi oom_snapshot: one OOM
// entry; here one segment, one live block and the OOM): its Operators tab was an empty table
// under "Operators, whole trace", with no word why.
void TestWindowFiles::anEmptyOperatorsTableSaysWhy() {
    if (test::python().isEmpty()) MEMVIZ_SKIP_OR_FAIL("no Python interpreter to write the snapshot pickle");
    const QString path = dir_.filePath("no_history.pickle");
    const auto r = test::runProcess(
        test::python(),
        {"-c",
         "import pickle, sys\n"
         "block = {'address': 1 << 32, 'size': 1 << 20, 'requested_size': 1000000, 'state': 'active_allocated', 'frames': []}\n"
         "seg = {'device': 0, 'address': 1 << 32, 'total_size': 2 << 20, 'allocated_size': 1 << 20, 'active_size': 1 << 20,\n"
         "       'requested_size': 1000000, 'stream': 0, 'segment_type': 'large', 'blocks': [block,\n"
         "       {'address': (1 << 32) + (1 << 20), 'size': 1 << 20, 'state': 'inactive'}]}\n"
         "oom = {'action': 'oom', 'addr': 0, 'size': 1 << 30, 'stream': 0, 'device_free': 1 << 20, 'frames': []}\n"
         "pickle.dump({'segments': [seg], 'device_traces': [[oom]]}, open(sys.argv[1], 'wb'), protocol=4)\n",
         path});
    QVERIFY2(r.exitCode == 0, r.err.constData());
    MainWindow w;
    w.resize(1280, 800);
    w.show();
    QVERIFY(QTest::qWaitForWindowExposed(&w));
    w.openFileBlocking(path);
    OpsView* ops = w.opsView();
    QVERIFY(ops);
    ops->waitForQuery();
    QCOMPARE(ops->proxy()->rowCount(), 0);
    auto* scope = ops->findChild<QLabel*>();
    QVERIFY(scope);
    QTRY_VERIFY2(scope->text().contains("_record_memory_history"), qPrintable(scope->text()));
    QVERIFY2(scope->text().startsWith("Operators, whole trace \u2013 none: no allocation is in the snapshot's history"),
             qPrintable(scope->text()));
    // A trace with operators says nothing of the kind.
    w.openFileBlocking(samplePath());
    ops->waitForQuery();
    QVERIFY(ops->proxy()->rowCount() > 0);
    QTRY_COMPARE(scope->text(), QStringLiteral("Operators, whole trace"));
}

QTEST_MAIN(TestWindowFiles)
#include "tst_window_files.moc"

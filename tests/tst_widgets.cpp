// SPDX-License-Identifier: MIT
// The GUI offscreen: the main window on the real sample, the timeline's interactions, the
// operator table model, the background import with progress and cancel, and the rules that
// keep the GUI thread free (our own worker pool, frees on workers, hidden charts not drawn).
#include <QAbstractItemModelTester>
#include <QApplication>
#include <QJsonDocument>
#include <QJsonObject>
#include <QLabel>
#include <QLineEdit>
#include <QSignalSpy>
#include <QSortFilterProxyModel>
#include <QStatusBar>
#include <QTableView>
#include <QtTest>
#include <qcustomplot.h>

#include "MainWindow.h"
#include "TestSupport.h"
#include "core/Progress.h"
#include "words/Units.h"
#include "formats/FormatRegistry.h"
#include "store/Database.h"
#include "store/OpsQuery.h"
#include "store/SeriesQuery.h"
#include "widgets/BackgroundQuery.h"
#include "widgets/ImportTask.h"
#include "widgets/PlotReplot.h"
#include "widgets/WorkerPool.h"
#include "widgets/OpsTableModel.h"
#include "widgets/OpsView.h"
#include "widgets/TimelinePlot.h"
#include "widgets/TraceSession.h"

using namespace memviz;

namespace {

QString samplePath() { return QStringLiteral(MEMVIZ_SOURCE_DIR) + "/resources/sample/sample_training_step.csv.gz"; }

// Imports the bundled sample into a store in `dir` and opens it in `session`.
void openSample(TraceSession& session, const QTemporaryDir& dir) {
    const OpenedTrace t = openTrace(samplePath().toStdString(), dir.filePath("s.memviz").toStdString(), Progress{});
    session.open(QString::fromStdString(t.storePath), t.traceId);
}

QByteArray bigLog(int pairs) {
    QByteArray s = "time_ns,action,address,size,op\n";
    s.reserve(pairs * 60);
    for (int i = 0; i < pairs; ++i) {
        const QByteArray a = QByteArray::number(0x10000 + i * 64, 16);
        s += QByteArray::number(i * 10) + ",alloc,0x" + a + "," + QByteArray::number(64 + i % 100) + ",op" +
             QByteArray::number(i % 7) + "\n";
        s += QByteArray::number(i * 10 + 5) + ",free,0x" + a + ",,\n";
    }
    return s;
}

} // namespace

class TestWidgets : public QObject {
    Q_OBJECT
private slots:
    void initTestCase();
    void mainWindowShowsTheSample();
    void opsModelIsAValidModel();
    void filterBoxFiltersOperators();
    void selectionRestrictsTheOperatorTable();
    void shiftDragSelectsAWindow();
    void wheelZoomsAndHomeResets();
    void timelineReadsTheStoreOnAWorker();
    void traceOfOneMomentGetsAReadableAxis();
    void importTaskReportsProgress();
    void importTaskCancels();
    void ourWorkersLeaveQtsPoolFree();
    void releaseOnWorkerFreesOffThisThread();
    void hiddenChartReplotsWhenShown();
    void resizesCollapseIntoOneReplot();
};

void TestWidgets::initTestCase() {
    QStandardPaths::setTestModeEnabled(true);
    QCoreApplication::setOrganizationName("memviz-tests");
    // Start from an empty import cache: stores written by an older build must not leak in.
    QDir(QStandardPaths::writableLocation(QStandardPaths::CacheLocation)).removeRecursively();
    Q_INIT_RESOURCE(memviz);
}

void TestWidgets::mainWindowShowsTheSample() {
    MainWindow w;
    w.resize(1200, 800);
    w.openFileBlocking(samplePath());
    w.show();
    QVERIFY(QTest::qWaitForWindowExposed(&w));
    w.timeline()->refreshNow();
    w.opsView()->waitForQuery();
    QVERIFY(w.session()->isOpen());
    QCustomPlot* plot = w.timeline()->plot();
    QCOMPARE(plot->graphCount(), 1);
    QVERIFY(plot->graph(0)->dataCount() > 10);
    // Fed from the pyramid: never more than 4 points per pixel column (+ edges).
    QVERIFY(w.timeline()->lastPointCount() <= 4 * plot->axisRect()->width() + 4);
    QVERIFY2(plot->xAxis->label().contains("(ms)") || plot->xAxis->label().contains("(s)"), qPrintable(plot->xAxis->label()));
    QVERIFY2(plot->yAxis->label().contains("(MiB)"), qPrintable(plot->yAxis->label()));
    // The peak marker's label quotes the summary's peak.
    const auto& cpu = w.session()->summary().devices.at(0);
    bool peakLabel = false;
    for (int i = 0; i < plot->itemCount(); ++i)
        if (auto* text = qobject_cast<QCPItemText*>(plot->item(i)))
            peakLabel |= text->text().contains(QString::fromStdString(formatBytes(static_cast<double>(cpu.peakBytes))));
    QVERIFY(peakLabel);
    // The hover read-out at the peak time names the peak bytes exactly.
    const QString readout = w.timeline()->readoutAt(cpu.peakTimeNs);
    QVERIFY2(readout.contains(QString::fromStdString(formatBytes(static_cast<double>(cpu.peakBytes)))), qPrintable(readout));
    QVERIFY2(readout.contains(QString::fromStdString(formatDuration(static_cast<double>(cpu.peakTimeNs)))), qPrintable(readout));
    QVERIFY(w.opsView()->model()->rowCount() > 5);
    // The status bar shows the format and the peak.
    QStringList labels;
    for (QLabel* l : w.statusBar()->findChildren<QLabel*>()) labels << l->text();
    QVERIFY2(labels.join(' ').contains("memviz-alloc-log"), qPrintable(labels.join('|')));
    QVERIFY2(labels.join(' ').contains("peak"), qPrintable(labels.join('|')));
    // The rendered window is not blank.
    const QImage image = w.grab().toImage();
    QSet<QRgb> colours;
    for (int y = 0; y < image.height(); y += 4)
        for (int x = 0; x < image.width(); x += 4) colours.insert(image.pixel(x, y));
    QVERIFY2(colours.size() > 20, qPrintable(QString::number(colours.size())));
}

void TestWidgets::opsModelIsAValidModel() {
    OpsTableModel model;
    QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
    std::vector<OpRow> rows;
    for (int i = 0; i < 20; ++i) rows.push_back({"op" + std::to_string(i), i, i / 2, i * 1000, i * 400, i * 10});
    model.setRows(rows);
    QCOMPARE(model.rowCount(), 20);
    QCOMPARE(model.index(3, OpsTableModel::NetBytes).data(OpsTableModel::SortRole).toLongLong(), 3000 - 1200);
    QCOMPARE(model.index(3, OpsTableModel::BytesAllocated).data().toString(), QStringLiteral("2.93 KiB"));
    QSortFilterProxyModel proxy;
    QAbstractItemModelTester proxyTester(&proxy, QAbstractItemModelTester::FailureReportingMode::QtTest);
    proxy.setSourceModel(&model);
    proxy.setSortRole(OpsTableModel::SortRole);
    proxy.sort(OpsTableModel::BytesAllocated, Qt::DescendingOrder);
    // Numeric, not lexical: 19000 before 9000.
    QCOMPARE(proxy.index(0, 0).data().toString(), QStringLiteral("op19"));
    QCOMPARE(proxy.index(1, 0).data().toString(), QStringLiteral("op18"));
    model.setRows({});
    QCOMPARE(proxy.rowCount(), 0);
}

void TestWidgets::filterBoxFiltersOperators() {
    TraceSession session;
    QTemporaryDir dir;
    openSample(session, dir);
    OpsView view(&session);
    view.waitForQuery();
    const int all = view.table()->model()->rowCount();
    view.filterEdit()->setText("BACKWARD");
    const int filtered = view.table()->model()->rowCount();
    QVERIFY(filtered > 0 && filtered < all);
    for (int r = 0; r < filtered; ++r) QVERIFY(view.table()->model()->index(r, 0).data().toString().contains("backward"));
}

void TestWidgets::selectionRestrictsTheOperatorTable() {
    const QString py = test::python();
    if (py.isEmpty()) MEMVIZ_SKIP_OR_FAIL("no python3 for the oracle");
    TraceSession session;
    QTemporaryDir dir;
    openSample(session, dir);
    OpsView view(&session);
    view.waitForQuery();
    const TimeRange window{session.fullRange().end / 4, session.fullRange().end / 2};
    session.setSelection(window);
    view.waitForQuery();
    const auto oracle = test::runProcess(py, {test::oracle("alloclog_summary.py"), samplePath(), "--range",
                                              QStringLiteral("%1:%2").arg(window.begin).arg(window.end)});
    QVERIFY2(oracle.exitCode == 0, oracle.err.constData());
    const QJsonObject ops = QJsonDocument::fromJson(oracle.out).object()["ops"].toObject();
    const auto& rows = view.model()->rows();
    QCOMPARE(rows.size(), static_cast<std::size_t>(ops.size()));
    for (const OpRow& r : rows) {
        const QJsonObject e = ops[QString::fromStdString(r.name)].toObject();
        QCOMPARE(r.bytesAllocated, e["allocated"].toInteger());
        QCOMPARE(r.bytesFreed, e["freed"].toInteger());
    }
    const std::size_t inWindow = rows.size();
    session.setSelection(std::nullopt);
    view.waitForQuery();
    QVERIFY(view.model()->rows().size() > inWindow);
}

void TestWidgets::shiftDragSelectsAWindow() {
    TraceSession session;
    QTemporaryDir dir;
    openSample(session, dir);
    TimelinePlot timeline(&session);
    timeline.resize(1000, 400);
    timeline.show();
    QVERIFY(QTest::qWaitForWindowExposed(&timeline));
    QCustomPlot* plot = timeline.plot();
    plot->replot();
    const QRect r = plot->axisRect()->rect();
    const QPoint a(r.left() + r.width() / 4, r.center().y());
    const QPoint b(r.left() + r.width() / 2, r.center().y());
    QSignalSpy spy(&session, &TraceSession::selectionChanged);
    QTest::mousePress(plot, Qt::LeftButton, Qt::ShiftModifier, a);
    QMouseEvent move(QEvent::MouseMove, b, plot->mapToGlobal(b), Qt::NoButton, Qt::LeftButton, Qt::ShiftModifier);
    QApplication::sendEvent(plot, &move);
    QTest::mouseRelease(plot, Qt::LeftButton, Qt::ShiftModifier, b);
    QCOMPARE(spy.count(), 1);
    QVERIFY(session.selection().has_value());
    const double expectBegin = plot->xAxis->pixelToCoord(a.x());
    const double expectEnd = plot->xAxis->pixelToCoord(b.x());
    QVERIFY(std::abs(static_cast<double>(session.selection()->begin) - expectBegin) <= 1.0);
    QVERIFY(std::abs(static_cast<double>(session.selection()->end) - expectEnd) <= 1.0);
    // A plain drag pans instead of selecting; a double-click clears the selection.
    QTest::mouseDClick(plot, Qt::LeftButton, Qt::NoModifier, b);
    QVERIFY(!session.selection().has_value());
}

void TestWidgets::wheelZoomsAndHomeResets() {
    TraceSession session;
    QTemporaryDir dir;
    openSample(session, dir);
    TimelinePlot timeline(&session);
    timeline.resize(1000, 400);
    timeline.show();
    QVERIFY(QTest::qWaitForWindowExposed(&timeline));
    QCustomPlot* plot = timeline.plot();
    const double before = plot->xAxis->range().size();
    const QPoint centre = plot->axisRect()->rect().center();
    for (int i = 0; i < 6; ++i) {
        QWheelEvent wheel(centre, plot->mapToGlobal(centre), QPoint(), QPoint(0, 120), Qt::NoButton, Qt::NoModifier,
                          Qt::NoScrollPhase, false);
        QApplication::sendEvent(plot, &wheel);
    }
    QVERIFY(plot->xAxis->range().size() < before / 2);
    timeline.refreshNow();
    QVERIFY(plot->graph(0)->dataCount() > 0);
    QTest::keyClick(&timeline, Qt::Key_Home);
    QVERIFY(std::abs(plot->xAxis->range().size() - before) < before * 1e-6);
}

// The timeline's pyramid reads run on a worker: a new trace returns to the event loop with the
// read pending and nothing drawn, and the data lands later. What it draws is what the pyramid
// gives for the range and width shown, with the last value held to the trace's end.
void TestWidgets::timelineReadsTheStoreOnAWorker() {
    TraceSession session;
    QTemporaryDir dir;
    openSample(session, dir);
    TimelinePlot timeline(&session);
    timeline.resize(1000, 400);
    QCustomPlot* plot = timeline.plot();
    QCOMPARE(plot->graphCount(), 1);
    bool pending = false;
    for (const BackgroundQuery* q : timeline.findChildren<BackgroundQuery*>()) pending |= q->isPending();
    QVERIFY(pending);
    QCOMPARE(plot->graph(0)->dataCount(), 0); // applied only through the event loop
    QTRY_VERIFY(plot->graph(0)->dataCount() > 0);

    timeline.refreshNow();
    const QCPRange xr = plot->xAxis->range();
    const TimeRange range{static_cast<std::int64_t>(std::floor(xr.lower)), static_cast<std::int64_t>(std::ceil(xr.upper))};
    const SeriesInfo& info = session.series().at(0);
    Database db(session.storePath().toStdString(), Database::Mode::ReadOnly);
    std::vector<SeriesPoint> expected = querySeries(db, info.id, range, std::max(1, plot->axisRect()->width())).points;
    QVERIFY(!expected.empty());
    if (expected.back().t >= info.tLast && info.tLast < session.fullRange().end)
        expected.push_back({session.fullRange().end, info.vFinal});
    QCPGraphDataContainer& drawn = *plot->graph(0)->data();
    QCOMPARE(drawn.size(), static_cast<int>(expected.size()));
    double highest = 0;
    for (int i = 0; i < drawn.size(); ++i) {
        QCOMPARE(drawn.at(i)->key, static_cast<double>(expected[static_cast<std::size_t>(i)].t));
        QCOMPARE(drawn.at(i)->value, static_cast<double>(expected[static_cast<std::size_t>(i)].v));
        highest = std::max(highest, drawn.at(i)->value);
    }
    // The whole trace is shown, so its peak is drawn, and the value axis holds it.
    QCOMPARE(highest, static_cast<double>(session.summary().devices.at(0).peakBytes));
    QVERIFY(plot->yAxis->range().upper > highest);
}

// A trace of one moment (duration 0) gets a time axis of 1 ms from its start, not of one
// nanosecond with labels like 0.00, 0.01 ns.
void TestWidgets::traceOfOneMomentGetsAReadableAxis() {
    QTemporaryDir dir;
    const QString store = dir.filePath("one.memviz");
    qint64 traceId = 0;
    {
        Database db(store.toStdString());
        traceId = importFile(db, test::writeFile(dir, "one.csv", "time_ns,action,address,size\n0,alloc,0x10,100\n").toStdString(),
                             Progress{});
    }
    TraceSession session;
    session.open(store, traceId);
    TimelinePlot timeline(&session);
    timeline.resize(1000, 400);
    timeline.show();
    QVERIFY(QTest::qWaitForWindowExposed(&timeline));
    const QCPRange r = timeline.plot()->xAxis->range();
    QCOMPARE(r.lower, -1e6 * 0.01);
    QCOMPARE(r.upper, 1e6 * 1.02);
    QTest::keyClick(&timeline, Qt::Key_Home);
    QCOMPARE(timeline.plot()->xAxis->range().upper, 1e6 * 1.02);
}

void TestWidgets::importTaskReportsProgress() {
    QTemporaryDir dir;
    const QString log = test::writeFile(dir, "big.csv", bigLog(150000));
    ImportTask task;
    QSignalSpy progress(&task, &ImportTask::progress);
    QSignalSpy done(&task, &ImportTask::succeeded);
    QSignalSpy failed(&task, &ImportTask::failed);
    task.start(log, dir.filePath("s.memviz"));
    QVERIFY(done.wait(60000));
    QCOMPARE(failed.count(), 0);
    QVERIFY(progress.count() >= 2);
    QCOMPARE(progress.last().at(0).toInt(), 1000);
    // One bar that only moves forward (issue 19: it reached 100%, dropped to 0%), naming
    // its phase: reading the file first, writing the store last.
    QStringList phases;
    for (int i = 1; i < progress.count(); ++i)
        QVERIFY2(progress.at(i).at(0).toInt() > progress.at(i - 1).at(0).toInt(), qPrintable(QString::number(i)));
    for (const auto& p : progress)
        if (phases.isEmpty() || phases.last() != p.at(1).toString()) phases << p.at(1).toString();
    QCOMPARE(phases.first(), ImportTask::phaseName(ProgressPhase::Reading));
    QCOMPARE(phases.last(), ImportTask::phaseName(ProgressPhase::Writing));
    Database db(done.first().at(0).toString().toStdString(), Database::Mode::ReadOnly);
    QCOMPARE(loadSummary(db, done.first().at(1).toLongLong()).devices.at(0).allocs, 150000);
}

void TestWidgets::importTaskCancels() {
    QTemporaryDir dir;
    const QString log = test::writeFile(dir, "big.csv", bigLog(400000));
    ImportTask task;
    QSignalSpy cancelled(&task, &ImportTask::cancelled);
    QSignalSpy done(&task, &ImportTask::succeeded);
    connect(&task, &ImportTask::progress, &task, [&task](int permille) {
        if (permille > 0) task.cancel();
    });
    task.start(log, dir.filePath("s.memviz"));
    QVERIFY(cancelled.wait(60000));
    QCOMPARE(done.count(), 0);
    // "Nothing was stored": not even an empty store is left behind (issue 19).
    QVERIFY(!QFileInfo::exists(dir.filePath("s.memviz")));
    QVERIFY(!QFileInfo::exists(dir.filePath("s.memviz-wal")));
}

// Qt's raster engine runs parallel fills on QThreadPool::globalInstance() and the GUI thread
// waits for them. With every thread of our pool held by long queries, a job on Qt's pool must
// still run at once; when the queries ran on Qt's pool, it waited for them (the stall).
void TestWidgets::ourWorkersLeaveQtsPoolFree() {
    const int workers = workerPool()->maxThreadCount();
    QSemaphore started, release;
    std::vector<std::unique_ptr<BackgroundQuery>> queries;
    for (int i = 0; i < workers; ++i) {
        queries.push_back(std::make_unique<BackgroundQuery>());
        queries.back()->run([&](const Progress&) -> BackgroundQuery::Apply {
            started.release();
            release.acquire(); // a long query
            return {};
        });
    }
    QVERIFY(started.tryAcquire(workers, 30000)); // every worker is busy now
    QSemaphore ran;
    QThreadPool::globalInstance()->start([&ran] { ran.release(); });
    const bool qtJobRan = ran.tryAcquire(1, 10000);
    release.release(workers);
    for (auto& q : queries) q->wait();
    if (!qtJobRan) ran.acquire(); // it ran after the queries: keep `ran` alive until then
    QVERIFY2(qtJobRan, "a job on Qt's global pool waited for our queries");
}

// The destructor of what releaseOnWorker() gets runs on another thread than the caller's.
void TestWidgets::releaseOnWorkerFreesOffThisThread() {
    struct Noted {
        QThread** where;
        QSemaphore* done;
        ~Noted() {
            if (!where) return; // moved from
            *where = QThread::currentThread();
            done->release();
        }
        Noted(QThread** w, QSemaphore* d) : where(w), done(d) {}
        Noted(Noted&& o) noexcept : where(std::exchange(o.where, nullptr)), done(o.done) {}
    };
    QThread* where = nullptr;
    QSemaphore done;
    releaseOnWorker(Noted(&where, &done));
    QVERIFY(done.tryAcquire(1, 30000));
    QVERIFY(where != nullptr);
    QVERIFY(where != QThread::currentThread());
}

// A chart on a hidden tab is not drawn when its data changes, and is drawn once shown.
void TestWidgets::hiddenChartReplotsWhenShown() {
    QWidget window;
    auto* plot = new QCustomPlot(&window);
    plot->resize(400, 300);
    window.resize(400, 300);
    window.show();
    QVERIFY(QTest::qWaitForWindowExposed(&window));
    int replots = 0;
    connect(plot, &QCustomPlot::beforeReplot, this, [&replots] { ++replots; });
    replotWhenShown(plot); // shown: drawn (queued)
    QTRY_COMPARE(replots, 1);
    plot->hide();
    replotWhenShown(plot);
    replotWhenShown(plot, QCustomPlot::rpRefreshHint);
    QCoreApplication::processEvents();
    QTest::qWait(50);
    QCOMPARE(replots, 1); // hidden: not drawn
    plot->show();         // the same size: no resize replot, only the pending one
    QTRY_COMPARE(replots, 2);
    QTest::qWait(50);
    QCOMPARE(replots, 2); // once, however many changes came while hidden
}

// Three resizes in one go (a page being laid out): the chart's viewport follows each at once,
// and it is drawn once, afterwards; QCustomPlot alone draws at every resize.
void TestWidgets::resizesCollapseIntoOneReplot() {
    QWidget window;
    auto* plot = new QCustomPlot(&window);
    replotQueuedOnResize(plot);
    plot->resize(400, 300);
    window.resize(700, 500);
    window.show();
    QVERIFY(QTest::qWaitForWindowExposed(&window));
    QTest::qWait(50);
    int replots = 0;
    connect(plot, &QCustomPlot::beforeReplot, this, [&replots] { ++replots; });
    for (const QSize size : {QSize(500, 300), QSize(600, 350), QSize(640, 360)}) {
        plot->resize(size);
        QCOMPARE(plot->viewport(), QRect(QPoint(0, 0), size));
    }
    QCOMPARE(replots, 0); // not during the resizes
    QTRY_COMPARE(replots, 1);
    QTest::qWait(50);
    QCOMPARE(replots, 1);
    QCOMPARE(plot->axisRect()->outerRect().width(), 640); // the replot laid out the new size

    // Without it, QCustomPlot draws at each resize, inside it.
    auto* plain = new QCustomPlot(&window);
    plain->resize(300, 200);
    plain->show();
    QTest::qWait(50);
    int plainReplots = 0;
    connect(plain, &QCustomPlot::beforeReplot, this, [&plainReplots] { ++plainReplots; });
    plain->resize(320, 220);
    plain->resize(340, 240);
    QCOMPARE(plainReplots, 2);
}

QTEST_MAIN(TestWidgets)
#include "tst_widgets.moc"

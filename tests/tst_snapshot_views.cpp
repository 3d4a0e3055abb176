// SPDX-License-Identifier: MIT
// The snapshot views in the real main window (offscreen): the tabs appear only for snapshots,
// the timeline carries OOMs, annotations and the moment, a click picks the moment, the
// allocation list follows it and searches, the allocator state adds up; every item model
// passes QAbstractItemModelTester.
#include <QAbstractItemModelTester>
#include <QLabel>
#include <QLineEdit>
#include <QTabWidget>
#include <QTableView>
#include <QtTest>

#include "MainWindow.h"
#include "TestSupport.h"
#include "words/Units.h"
#include "formats/snapshot/SnapshotQueries.h"
#include "widgets/TimelinePlot.h"
#include "widgets/TraceSession.h"
#include <qcustomplot.h>

#include "widgets/snapshot/ActiveMemoryView.h"
#include "widgets/snapshot/AliveAllocationsModel.h"
#include "widgets/snapshot/AllocationBands.h"
#include "widgets/snapshot/AllocationsView.h"
#include "widgets/snapshot/AllocatorStateView.h"
#include "widgets/snapshot/DeviceChooser.h"
#include "widgets/snapshot/SegmentMapWidget.h"
#include "widgets/snapshot/SegmentsModel.h"
#include "widgets/snapshot/SnapshotPanel.h"
#include "widgets/snapshot/SnapshotSession.h"
#include "widgets/snapshot/SnapshotSummaryView.h"
#include "widgets/snapshot/StackPane.h"

using namespace memviz;

namespace {

QStringList tabTitles(QTabWidget* tabs) {
    QStringList out;
    for (int i = 0; i < tabs->count(); ++i) out << tabs->tabText(i).remove('&');
    return out;
}

} // namespace

class TestSnapshotViews : public QObject {
    Q_OBJECT
private slots:
    void initTestCase();
    void tabsOnlyForSnapshots();
    void timelineShowsOomsAnnotationsAndMoment();
    void allocationListFollowsTheMomentAndSearches();
    void allocatorStateAddsUp();
    void activeMemoryStacksToThePeak();
    void summaryTellsConsistencyAndBaseline();
    void modelsPassTheTester();
    void allocationsAreReadOffTheGuiThread();
    void allocationsSortOnTheWorker();
    void anotherDeviceSupersedesTheRead();
    void screenshotOfEveryTab();

private:
    QTemporaryDir dir_;
};

void TestSnapshotViews::initTestCase() {
    QVERIFY(dir_.isValid());
    if (memviz::test::python().isEmpty()) MEMVIZ_SKIP_OR_FAIL("no Python interpreter for the generator script");
    const auto r = memviz::test::runProcess(memviz::test::python(), {memviz::test::oracle("make_snapshots.py"), dir_.path()});
    QVERIFY2(r.exitCode == 0, r.err.constData());
}

void TestSnapshotViews::tabsOnlyForSnapshots() {
    MainWindow w;
    w.openFileBlocking(dir_.filePath("dict_protocol4.pickle"));
    QCOMPARE(tabTitles(w.detailTabs()),
             (QStringList{"Operators", "Active Memory", "Allocations", "Allocator State", "Snapshot", "Flame"}));
    const QString log = memviz::test::writeFile(dir_, "log.csv", "time_ns,action,address,size\n0,alloc,0x10,64\n5,free,0x10,\n");
    w.openFileBlocking(log);
    QCOMPARE(tabTitles(w.detailTabs()), (QStringList{"Operators", "Flame"})); // Flame: every opened trace
    QVERIFY(w.timeline()->markers().empty());
    QVERIFY(w.timeline()->regions().empty());
    w.openFileBlocking(dir_.filePath("ring_truncated.pickle"));
    QCOMPARE(w.detailTabs()->count(), 6);
}

void TestSnapshotViews::timelineShowsOomsAnnotationsAndMoment() {
    MainWindow w;
    w.openFileBlocking(dir_.filePath("dict_protocol4.pickle"));
    const TimelinePlot* plot = w.timeline();
    QCOMPARE(plot->markers().size(), std::size_t{2});
    QVERIFY(plot->markers()[0].label.startsWith("OOM: asked 40.00 GiB, 123.00 MiB free"));
    QCOMPARE(plot->regions().size(), std::size_t{2});
    QCOMPARE(plot->regions()[0].label, QStringLiteral("forward"));
    SnapshotSession* s = w.snapshotPanel()->session();
    QVERIFY(s->isActive());
    QCOMPARE(s->moment(), s->peakMoment());
    // A click at a time picks the entry in effect then.
    const std::int64_t t = w.session()->summary().trace.durationNs / 3;
    emit w.timeline()->timeClicked(t);
    QCOMPARE(s->moment(), entryAtTime(s->database(), w.session()->traceId(), s->device(), t));
    QVERIFY(s->momentTime().has_value());
    QVERIFY(*s->momentTime() <= t);
}

void TestSnapshotViews::allocationListFollowsTheMomentAndSearches() {
    MainWindow w;
    w.openFileBlocking(dir_.filePath("dict_protocol4.pickle"));
    SnapshotPanel* panel = w.snapshotPanel();
    SnapshotSession* s = panel->session();
    AllocationsView* view = panel->allocationsView();
    const SnapshotDeviceStats* d = s->deviceStats();
    QVERIFY(d);
    // At the peak the rows add up to the peak.
    std::int64_t sum = 0;
    for (int r = 0; r < view->model()->rowCount(); ++r) sum += view->model()->allocation(r).requestedSize;
    QCOMPARE(sum, d->peakBytes);
    // The rows are found on a worker: each change is followed by a wait.
    s->setMoment(-1);
    view->waitForRows();
    QCOMPARE(view->model()->rowCount(), 0); // nothing before the first entry of this trace
    s->setMoment(s->lastMoment());
    view->waitForRows();
    sum = 0;
    for (int r = 0; r < view->model()->rowCount(); ++r) sum += view->model()->allocation(r).requestedSize;
    QCOMPARE(sum, d->finalReplayed);
    // Search by address: the hex digits of one row find it.
    const SnapshotAllocationRow first = view->model()->allocation(0);
    view->searchEdit()->setText(QStringLiteral("0x%1").arg(static_cast<quint64>(first.address), 0, 16));
    view->waitForRows();
    QCOMPARE(view->model()->rowCount(), 1);
    QCOMPARE(view->model()->allocation(0).address, first.address);
    // Search by frame text: every row's stack has such a frame.
    view->searchEdit()->setText(QStringLiteral("OPTIM.py"));
    view->waitForRows();
    QVERIFY(view->model()->rowCount() > 0);
    const auto matching = s->stacks().stacksMatching("optim.py");
    for (int r = 0; r < view->model()->rowCount(); ++r) QVERIFY(matching.count(view->model()->allocation(r).stack));
    QVERIFY(view->totalsText().contains("match the search"));
    // Selecting a row shows its stack.
    view->searchEdit()->clear();
    view->waitForRows();
    view->table()->selectRow(0);
    QVERIFY(view->stackPane()->toPlainText().contains("0x"));
}

void TestSnapshotViews::allocatorStateAddsUp() {
    MainWindow w;
    w.resize(1400, 900);
    w.openFileBlocking(dir_.filePath("ring_truncated.pickle"));
    w.show();
    SnapshotSession* s = w.snapshotPanel()->session();
    AllocatorStateView* view = w.snapshotPanel()->stateView();
    s->setMoment(s->lastMoment());
    view->waitForQuery();
    QCOMPARE(view->state().figures.reserved, s->deviceStats()->reservedFinal);
    s->setMoment(-1);
    view->waitForQuery();
    QCOMPARE(view->state().figures.reserved, s->deviceStats()->reservedInitial);
    QCOMPARE(view->model()->rowCount(), static_cast<int>(view->state().segments.size()));
    QVERIFY(view->figuresText().contains("inactive split"));
    // The allocator model's replay starts from the same segments; its gap's parts add up.
    QVERIFY(view->gap());
    const costmodel::ReservedGap& g = *view->gap();
    QCOMPARE(g.reserved, s->deviceStats()->reservedInitial);
    QCOMPARE(g.reserved, g.requested + g.rounding + g.splitFreeSmall + g.splitFreeLarge + g.pendingFree + g.cachedSegments);
    QVERIFY(view->figuresText().contains("whole cached segments"));
    // The map describes what is under the mouse.
    w.detailTabs()->setCurrentWidget(view);
    QApplication::processEvents();
    SegmentMapWidget* map = view->map();
    QVERIFY(map->height() > 40);
    QString text;
    for (int y = 0; y < map->height() && text.isEmpty(); y += 2) text = map->describeAt(QPoint(map->width() / 4, y));
    QVERIFY2(text.startsWith("Segment 0x"), qPrintable(text));
}

void TestSnapshotViews::activeMemoryStacksToThePeak() {
    MainWindow w;
    w.resize(1400, 900);
    w.openFileBlocking(dir_.filePath("dict_protocol4.pickle"));
    w.show();
    SnapshotSession* s = w.snapshotPanel()->session();
    ActiveMemoryView* view = w.snapshotPanel()->activeMemoryView();
    view->waitForLayout();
    w.detailTabs()->setCurrentWidget(view);
    QApplication::processEvents();
    const ActiveLayout& layout = view->bands()->layout();
    // Every allocation is drawn (the file has fewer than kMaxBands), and the stack's highest
    // point is the replayed peak of requested bytes.
    QCOMPARE(layout.bands.size() + layout.summarisedCount, s->allocations().size());
    QCOMPARE(layout.maxTotal, s->deviceStats()->peakBytes);
    QVERIFY(view->headline().contains(QString::fromStdString(formatBytes(static_cast<double>(s->deviceStats()->peakBytes)))));
    // The middle of the widest band, on screen, names that band's allocation; a click shows its stack.
    view->plot()->replot();
    std::size_t widest = 0;
    for (std::size_t i = 0; i < layout.bands.size(); ++i)
        if (layout.bands[i].size > layout.bands[widest].size) widest = i;
    const ActiveBand& band = layout.bands[widest];
    const std::int64_t x = band.bottom.front().first + (band.bottom.back().first - band.bottom.front().first) / 2;
    const double y = static_cast<double>(bandOffsetAt(band, x)) + static_cast<double>(band.size) / 2;
    const QPointF pixel(view->plot()->xAxis->coordToPixel(static_cast<double>(x)), view->plot()->yAxis->coordToPixel(y));
    QCOMPARE(view->allocationAt(pixel).value_or(std::size_t(-1)), band.span);
    QTest::mouseClick(view->plot(), Qt::LeftButton, {}, pixel.toPoint());
    const auto clickedAt = static_cast<std::int64_t>(view->plot()->xAxis->pixelToCoord(pixel.toPoint().x()));
    const SnapshotAllocationRow& a = s->allocations()[band.span];
    QVERIFY2(
        view->findChild<StackPane*>()->toPlainText().contains(QStringLiteral("0x%1").arg(static_cast<quint64>(a.address), 0, 16)),
        qPrintable(view->findChild<StackPane*>()->toPlainText()));
    // Zooming the main timeline shows the same window here.
    const QCPRange window(static_cast<double>(x) * 0.5, static_cast<double>(x) * 1.5 + 1);
    w.timeline()->plot()->xAxis->setRange(window);
    QCOMPARE(view->plot()->xAxis->range().lower, window.lower);
    QCOMPARE(view->plot()->xAxis->range().upper, window.upper);
    // The click moved the moment there, and the dashed line with it.
    QVERIFY(s->momentTime().has_value());
    QVERIFY(*s->momentTime() <= clickedAt);
    QVERIFY(view->momentLine()->visible());
    QCOMPARE(view->momentLine()->point1->coords().x(), static_cast<double>(*s->momentTime()));
    QVERIFY(aliveAt(s->allocations(), s->moment()).size() > 0);
}

void TestSnapshotViews::summaryTellsConsistencyAndBaseline() {
    MainWindow w;
    w.openFileBlocking(dir_.filePath("ring_truncated.pickle"));
    const QString html = w.snapshotPanel()->summaryView()->html();
    QVERIFY(html.contains("consistent"));
    QVERIFY(html.contains("made before the trace began"));
    QVERIFY(html.contains("Allocator settings"));
}

void TestSnapshotViews::modelsPassTheTester() {
    MainWindow w;
    w.openFileBlocking(dir_.filePath("dict_protocol4.pickle"));
    SnapshotPanel* panel = w.snapshotPanel();
    QAbstractItemModelTester alive(panel->allocationsView()->model(), QAbstractItemModelTester::FailureReportingMode::QtTest);
    QAbstractItemModelTester segments(panel->stateView()->model(), QAbstractItemModelTester::FailureReportingMode::QtTest);
    SnapshotSession* s = panel->session();
    for (std::int64_t m : {std::int64_t{-1}, s->peakMoment(), s->lastMoment(), s->lastMoment() / 2}) {
        s->setMoment(m);
        panel->stateView()->waitForQuery();
    }
    panel->allocationsView()->searchEdit()->setText("forward");
    panel->allocationsView()->searchEdit()->setText("0x7f");
    w.openFileBlocking(dir_.filePath("no_time_expandable.pickle"));
    w.openFileBlocking(dir_.filePath("legacy_segment_list.pickle"));
    panel->stateView()->waitForQuery();
    QVERIFY(panel->stateView()->model()->rowCount() > 0);
    // Headers, texts and tool tips exist for every column.
    AliveAllocationsModel* model = panel->allocationsView()->model();
    QVERIFY(model->rowCount() > 0);
    for (int c = 0; c < model->columnCount(); ++c) {
        QVERIFY(!model->headerData(c, Qt::Horizontal).toString().isEmpty());
        QVERIFY(model->data(model->index(0, c), Qt::DisplayRole).isValid());
        QVERIFY(model->data(model->index(0, c), Qt::ToolTipRole).isValid());
    }
}

// Reopening the trace or switching the device starts the read on the worker: right after it
// the session has no allocations and every view says it is reading; after wait() the rows at
// the peak add up to the peak again (the importer's replayed peak, as above).
void TestSnapshotViews::allocationsAreReadOffTheGuiThread() {
    MainWindow w;
    w.openFileBlocking(dir_.filePath("dict_protocol4.pickle"));
    SnapshotPanel* panel = w.snapshotPanel();
    SnapshotSession* s = panel->session();
    QVERIFY(!s->loading());
    QVERIFY(!s->allocations().empty());
    w.session()->open(w.session()->storePath(), w.session()->traceId());
    QVERIFY(s->loading());
    QVERIFY(s->isActive());
    QVERIFY(s->allocations().empty());
    QCOMPARE(panel->allocationsView()->model()->rowCount(), 0);
    QCOMPARE(panel->allocationsView()->totalsText(), QStringLiteral("Reading the allocations\u2026"));
    QVERIFY(panel->summaryView()->html().contains("Reading the snapshot"));
    QVERIFY(panel->stateView()->figuresText().contains("Reading the allocations"));
    QVERIFY(panel->activeMemoryView()
                ->findChild<QLabel*>(QString(), Qt::FindDirectChildrenOnly)
                ->text()
                .contains("Reading the allocations"));
    panel->stateView()->waitForQuery();
    QVERIFY(!s->loading());
    QCOMPARE(s->moment(), s->peakMoment());
    panel->allocationsView()->waitForRows();
    std::int64_t sum = 0;
    for (int r = 0; r < panel->allocationsView()->model()->rowCount(); ++r)
        sum += panel->allocationsView()->model()->allocation(r).requestedSize;
    QCOMPARE(sum, s->deviceStats()->peakBytes);
    QVERIFY(panel->summaryView()->html().contains("consistent"));

    const int other = s->overview().devices.back().device;
    QVERIFY(other != s->device());
    s->setDevice(other);
    QVERIFY(s->loading());
    QCOMPARE(s->device(), other);
    QVERIFY(s->allocations().empty());
    QCOMPARE(panel->allocationsView()->model()->rowCount(), 0);
    panel->allocationsView()->waitForRows();
    sum = 0;
    for (int r = 0; r < panel->allocationsView()->model()->rowCount(); ++r)
        sum += panel->allocationsView()->model()->allocation(r).requestedSize;
    QCOMPARE(sum, s->deviceStats()->peakBytes);

    // The Allocator State tab has its own device chooser, bound to the same session: choosing the
    // first device there switches every tab, and both choosers then name it.
    auto* stateChooser = panel->stateView()->findChild<DeviceChooser*>();
    auto* allocChooser = panel->allocationsView()->findChild<DeviceChooser*>();
    QVERIFY(stateChooser && allocChooser);
    QCOMPARE(stateChooser->count(), static_cast<int>(s->overview().devices.size()));
    const int first = s->overview().devices.front().device;
    const int index = stateChooser->findData(first);
    stateChooser->setCurrentIndex(index);
    emit stateChooser->activated(index);
    QCOMPARE(s->device(), first);
    panel->stateView()->waitForQuery();
    QCOMPARE(stateChooser->currentData().toInt(), first);
    QCOMPARE(allocChooser->currentData().toInt(), first);
    s->setMoment(s->lastMoment());
    panel->stateView()->waitForQuery();
    QCOMPARE(panel->stateView()->state().figures.reserved, s->overview().device(first)->reservedFinal);
}

// Clicking a header sorts the alive rows on the worker, with the rows: right after the click
// the table still shows the old order; once the rows land, they are the same allocations in
// the column's order (numbers by value, addresses unsigned, sites by their text).
void TestSnapshotViews::allocationsSortOnTheWorker() {
    MainWindow w;
    w.openFileBlocking(dir_.filePath("dict_protocol4.pickle"));
    AllocationsView* view = w.snapshotPanel()->allocationsView();
    view->waitForRows();
    AliveAllocationsModel* model = view->model();
    const int n = model->rowCount();
    QVERIFY(n > 3);
    const auto rowsNow = [&] {
        std::vector<const SnapshotAllocationRow*> rows;
        for (int r = 0; r < model->rowCount(); ++r) rows.push_back(&model->allocation(r));
        return rows;
    };
    const auto byAddress = [](std::vector<const SnapshotAllocationRow*> rows) {
        std::sort(rows.begin(), rows.end(), [](auto* a, auto* b) { return a < b; });
        return rows;
    };
    const std::vector<const SnapshotAllocationRow*> first = rowsNow();
    // The default: largest request first.
    for (int r = 1; r < n; ++r) QVERIFY(first[r - 1]->requestedSize >= first[r]->requestedSize);

    view->table()->sortByColumn(AliveAllocationsModel::Address, Qt::AscendingOrder);
    QCOMPARE(rowsNow(), first); // not sorted here: the worker does it
    view->waitForRows();
    std::vector<const SnapshotAllocationRow*> rows = rowsNow();
    QCOMPARE(byAddress(rows), byAddress(first));
    for (int r = 1; r < n; ++r)
        QVERIFY(static_cast<quint64>(rows[r - 1]->address) <= static_cast<quint64>(rows[r]->address));

    view->table()->sortByColumn(AliveAllocationsModel::Site, Qt::AscendingOrder);
    view->waitForRows();
    QCOMPARE(byAddress(rowsNow()), byAddress(first));
    for (int r = 1; r < n; ++r)
        QVERIFY(model->index(r - 1, AliveAllocationsModel::Site).data().toString() <=
                model->index(r, AliveAllocationsModel::Site).data().toString());

    view->table()->sortByColumn(AliveAllocationsModel::AllocatedAt, Qt::DescendingOrder);
    view->waitForRows();
    rows = rowsNow();
    QCOMPARE(byAddress(rows), byAddress(first));
    for (int r = 1; r < n; ++r) QVERIFY(rows[r - 1]->allocSeq >= rows[r]->allocSeq);
}

// Device B, then at once device A again: B's allocations are never applied; A's land once.
void TestSnapshotViews::anotherDeviceSupersedesTheRead() {
    MainWindow w;
    w.openFileBlocking(dir_.filePath("dict_protocol4.pickle"));
    SnapshotSession* s = w.snapshotPanel()->session();
    QCOMPARE(s->overview().devices.size(), std::size_t{2});
    const int a = s->overview().devices.front().device, b = s->overview().devices.back().device;
    // The two devices differ, so B's rows showing would be seen.
    QVERIFY(s->overview().device(a)->peakBytes != s->overview().device(b)->peakBytes);
    const std::size_t countA = s->allocations().size();
    int landed = 0;
    connect(s, &SnapshotSession::reloaded, this, [&] {
        if (!s->loading()) ++landed;
    });
    s->setDevice(b);
    s->setDevice(a);
    QCOMPARE(s->device(), a);
    s->waitForLoad();
    QCOMPARE(landed, 1);
    QCOMPARE(s->device(), a);
    QCOMPARE(s->allocations().size(), countA);
    AllocationsView* view = w.snapshotPanel()->allocationsView();
    view->waitForRows();
    std::int64_t sum = 0;
    for (int r = 0; r < view->model()->rowCount(); ++r) sum += view->model()->allocation(r).requestedSize;
    QCOMPARE(sum, s->overview().device(a)->peakBytes);
}

void TestSnapshotViews::screenshotOfEveryTab() {
    for (const char* tab : {"active", "alloc", "allocator", "snapshot"}) {
        const QString png = dir_.filePath(QString("shot-%1.png").arg(tab));
        const auto r = memviz::test::runMemviz(
            {"screenshot", dir_.filePath("dict_protocol4.pickle"), "--out", png, "--tab", tab});
        QVERIFY2(r.exitCode == 0, r.err.constData());
        QImage image(png);
        QCOMPARE(image.size(), QSize(1400, 900));
    }
    const auto bad = memviz::test::runMemviz(
        {"screenshot", dir_.filePath("dict_protocol4.pickle"), "--out", dir_.filePath("x.png"), "--tab", "nope"});
    QCOMPARE(bad.exitCode, 2);
    QVERIFY(bad.err.contains("Allocator State"));
}

QTEST_MAIN(TestSnapshotViews)
#include "tst_snapshot_views.moc"

// SPDX-License-Identifier: MIT
// The views of heaptrack and massif traces: item models under QAbstractItemModelTester, the
// main window's tabs per format, the stacked timeline and its axes, snapshot picking.
#include <QAbstractItemModelTester>
#include <QComboBox>
#include <QSortFilterProxyModel>
#include <QTableView>
#include <QTreeView>
#include <QtTest>
#include <qcustomplot.h>

#include "MainWindow.h"
#include "TestSupport.h"
#include "core/Progress.h"
#include "formats/FormatRegistry.h"
#include "formats/heaptrack/HeaptrackQueries.h"
#include "formats/massif/MassifQueries.h"
#include "store/Database.h"
#include "widgets/AllocationSitesModel.h"
#include "widgets/AllocationSitesView.h"
#include "widgets/MassifTreeModel.h"
#include "widgets/MassifView.h"
#include "widgets/NativeTabs.h"
#include "widgets/SiteStacksModel.h"
#include "widgets/StackedSeries.h"
#include "widgets/TimelinePlot.h"
#include "widgets/TraceSession.h"

using namespace memviz;

namespace {

QString heaptrackFixture() { return QStringLiteral(MEMVIZ_TEST_DATA) + "/native/heaptrack/v3_all_records.zst"; }
QString massifFixture(const QString& unit) {
    return QStringLiteral(MEMVIZ_TEST_DATA) + "/native/massif/time_" + unit + ".massif";
}

struct Store {
    QTemporaryDir dir;
    std::unique_ptr<Database> db;
    std::int64_t traceId = 0;
    explicit Store(const QString& file) {
        db = std::make_unique<Database>(dir.filePath("v.memviz").toStdString());
        traceId = importFile(*db, file.toStdString(), Progress{});
    }
};

int tabIndex(QTabWidget* tabs, const QString& title) {
    for (int i = 0; i < tabs->count(); ++i)
        if (tabs->tabText(i).remove('&') == title) return i;
    return -1;
}

} // namespace

class TestNativeViews : public QObject {
    Q_OBJECT
private slots:
    void sitesModel();
    void stacksModel();
    void massifTreeModel();
    void stacking_data();
    void stacking();
    void heaptrackWindow();
    void massifWindow_data();
    void massifWindow();
    void sitesAreReadOffTheGuiThread();
    void anotherSiteSupersedesTheStacks();
    void massifTreeIsReadOffTheGuiThread();
    void anotherSnapshotSupersedesTheTree();
};

void TestNativeViews::sitesModel() {
    Store s(heaptrackFixture());
    AllocationSitesModel model;
    QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
    model.setSites(queryAllocationSites(*s.db, s.traceId));
    QCOMPARE(model.rowCount(), 3);
    QSortFilterProxyModel proxy;
    QAbstractItemModelTester proxyTester(&proxy, QAbstractItemModelTester::FailureReportingMode::QtTest);
    proxy.setSourceModel(&model);
    proxy.setSortRole(AllocationSitesModel::SortRole);
    proxy.sort(AllocationSitesModel::Allocations, Qt::DescendingOrder);
    QCOMPARE(proxy.index(0, AllocationSitesModel::Function).data().toString(), QStringLiteral("make_obj"));
    QCOMPARE(proxy.index(0, AllocationSitesModel::Location).data().toString(), QStringLiteral("prog.c:20"));
    QCOMPARE(proxy.index(0, AllocationSitesModel::Temporary).data().toString(), QStringLiteral("3"));
    proxy.sort(AllocationSitesModel::Leaked, Qt::DescendingOrder);
    QCOMPARE(proxy.index(0, AllocationSitesModel::Function).data().toString(), QStringLiteral("0x5000"));
    QCOMPARE(proxy.index(0, AllocationSitesModel::Leaked).data(Qt::ToolTipRole).toString(), QStringLiteral("16 bytes"));
    model.setSites({});
    QCOMPARE(proxy.rowCount(), 0);
}

void TestNativeViews::stacksModel() {
    Store s(heaptrackFixture());
    SiteStacksModel model;
    QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
    const auto sites = queryAllocationSites(*s.db, s.traceId);
    model.setStacks(querySiteStacks(*s.db, s.traceId, sites[1].id));
    QCOMPARE(model.rowCount(), 2);
    const QModelIndex first = model.index(0, 0);
    QVERIFY(first.data().toString().startsWith("2 calls"));
    QCOMPARE(model.rowCount(first), 3);
    QCOMPARE(model.index(0, SiteStacksModel::Frame, first).data().toString(), QStringLiteral("make_obj"));
    QCOMPARE(model.index(1, SiteStacksModel::Frame, first).data().toString(), QStringLiteral("helper (inlined)"));
    QCOMPARE(model.index(1, SiteStacksModel::Location, first).data().toString(), QStringLiteral("util.h:3"));
    QCOMPARE(model.index(2, SiteStacksModel::Frame, first).data().toString(), QStringLiteral("main"));
    QCOMPARE(model.parent(model.index(2, 0, first)), first);
    model.setStacks(querySiteStacks(*s.db, s.traceId, sites[0].id));
    QCOMPARE(model.rowCount(), 1);
}

void TestNativeViews::massifTreeModel() {
    Store s(massifFixture("i"));
    MassifTreeModel model;
    QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
    model.setTree(loadMassifTree(*s.db, s.traceId, 1), 5552);
    QCOMPARE(model.rowCount(), 1);
    const QModelIndex root = model.index(0, 0);
    QCOMPARE(model.rowCount(root), 3);
    // Sorted by bytes, with ms_print's share of the snapshot total.
    QCOMPARE(model.index(0, MassifTreeModel::Function, root).data().toString(), QStringLiteral("make_table"));
    QCOMPARE(model.index(0, MassifTreeModel::Share, root).data().toString(), QStringLiteral("54.03 %"));
    QCOMPARE(model.index(1, MassifTreeModel::Location, root).data().toString(), QStringLiteral("in /usr/lib/libstdc++.so.6"));
    QCOMPARE(model.index(0, MassifTreeModel::Share).data().toString(), QStringLiteral("90.06 %"));
    const QModelIndex table = model.index(0, 0, root);
    QCOMPARE(model.rowCount(table), 2);
    QCOMPARE(model.index(1, MassifTreeModel::Function, table).data().toString(), QStringLiteral("Foo::bar(int) const"));
    QCOMPARE(model.index(1, MassifTreeModel::Bytes, table).data(MassifTreeModel::SortRole).toLongLong(), 1000);
    QCOMPARE(model.parent(model.index(1, 0, table)), table);
    model.setTree(loadMassifTree(*s.db, s.traceId, 2), 8320);
    QCOMPARE(model.rowCount(model.index(0, 0)), 2);
    model.setTree({}, 0);
    QCOMPARE(model.rowCount(), 0);
}

void TestNativeViews::stacking_data() {
    using P = std::vector<SeriesPoint>;
    QTest::addColumn<P>("below");
    QTest::addColumn<P>("own");
    QTest::addColumn<P>("expected");
    QTest::newRow("same times") << P{{0, 1}, {10, 2}} << P{{0, 5}, {10, 6}} << P{{0, 6}, {10, 8}};
    QTest::newRow("interleaved steps") << P{{0, 1}, {10, 2}} << P{{5, 100}} << P{{0, 1}, {5, 101}, {10, 102}};
    QTest::newRow("nothing below") << P{} << P{{3, 7}} << P{{3, 7}};
    QTest::newRow("two values at one time") << P{{0, 10}} << P{{5, 1}, {5, 3}} << P{{0, 10}, {5, 11}, {5, 13}};
}

void TestNativeViews::stacking() {
    using P = std::vector<SeriesPoint>;
    QFETCH(P, below);
    QFETCH(P, own);
    QFETCH(P, expected);
    QCOMPARE(stackOnto(below, own), expected);
}

void TestNativeViews::heaptrackWindow() {
    MainWindow window;
    window.resize(1200, 800);
    window.openFileBlocking(heaptrackFixture());
    QTabWidget* tabs = window.detailTabs();
    QVERIFY(tabIndex(tabs, "Allocation sites") >= 0);
    QCOMPARE(tabIndex(tabs, "Heap tree"), -1);
    QCOMPARE(tabs->currentWidget(), window.nativeTabs()->sitesView());
    AllocationSitesView* view = window.nativeTabs()->sitesView();
    QCOMPARE(view->table()->model()->rowCount(), 3);
    QCOMPARE(view->table()->model()->index(0, AllocationSitesModel::Function).data().toString(), QStringLiteral("leaky_init"));
    QVERIFY(view->totalsLabel()->text().contains("6 calls"));
    view->selectRow(1);
    view->waitForQuery();
    QCOMPARE(view->stacksModel()->rowCount(), 2);

    // Heap and RSS in bytes on the left, the two rates on a second axis.
    window.timeline()->refreshNow();
    QCustomPlot* plot = window.timeline()->plot();
    QCOMPARE(plot->graphCount(), 4);
    QVERIFY(plot->yAxis2->visible());
    QVERIFY2(plot->yAxis2->label().startsWith("calls/s"), qPrintable(plot->yAxis2->label()));
    QCOMPARE(plot->graph(2)->valueAxis(), plot->yAxis2);
    QVERIFY(plot->xAxis->label().startsWith("Time since trace start"));

    // Opening something else removes the tab again.
    window.openFileBlocking(massifFixture("i"));
    QCOMPARE(tabIndex(tabs, "Allocation sites"), -1);
    QVERIFY(tabIndex(tabs, "Heap tree") >= 0);
}

void TestNativeViews::massifWindow_data() {
    QTest::addColumn<QString>("unit");
    QTest::addColumn<QString>("axis");
    QTest::addColumn<qint64>("nearSnapshot1");
    QTest::newRow("instructions") << "i"
                                  << "Instructions executed" << qint64(1100);
    QTest::newRow("milliseconds") << "ms"
                                  << "Time since trace start" << qint64(13'000'000);
    QTest::newRow("bytes") << "B"
                           << "Memory allocated and freed so far" << qint64(4000);
}

void TestNativeViews::massifWindow() {
    QFETCH(QString, unit);
    QFETCH(QString, axis);
    QFETCH(qint64, nearSnapshot1);
    MainWindow window;
    window.resize(1200, 800);
    window.openFileBlocking(massifFixture(unit));
    MassifView* view = window.nativeTabs()->massifView();
    QCOMPARE(window.detailTabs()->currentWidget(), view);
    QCOMPARE(view->snapshotBox()->count(), 2); // the detailed snapshots 1 and 2
    QCOMPARE(view->currentSnapshot(), 2);      // the peak first
    QVERIFY(view->snapshotBox()->currentText().contains("(peak)"));

    // A click on the timeline shows the detailed snapshot nearest to it.
    emit window.timeline()->timeClicked(nearSnapshot1);
    QCOMPARE(view->currentSnapshot(), 1);
    view->waitForQuery();
    QCOMPARE(view->treeModel()->rowCount(view->treeModel()->index(0, 0)), 3);

    window.timeline()->refreshNow();
    QCustomPlot* plot = window.timeline()->plot();
    QVERIFY2(plot->xAxis->label().startsWith(axis), qPrintable(plot->xAxis->label()));
    QCOMPARE(plot->graphCount(), 4);
    QVERIFY(!plot->yAxis2->visible());
    // Stacked: useful heap, then + extra heap, then + stacks, which reaches the total.
    const auto valueAt = [&](int graph, double key) {
        const auto data = plot->graph(graph)->data();
        double v = 0;
        for (auto it = data->constBegin(); it != data->constEnd() && it->key <= key; ++it) v = it->value;
        return v;
    };
    const double peakX = static_cast<double>(window.session()->summary().devices[0].peakTimeNs);
    QCOMPARE(valueAt(0, peakX), 8000.0);
    QCOMPARE(valueAt(1, peakX), 8064.0);
    QCOMPARE(valueAt(2, peakX), 8320.0);
    QCOMPARE(valueAt(3, peakX), 8320.0);
    QCOMPARE(plot->graph(1)->channelFillGraph(), plot->graph(0));
    QCOMPARE(plot->graph(2)->channelFillGraph(), plot->graph(1));
}

// Opening the trace and selecting a site start reads on the worker: right after each, the view
// shows its loading line and no rows; after wait() the rows the fixture has (3 sites, 2
// backtraces for the second row, as heaptrackWindow checks against heaptrack_print's figures).
void TestNativeViews::sitesAreReadOffTheGuiThread() {
    Store s(heaptrackFixture());
    s.db.reset(); // the session opens the store itself
    TraceSession session;
    AllocationSitesView view(&session);
    session.open(s.dir.filePath("v.memviz"), s.traceId);
    QVERIFY(view.isLoading());
    QCOMPARE(view.table()->model()->rowCount(), 0);
    QCOMPARE(view.totalsLabel()->text(), QStringLiteral("Reading the allocation sites\u2026"));
    view.waitForQuery();
    QCOMPARE(view.table()->model()->rowCount(), 3);
    QVERIFY(view.totalsLabel()->text().contains("6 calls"));
    view.selectRow(1);
    QVERIFY(view.isLoading());
    QCOMPARE(view.stacksModel()->rowCount(), 0);
    QCOMPARE(view.stacksStatusText(), QStringLiteral("Reading the backtraces\u2026"));
    view.waitForQuery();
    QCOMPARE(view.stacksModel()->rowCount(), 2);
    QVERIFY(view.stacksStatusText().isEmpty());
}

// Row 1, then at once row 0 (leaky_init): only row 0's backtraces land, whose innermost frame
// is leaky_init itself.
void TestNativeViews::anotherSiteSupersedesTheStacks() {
    MainWindow window;
    window.openFileBlocking(heaptrackFixture());
    AllocationSitesView* view = window.nativeTabs()->sitesView();
    QSignalSpy landed(view, &AllocationSitesView::stacksShown);
    const qint64 site0 = view->table()->model()->index(0, 0).data(AllocationSitesModel::SiteIdRole).toLongLong();
    view->selectRow(1);
    view->selectRow(0);
    view->waitForQuery();
    QCOMPARE(landed.count(), 1);
    QCOMPARE(landed.at(0).at(0).toLongLong(), site0);
    const QModelIndex first = view->stacksModel()->index(0, 0);
    QVERIFY(first.isValid());
    QCOMPARE(view->stacksModel()->index(0, SiteStacksModel::Frame, first).data().toString(), QStringLiteral("leaky_init"));
}

// Choosing a snapshot clears the tree and reads the new one on the worker; after wait() it is
// snapshot 1's tree (3 children under the root, as massifTreeModel checks from ms_print).
void TestNativeViews::massifTreeIsReadOffTheGuiThread() {
    MainWindow window;
    window.openFileBlocking(massifFixture("i"));
    MassifView* view = window.nativeTabs()->massifView();
    QCOMPARE(view->currentSnapshot(), 2);
    QVERIFY(view->showSnapshot(1));
    QVERIFY(view->isLoading());
    QCOMPARE(view->treeModel()->rowCount(), 0);
    QCOMPARE(view->statusText(), QStringLiteral("Reading the heap tree of snapshot 1\u2026"));
    view->waitForQuery();
    QVERIFY(view->statusText().isEmpty());
    QCOMPARE(view->treeModel()->rowCount(view->treeModel()->index(0, 0)), 3);
}

// Snapshot 1, then at once snapshot 2: only snapshot 2's tree (2 children) lands.
void TestNativeViews::anotherSnapshotSupersedesTheTree() {
    MainWindow window;
    window.openFileBlocking(massifFixture("i"));
    MassifView* view = window.nativeTabs()->massifView();
    QSignalSpy landed(view, &MassifView::treeShown);
    view->showSnapshot(1);
    view->showSnapshot(2);
    view->waitForQuery();
    QCOMPARE(landed.count(), 1);
    QCOMPARE(landed.at(0).at(0).toLongLong(), 2);
    QCOMPARE(view->currentSnapshot(), 2);
    QCOMPARE(view->treeModel()->rowCount(view->treeModel()->index(0, 0)), 2);
}

QTEST_MAIN(TestNativeViews)
#include "tst_native_views.moc"

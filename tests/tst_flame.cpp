// SPDX-License-Identifier: MIT
// The flame graph (widgets/flame): where frames are painted and what hovering, clicking and
// Escape do, on a hand-built tree whose boxes are worked out by hand below; the Flame view on a
// hand-written allocation log (metric chooser, search sum, range selection, moment, no stacks);
// the Flame tab in the main window.
#include <QAbstractItemModelTester>
#include <QCheckBox>
#include <QTreeView>
#include <QComboBox>
#include <QLineEdit>
#include <QTabWidget>
#include <QtTest>

#include "MainWindow.h"
#include "TestSupport.h"
#include "WindowTestSetup.h"
#include "core/Progress.h"
#include "formats/FormatRegistry.h"
#include "store/Database.h"
#include "widgets/TraceSession.h"
#include "widgets/flame/FlameExport.h"
#include "widgets/flame/FlameGraph.h"
#include "widgets/flame/FlameView.h"
#include "widgets/flame/StackTreeModel.h"

using namespace memviz;
using namespace memviz::test;

namespace {

std::shared_ptr<const StackTree> handBuiltTree() {
    StackTreeBuilder b;
    const auto add = [&](std::initializer_list<const char*> frames, std::int64_t v) {
        std::vector<std::int32_t> ids;
        for (const char* f : frames) ids.push_back(b.frameId({f, std::string(f) + ".py", 7, "libx.so"}));
        b.add(ids, v);
    };
    add({"main", "a", "b"}, 10);
    add({"main", "a"}, 5);
    add({"main", "c"}, 7);
    add({"main", "a", "b"}, 3);
    return std::make_shared<const StackTree>(b.finish());
}

QString functionAt(const FlameGraph& g, QPoint p) {
    const std::int32_t n = g.nodeAt(p);
    if (n < 0) return {};
    const StackFrameInfo* f = g.tree()->frameOf(n);
    return f ? QString::fromStdString(f->function) : QStringLiteral("(root)");
}

// Live bytes: 100, 300, 350, 150 (t=30), 550 (t=40, the peak); allocated 750 in all.
const char* kLog = "time_ns,action,address,size,device,op,category,stack\n"
                   "0,alloc,0x10,100,cpu,,,main;load\n"
                   "10,alloc,0x20,200,cpu,,,main;train;forward\n"
                   "20,alloc,0x30,50,cpu,,,main;train;forward\n"
                   "30,free,0x20,,cpu,,,\n"
                   "40,alloc,0x40,400,cpu,,,main;train;backward\n";

struct Store {
    QTemporaryDir dir;
    QString path;
    std::int64_t traceId = 0;
    explicit Store(const QByteArray& csv) {
        const QString log = writeFile(dir, "log.csv", csv);
        path = dir.filePath("f.memviz");
        Database db(path.toStdString());
        traceId = importFile(db, log.toStdString(), Progress{});
    }
};

} // namespace

class TestFlame : public QObject {
    Q_OBJECT
private slots:
    void initTestCase() { startIsolatedWindowSuite("memviz-tests-flame"); }
    void boxesHoverClickEscape();
    void flameFlipsRows();
    void exportsPngAndSvg();
    void treeModel();
    void viewMetricsSearchRangeMoment();
    void viewWithoutStacks();
    void windowHasFlameTab();
};

void TestFlame::boxesHoverClickEscape() {
    FlameGraph g;
    g.resize(500, 200);
    g.setTree(handBuiltTree(), false);
    // Rows of 18 px: root (0..17), main (18..35), a and c (36..53), b (54..71). Total 25:
    // a = 18/25 of 500 = 360 px from x 0; c = 7/25 = 140 px from x 360; b = 13/25 = 260 px.
    const int row = FlameGraph::kRowHeight;
    QCOMPARE(functionAt(g, {250, row / 2}), QString("(root)"));
    QCOMPARE(functionAt(g, {499, row + 5}), QString("main"));
    QCOMPARE(functionAt(g, {10, 2 * row + 5}), QString("a"));
    QCOMPARE(functionAt(g, {359, 2 * row + 5}), QString("a"));
    QCOMPARE(functionAt(g, {361, 2 * row + 5}), QString("c"));
    QCOMPARE(functionAt(g, {259, 3 * row + 5}), QString("b"));
    QCOMPARE(functionAt(g, {261, 3 * row + 5}), QString()); // a's self part: nothing below
    // The tooltip: frame, file:line, module, inclusive and self with percent of 25.
    const QString tip = g.tooltipText(g.nodeAt({400, 2 * row + 5}));
    QVERIFY2(tip.contains("<b>c</b>"), qPrintable(tip));
    QVERIFY2(tip.contains("c.py:7"), qPrintable(tip));
    QVERIFY2(tip.contains("libx.so"), qPrintable(tip));
    QVERIFY2(tip.contains("Inclusive: 7 (28.0%)"), qPrintable(tip));
    QVERIFY2(tip.contains("Self: 7 (28.0%)"), qPrintable(tip));
    const QString tipA = g.tooltipText(g.nodeAt({10, 2 * row + 5}));
    QVERIFY2(tipA.contains("Inclusive: 18 (72.0%)") && tipA.contains("Self: 5 (20.0%)"), qPrintable(tipA));

    // A click on a zooms into it: a spans the width, b is 13/18 of 500 = 361.1 px.
    QTest::mouseClick(&g, Qt::LeftButton, {}, {10, 2 * row + 5});
    QCOMPARE(functionAt(g, {499, 2 * row + 5}), QString("a"));
    QCOMPARE(g.nodeRect(g.nodeAt({10, 3 * row + 5})).width(), 361);
    QCOMPARE(functionAt(g, {499, 3 * row + 5}), QString()); // c is outside the zoom
    // Escape goes back up.
    QTest::keyClick(&g, Qt::Key_Escape);
    QCOMPARE(g.zoomRoot(), 0);
    QCOMPARE(functionAt(g, {400, 2 * row + 5}), QString("c"));
    QVERIFY(!g.zoomOut());
}

void TestFlame::flameFlipsRows() {
    FlameGraph g;
    g.resize(500, 200);
    g.setTree(handBuiltTree(), false);
    g.setFlame(true);
    // The root is the bottom row (182..199), a is two rows above it.
    const int row = FlameGraph::kRowHeight;
    QCOMPARE(functionAt(g, {250, 199}), QString("(root)"));
    QCOMPARE(functionAt(g, {10, 200 - 2 * row - 5}), QString("a"));
}

void TestFlame::exportsPngAndSvg() {
    FlameGraph g;
    g.resize(500, 200);
    g.setTree(handBuiltTree(), false);
    QTemporaryDir dir;
    QVERIFY(saveFlameGraph(&g, dir.filePath("f.png")));
    const QImage png(dir.filePath("f.png"));
    QCOMPARE(png.size(), QSize(500, 200));
    QVERIFY(saveFlameGraph(&g, dir.filePath("f.svg")));
    const QByteArray svg = readFile(dir.filePath("f.svg"));
    QVERIFY(svg.contains("<svg"));
    QVERIFY2(svg.contains("main (main.py)"), "the SVG names the frames as text");
    QString error;
    QVERIFY(!saveFlameGraph(&g, dir.filePath("f.bmpx"), &error));
    QVERIFY2(error.contains("bmpx"), qPrintable(error));
}

void TestFlame::treeModel() {
    StackTreeModel model;
    QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
    const auto tree = handBuiltTree();
    model.setTree(tree, false);
    // One top row, main (25, self 0), with a (18, self 5) and c (7, self 7) below it.
    QCOMPARE(model.rowCount(), 1);
    const QModelIndex main = model.index(0, StackTreeModel::Frame);
    QCOMPARE(main.data().toString(), QString("main"));
    QCOMPARE(model.index(0, StackTreeModel::Inclusive).data(StackTreeModel::SortRole).toLongLong(), 25);
    QCOMPARE(model.rowCount(main), 2);
    const QModelIndex a = model.index(0, StackTreeModel::Frame, main);
    QCOMPARE(a.data().toString(), QString("a"));
    QCOMPARE(model.index(0, StackTreeModel::Self, main).data(StackTreeModel::SortRole).toLongLong(), 5);
    QCOMPARE(model.index(0, StackTreeModel::Location, main).data().toString(), QString("a.py:7"));
    QCOMPARE(model.index(1, StackTreeModel::Module, main).data().toString(), QString("libx.so"));
    QCOMPARE(model.parent(a), main);
    QCOMPARE(model.indexOfNode(a.data(StackTreeModel::NodeRole).toInt()), a);
    // Bottom-up: b (13), c (7), a (5) at the top.
    model.setTree(std::make_shared<const StackTree>(invertedStackTree(*tree)), false);
    QCOMPARE(model.rowCount(), 3);
    QCOMPARE(model.index(0, StackTreeModel::Frame).data().toString(), QString("b"));
    QCOMPARE(model.index(2, StackTreeModel::Inclusive).data(StackTreeModel::SortRole).toLongLong(), 5);
}

void TestFlame::viewMetricsSearchRangeMoment() {
    Store store(kLog);
    TraceSession session;
    session.open(store.path, store.traceId);
    FlameView view(&session);
    view.resize(800, 400);
    view.waitForQuery();
    QCOMPARE(view.message(), QString());
    QCOMPARE(view.metricBox()->count(), 2);
    QCOMPARE(view.metricBox()->currentData().toString(), QString("alive"));
    // Alive at the peak (t=40): 100 + 50 + 400.
    QCOMPARE(view.graph()->tree()->total(), 550);
    // "train" holds 50 + 400 = 450 of 550 = 81.8%.
    view.setSearch("TRAIN");
    view.waitForQuery();
    QVERIFY2(view.searchSummary().startsWith(QString("81.8% of the total is under “TRAIN”")), qPrintable(view.searchSummary()));
    // Zooming the graph selects the same frame in the top-down tree.
    const StackTree* t = view.graph()->tree();
    std::int32_t train = -1;
    for (std::size_t n = 1; n < t->nodes.size(); ++n)
        if (t->frameAt(static_cast<std::int32_t>(n)).function == "train") train = static_cast<std::int32_t>(n);
    QVERIFY(train > 0);
    view.graph()->zoomInto(train);
    QCOMPARE(view.treeView()->currentIndex().data().toString(), QString("train"));
    // A moment: at t=25, 100 + 200 + 50.
    view.setMoment(25);
    view.waitForQuery();
    QCOMPARE(view.graph()->tree()->total(), 350);
    // Allocated in the selected range 15..45: 50 + 400.
    view.setMetric("allocated");
    view.waitForQuery();
    QCOMPARE(view.graph()->tree()->total(), 750);
    session.setSelection(TimeRange{15, 45});
    view.waitForQuery();
    QCOMPARE(view.graph()->tree()->total(), 450);
}

void TestFlame::viewWithoutStacks() {
    Store store("time_ns,action,address,size\n0,alloc,0x10,100\n");
    TraceSession session;
    session.open(store.path, store.traceId);
    FlameView view(&session);
    view.waitForQuery();
    QVERIFY2(view.message().contains("no `stack` column"), qPrintable(view.message()));
}

void TestFlame::windowHasFlameTab() {
    QTemporaryDir dir;
    const QString log = writeFile(dir, "log.csv", kLog);
    MainWindow window;
    window.openFileBlocking(log);
    QTabWidget* tabs = window.detailTabs();
    int flame = -1;
    for (int i = 0; i < tabs->count(); ++i)
        if (tabs->tabText(i).remove('&') == "Flame") flame = i;
    QVERIFY(flame >= 0);
    // The file opens at its first own tab; Flame comes after the format's tabs, not in front.
    QCOMPARE(flame, tabs->count() - 1);
    QCOMPARE(tabs->tabText(tabs->currentIndex()).remove('&'), QStringLiteral("Operators"));
    auto* view = qobject_cast<FlameView*>(tabs->widget(flame));
    QVERIFY(view);
    view->waitForQuery();
    QCOMPARE(view->graph()->tree()->total(), 550);
    // Escape in the graph zooms out although the window has an Escape shortcut of its own.
    window.show();
    QVERIFY(QTest::qWaitForWindowActive(&window));
    tabs->setCurrentIndex(flame);
    FlameGraph* graph = view->graph();
    graph->zoomInto(graph->tree()->nodes[0].children[0]);
    QVERIFY(graph->zoomRoot() > 0);
    graph->setFocus();
    QTest::keyClick(graph, Qt::Key_Escape);
    QCOMPARE(graph->zoomRoot(), 0);
}

QTEST_MAIN(TestFlame)
#include "tst_flame.moc"

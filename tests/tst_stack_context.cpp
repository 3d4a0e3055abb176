// SPDX-License-Identifier: MIT
// What CUDA snapshot entries carry beside their frames (compile_context, user_metadata,
// forward_frames): kept in the store as interned texts, shown in the stack view, and offered
// as the flame graph's grouping keys (`memviz stacks --group-by`). The snapshot is written by
// tests/oracles/make_context_snapshot.py; every expected number and text is worked out by
// hand from the table in that script's docstring.
#include <QComboBox>
#include <QtTest>

#include "TestSupport.h"
#include "core/Progress.h"
#include "formats/FormatRegistry.h"
#include "formats/StackSources.h"
#include "formats/snapshot/SnapshotContext.h"
#include "formats/snapshot/SnapshotQueries.h"
#include "store/Database.h"
#include "widgets/TraceSession.h"
#include "widgets/flame/FlameGraph.h"
#include "widgets/flame/FlameView.h"
#include "widgets/snapshot/StackPane.h"

using namespace memviz;
using namespace memviz::test;

namespace {

// The forward traceback of entries 3 and 4: the two lines of FORWARD joined, the last
// newline dropped.
const std::string kForward = "  File \"train.py\", line 10, in step\n    loss = model(x)\n"
                             "  File \"model.py\", line 20, in forward\n    y = self.lin(x)";

// Root children of a tree, function -> inclusive value.
QMap<QString, qint64> rootLevel(const StackTree& t) {
    QMap<QString, qint64> out;
    for (std::int32_t c : t.nodes[0].children) out[QString::fromStdString(t.frameAt(c).function)] = t.nodes[static_cast<std::size_t>(c)].inclusive;
    return out;
}

} // namespace

class TestStackContext : public QObject {
    Q_OBJECT
private slots:
    void initTestCase();
    void contextsAreStoredOnce();
    void groupingKeysAreOffered();
    void groupByCompileContext();
    void groupByUserMetadata();
    void groupByForwardStack();
    void groupByFollowsTheMoment();
    void collapsedWithGroupBy();
    void stackPaneShowsContext();
    void flameViewGroupsBy();
    void realFixturesKeepTheirDefaults();
    void badContextIsAnError();

private:
    StackTree tree(const std::string& groupBy, std::optional<std::int64_t> at = std::nullopt);
    QTemporaryDir dir_;
    QString pickle_;
    std::unique_ptr<Database> db_;
    std::int64_t trace_ = 0;
};

void TestStackContext::initTestCase() {
    if (python().isEmpty()) MEMVIZ_SKIP_OR_FAIL("no python3 to write the test snapshot");
    const ProcessResult r = runProcess(python(), {oracle("make_context_snapshot.py"), dir_.path()});
    QVERIFY2(r.exitCode == 0, r.err.constData());
    pickle_ = dir_.filePath("context.pickle");
    db_ = std::make_unique<Database>(dir_.filePath("c.memviz").toStdString());
    trace_ = importFile(*db_, pickle_.toStdString(), Progress{});
}

StackTree TestStackContext::tree(const std::string& groupBy, std::optional<std::int64_t> at) {
    StackRequest r;
    r.metric = "alive";
    r.groupBy = groupBy;
    r.at = at;
    return loadStackTree(*db_, trace_, r);
}

void TestStackContext::contextsAreStoredOnce() {
    const SnapshotContexts c = loadSnapshotContexts(*db_, trace_);
    // Distinct texts: 'N/A', 'Torch-Compiled Region: 0/0', 'phase=fwd', the dict as
    // "phase: bwd\nlayer: 3", the forward traceback, 'Torch-Compiled Region: 1/0' ('' is none).
    QCOMPARE(c.texts.size(), std::size_t(6));
    QCOMPARE(std::count(c.texts.begin(), c.texts.end(), kForward), 1);
    // Runs of entries with the same texts: #0 (N/A), #1-2 (0/0, fwd), #3 (N/A, dict, forward),
    // #4 (1/0, forward), #5-6 (N/A).
    QCOMPARE(c.runs.size(), std::size_t(5));
    QCOMPARE(c.runs[1].firstSeq, 1);
    QCOMPARE(c.runs[1].lastSeq, 2);
    QCOMPARE(c.runs[4].firstSeq, 5);
    QCOMPARE(c.runs[4].lastSeq, 6);

    const EntryContext a = c.at(0, 1), b = c.at(0, 2), cc = c.at(0, 3), d = c.at(0, 4), free = c.at(0, 6);
    QCOMPARE(a.compileContext, std::string("Torch-Compiled Region: 0/0"));
    QCOMPARE(a.userMetadata, std::string("phase=fwd"));
    QVERIFY(a.forwardFrames.empty());
    QCOMPARE(b.userMetadata, a.userMetadata);
    QVERIFY(cc.compileContext.empty()); // 'N/A' is the default: not shown
    QCOMPARE(cc.userMetadata, std::string("phase: bwd\nlayer: 3"));
    QCOMPARE(cc.forwardFrames, kForward);
    QCOMPARE(d.compileContext, std::string("Torch-Compiled Region: 1/0"));
    QVERIFY(d.userMetadata.empty());
    QCOMPARE(d.forwardFrames, kForward);
    QVERIFY(free.empty());
    QVERIFY(c.at(0, -1).empty()); // before the trace
    QVERIFY(c.at(0, 7).empty());  // past its end

    // The forward traceback as frames, outermost first (the source lines skipped).
    const std::vector<FrameRow> frames = parseForwardFrames(kForward);
    QCOMPARE(frames.size(), std::size_t(2));
    QCOMPARE(frames[0].name, std::string("step"));
    QCOMPARE(frames[0].filename, std::string("train.py"));
    QCOMPARE(frames[0].line, 10);
    QCOMPARE(frames[1].name, std::string("forward"));
    QCOMPARE(frames[1].line, 20);
}

void TestStackContext::groupingKeysAreOffered() {
    const StackAvailability a = stackAvailability(*db_, trace_);
    QStringList ids;
    for (const StackGrouping& g : a.groupings) ids << QString::fromStdString(g.id);
    QCOMPARE(ids, QStringList({"stack", "compile-context", "user-metadata", "forward-stack"}));
}

void TestStackContext::groupByCompileContext() {
    // Alive at the peak (after #4): A 1000 + B 2000 (0/0), C 4000 ('N/A'), D 8000 (1/0).
    const StackTree t = tree("compile-context");
    QCOMPARE(t.total(), 15000);
    const QMap<QString, qint64> expected{
        {"Torch-Compiled Region: 0/0", 3000}, {"Torch-Compiled Region: 1/0", 8000}, {"[no compile context]", 4000}};
    QCOMPARE(rootLevel(t), expected);
    // Without grouping the root level is the stacks' outermost frames: step (A, B) and the
    // autograd engine (C, D).
    const QMap<QString, qint64> plain{{"step", 3000}, {"torch::autograd::Engine::evaluate_function", 12000}};
    QCOMPARE(rootLevel(tree("")), plain);
    QCOMPARE(rootLevel(tree("stack")), plain);
}

void TestStackContext::groupByUserMetadata() {
    const QMap<QString, qint64> expected{{"phase=fwd", 3000}, {"phase: bwd\nlayer: 3", 4000}, {"[no user metadata]", 8000}};
    QCOMPARE(rootLevel(tree("user-metadata")), expected);
}

void TestStackContext::groupByForwardStack() {
    // C and D (12000) have the forward traceback: [forward pass] > step > forward > their own
    // stack (the autograd engine); A and B (3000) have none.
    const StackTree t = tree("forward-stack");
    const QMap<QString, qint64> expected{{"[forward pass]", 12000}, {"[no forward stack]", 3000}};
    QCOMPARE(rootLevel(t), expected);
    std::int32_t node = t.nodes[0].children[0];
    QCOMPARE(t.frameAt(node).function, std::string("[forward pass]"));
    const char* path[] = {"step", "forward", "torch::autograd::Engine::evaluate_function"};
    for (const char* name : path) {
        QCOMPARE(t.nodes[static_cast<std::size_t>(node)].children.size(), std::size_t(1));
        node = t.nodes[static_cast<std::size_t>(node)].children[0];
        QCOMPARE(t.frameAt(node).function, std::string(name));
        QCOMPARE(t.nodes[static_cast<std::size_t>(node)].inclusive, 12000);
    }
    QCOMPARE(t.frameAt(t.nodes[0].children[0]).module, std::string("forward pass"));
}

void TestStackContext::groupByFollowsTheMoment() {
    // At the end (#6 at 60 µs = 60000 ns): B is freed, 0/0 keeps only A's 1000 bytes.
    const QMap<QString, qint64> expected{
        {"Torch-Compiled Region: 0/0", 1000}, {"Torch-Compiled Region: 1/0", 8000}, {"[no compile context]", 4000}};
    QCOMPARE(rootLevel(tree("compile-context", 60000)), expected);
}

void TestStackContext::collapsedWithGroupBy() {
    const ProcessResult r = runMemviz({"stacks", pickle_, "--group-by", "compile-context", "--fold", "none"});
    QVERIFY2(r.exitCode == 0, r.err.constData());
    // Largest first; frames with a file are "function (file)".
    const QString expected = "Torch-Compiled Region: 1/0;torch::autograd::Engine::evaluate_function 8000\n"
                             "[no compile context];torch::autograd::Engine::evaluate_function 4000\n"
                             "Torch-Compiled Region: 0/0;step (train.py);forward (model.py) 3000\n";
    QCOMPARE(QString::fromUtf8(r.out), expected);
    // A key the trace does not have, and a key that does not exist: usage errors naming them.
    const ProcessResult bad = runMemviz({"stacks", pickle_, "--group-by", "nonsense"});
    QCOMPARE(bad.exitCode, 2);
    QVERIFY2(bad.err.contains("\"nonsense\"") && bad.err.contains("compile-context"), bad.err.constData());
}

void TestStackContext::stackPaneShowsContext() {
    const StackCatalog catalog = loadStackCatalog(*db_, trace_);
    StackPane pane;
    pane.resize(500, 600);
    pane.showStack("A", {{"forward", "model.py", 20}}, catalog.contexts.at(0, 1));
    QString text = pane.toPlainText();
    QVERIFY2(text.contains("Compile context: Torch-Compiled Region: 0/0"), qPrintable(text));
    QVERIFY2(text.contains("User metadata: phase=fwd"), qPrintable(text));
    QVERIFY(!text.contains("Forward-pass stack"));

    pane.showStack("C", {{"torch::autograd::Engine::evaluate_function", "??", 0}}, catalog.contexts.at(0, 3));
    text = pane.toPlainText();
    QVERIFY2(!text.contains("Compile context"), qPrintable(text)); // 'N/A'
    QVERIFY2(text.contains("User metadata: phase: bwd\nlayer: 3"), qPrintable(text));
    QVERIFY2(text.contains("Forward-pass stack"), qPrintable(text));
    QVERIFY2(text.contains("File \"model.py\", line 20, in forward"), qPrintable(text));
    // The forward stack comes after the allocation's own frames.
    QVERIFY(text.indexOf("evaluate_function") < text.indexOf("Forward-pass stack"));

    pane.showStack("segment", {{"step", "train.py", 10}}, catalog.contexts.at(0, 0)); // 'N/A', ''
    text = pane.toPlainText();
    QVERIFY(!text.contains("Compile context") && !text.contains("User metadata") && !text.contains("Forward-pass"));
}

void TestStackContext::flameViewGroupsBy() {
    TraceSession session;
    session.open(dir_.filePath("c.memviz"), trace_);
    FlameView view(&session);
    view.resize(900, 400);
    view.waitForQuery();
    // The chooser offers the stacks and the three keys this snapshot has.
    QVERIFY(view.groupByBox()->isVisibleTo(&view));
    QCOMPARE(view.groupByBox()->count(), 4);
    QCOMPARE(view.groupByBox()->currentData().toString(), QString("stack"));
    view.setGroupBy("user-metadata");
    view.waitForQuery();
    QCOMPARE(view.groupByBox()->currentData().toString(), QString("user-metadata"));
    const StackTree* t = view.graph()->tree();
    QVERIFY(t);
    // Alive at the peak, as in groupByUserMetadata (the view folds plumbing; the keys are not).
    const QMap<QString, qint64> expected{{"phase=fwd", 3000}, {"phase: bwd\nlayer: 3", 4000}, {"[no user metadata]", 8000}};
    QCOMPARE(rootLevel(*t), expected);
}

void TestStackContext::realFixturesKeepTheirDefaults() {
    for (const char* name : {"pytorch-snapshot/bcrafton_2025.pickle", "pytorch-snapshot/magma27_2026.pickle"}) {
        const QString path = sharedFixture(name);
        if (path.isEmpty()) MEMVIZ_SKIP_OR_FAIL("the shared snapshot fixtures are missing");
        QTemporaryDir dir;
        Database db(dir.filePath("f.memviz").toStdString());
        const std::int64_t id = importFile(db, path.toStdString(), Progress{});
        // Every entry carries compile_context 'N/A' and user_metadata '': one text, and runs
        // that cover every entry of every device.
        const SnapshotContexts c = loadSnapshotContexts(db, id);
        QCOMPARE(c.texts, std::vector<std::string>{"N/A"});
        std::int64_t covered = 0;
        for (const SnapshotContextRun& r : c.runs) covered += r.lastSeq - r.firstSeq + 1;
        std::int64_t entries = 0;
        for (const SnapshotDeviceStats& d : loadSnapshotOverview(db, id).devices) entries += d.entries;
        QCOMPARE(covered, entries);
        QVERIFY(!c.hasCompileContext() && !c.hasUserMetadata() && !c.hasForwardFrames());
        QCOMPARE(stackAvailability(db, id).groupings.size(), std::size_t(1)); // "stack" only
        {
            TraceSession session;
            session.open(dir.filePath("f.memviz"), id);
            FlameView view(&session);
            view.waitForQuery();
            QVERIFY(!view.groupByBox()->isVisibleTo(&view)); // nothing to choose
        }
        const ProcessResult r = runMemviz({"stacks", path, "--group-by", "compile-context"});
        QCOMPARE(r.exitCode, 2);
        QVERIFY2(r.err.contains("nothing to group by"), r.err.constData());
    }
}

void TestStackContext::badContextIsAnError() {
    const ProcessResult r = runMemviz({"import", dir_.filePath("bad_context.pickle"), "--db", dir_.filePath("bad.memviz")});
    QCOMPARE(r.exitCode, 1);
    QVERIFY2(r.err.contains("device_traces[0][3]: 'forward_frames' is an int, not a list"), r.err.constData());
}

QTEST_MAIN(TestStackContext)
#include "tst_stack_context.moc"

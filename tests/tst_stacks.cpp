// SPDX-License-Identifier: MIT
// Call trees (model/trace/StackTree, FrameFolder) on hand-built stacks, and the collapsed
// stacks of a hand-written allocation log with a `stack` column. Every expected inclusive,
// self and collapsed line is worked out by hand in the comments beside it.
#include <QtTest>

#include <algorithm>
#include <map>
#include <random>

#include "TestSupport.h"
#include "core/Progress.h"
#include "formats/FormatRegistry.h"
#include "formats/StackSources.h"
#include "store/Database.h"
#include "store/TraceQueries.h"
#include "trace/StackTree.h"

using namespace memviz;
using namespace memviz::test;

namespace {

// Adds "outer;...;inner" stacks of function names (no file) to a builder.
void addStack(StackTreeBuilder& b, const std::string& stack, std::int64_t value) {
    std::vector<std::int32_t> ids;
    std::size_t start = 0;
    while (start < stack.size()) {
        std::size_t end = stack.find(';', start);
        if (end == std::string::npos) end = stack.size();
        ids.push_back(b.frameId({stack.substr(start, end - start), {}, 0, {}}));
        start = end + 1;
    }
    b.add(ids, value);
}

// The node reached by following function names from the root; -1 when absent.
std::int32_t nodeAt(const StackTree& t, const std::vector<std::string>& path) {
    std::int32_t node = 0;
    for (const std::string& name : path) {
        std::int32_t next = -1;
        for (std::int32_t c : t.nodes[static_cast<std::size_t>(node)].children)
            if (t.frameAt(c).function == name) next = c;
        if (next < 0) return -1;
        node = next;
    }
    return node;
}

const StackNode& at(const StackTree& t, const std::vector<std::string>& path) {
    const std::int32_t n = nodeAt(t, path);
    if (n < 0) qFatal("no node at the path");
    return t.nodes[static_cast<std::size_t>(n)];
}

const char* kLog = "time_ns,action,address,size,device,op,category,stack\n"
                   "0,alloc,0x10,100,cpu,,,main;load\n"
                   "10,alloc,0x20,200,cpu,,,main;train;forward\n"
                   "20,alloc,0x30,50,cpu,,,main;train;forward\n"
                   "30,free,0x20,,cpu,,,main;train\n"
                   "40,alloc,0x40,400,cpu,,,main;train;backward\n"
                   "50,free,0x30,,cpu,,,\n"
                   "60,free,0x40,,cpu,,,\n";

} // namespace

class TestStacks : public QObject {
    Q_OBJECT
private slots:
    void inclusiveAndSelf();
    void bottomUp();
    void bottomUpMergesCallers();
    void bottomUpMatchesReversedStacks();
    void callSitesOfOneFunctionMerge();
    void foldingMovesValueToTheCaller();
    void presetsElideThePlumbing();
    void unknownPresetAndBadPattern();
    void deepStacksAreBounded();
    void collapsedText();
    void allocLogCollapsed_data();
    void allocLogCollapsed();
    void traceWithoutStacks();
    void realSnapshotStartsAtUserCode();
};

void TestStacks::inclusiveAndSelf() {
    StackTreeBuilder b;
    addStack(b, "main;a;b", 10);
    addStack(b, "main;a", 5);
    addStack(b, "main;c", 7);
    addStack(b, "main;a;b", 3);
    const StackTree t = b.finish();
    // root = 10 + 5 + 7 + 3 = 25; main = 25 (self 0); a = 10 + 5 + 3 = 18 (self 5);
    // b = 10 + 3 = 13 (self 13); c = 7 (self 7).
    QCOMPARE(t.total(), 25);
    QCOMPARE(at(t, {"main"}).inclusive, 25);
    QCOMPARE(at(t, {"main"}).self, 0);
    QCOMPARE(at(t, {"main", "a"}).inclusive, 18);
    QCOMPARE(at(t, {"main", "a"}).self, 5);
    QCOMPARE(at(t, {"main", "a", "b"}).inclusive, 13);
    QCOMPARE(at(t, {"main", "a", "b"}).self, 13);
    QCOMPARE(at(t, {"main", "c"}).inclusive, 7);
    QCOMPARE(at(t, {"main", "c"}).self, 7);
    // Children largest first: a (18) before c (7).
    const StackNode& main = at(t, {"main"});
    QCOMPARE(t.frameAt(main.children[0]).function, std::string("a"));
    QCOMPARE(t.frameAt(main.children[1]).function, std::string("c"));
    QCOMPARE(t.samples, 4);
    QCOMPARE(t.maxDepth(), 3);
    QCOMPARE(t.pathTo(nodeAt(t, {"main", "a", "b"})).size(), std::size_t(3));
}

void TestStacks::bottomUp() {
    StackTreeBuilder b;
    addStack(b, "main;a;b", 13);
    addStack(b, "main;a", 5);
    addStack(b, "main;c", 7);
    const StackTree t = invertedStackTree(b.finish());
    // Read from the innermost frame: b 13 (called by a, by main), c 7 (by main), a 5 (by main).
    QCOMPARE(t.total(), 25);
    QCOMPARE(t.nodes[0].children.size(), std::size_t(3));
    QCOMPARE(t.frameAt(t.nodes[0].children[0]).function, std::string("b"));
    QCOMPARE(t.frameAt(t.nodes[0].children[1]).function, std::string("c"));
    QCOMPARE(t.frameAt(t.nodes[0].children[2]).function, std::string("a"));
    QCOMPARE(at(t, {"b", "a", "main"}).inclusive, 13);
    QCOMPARE(at(t, {"b", "a", "main"}).self, 13);
    QCOMPARE(at(t, {"a"}).inclusive, 5);
    QCOMPARE(at(t, {"a"}).self, 0);
    QCOMPARE(at(t, {"a", "main"}).self, 5);
    // Rows: each node knows its index among its parent's children.
    QCOMPARE(t.nodes[static_cast<std::size_t>(t.nodes[0].children[2])].row, 2);
}

void TestStacks::bottomUpMergesCallers() {
    StackTreeBuilder b;
    addStack(b, "main;a;b", 13);
    addStack(b, "main;c;b", 4);
    addStack(b, "main;a", 5);
    addStack(b, "main;c;a;b", 2);
    addStack(b, "main", 1);
    const StackTree t = invertedStackTree(b.finish());
    // By hand, reading each stack from its innermost frame:
    //   b <- a <- main 13, b <- c <- main 4, a <- main 5, b <- a <- c <- main 2, main 1.
    // root 25; b = 13 + 4 + 2 = 19 (self 0), under it a = 13 + 2 = 15 and c = 4;
    // b<-a<-main 13 (self 13), b<-a<-c 2 (self 0) <- main 2 (self 2), b<-c<-main 4 (self 4);
    // a 5 <- main 5 (self 5); main 1 (self 1: the stack that is main alone).
    QCOMPARE(t.total(), 25);
    QCOMPARE(t.nodes[0].children.size(), std::size_t(3));
    QCOMPARE(t.frameAt(t.nodes[0].children[0]).function, std::string("b"));
    QCOMPARE(t.frameAt(t.nodes[0].children[1]).function, std::string("a"));
    QCOMPARE(t.frameAt(t.nodes[0].children[2]).function, std::string("main"));
    QCOMPARE(at(t, {"b"}).inclusive, 19);
    QCOMPARE(at(t, {"b"}).self, 0);
    QCOMPARE(at(t, {"b", "a"}).inclusive, 15);
    QCOMPARE(at(t, {"b", "a"}).self, 0);
    QCOMPARE(at(t, {"b", "a", "main"}).inclusive, 13);
    QCOMPARE(at(t, {"b", "a", "main"}).self, 13);
    QCOMPARE(at(t, {"b", "a", "c"}).inclusive, 2);
    QCOMPARE(at(t, {"b", "a", "c"}).self, 0);
    QCOMPARE(at(t, {"b", "a", "c", "main"}).self, 2);
    QCOMPARE(at(t, {"b", "c"}).inclusive, 4);
    QCOMPARE(at(t, {"b", "c", "main"}).self, 4);
    QCOMPARE(at(t, {"a"}).inclusive, 5);
    QCOMPARE(at(t, {"a", "main"}).self, 5);
    QCOMPARE(at(t, {"main"}).inclusive, 1);
    QCOMPARE(at(t, {"main"}).self, 1);
    QCOMPARE(t.maxDepth(), 4);
    // b's children: a (15) before c (4); parents and depths agree with the paths.
    const std::int32_t bac = nodeAt(t, {"b", "a", "c"});
    QCOMPARE(t.nodes[static_cast<std::size_t>(bac)].depth, 3);
    QCOMPARE(t.pathTo(bac), (std::vector<std::int32_t>{nodeAt(t, {"b"}), nodeAt(t, {"b", "a"}), bac}));
    QCOMPARE(at(t, {"b", "c"}).row, 1);
}

// Many random stacks: the bottom-up tree equals the tree a builder makes from the same stacks
// given innermost first (a separate code path: one hashed lookup per frame), node by node.
void TestStacks::bottomUpMatchesReversedStacks() {
    std::mt19937 rng(14);
    const char* names[] = {"main", "a", "b", "c", "d", "e", "f"};
    StackTreeBuilder topDown, reversed;
    for (int i = 0; i < 3000; ++i) {
        const int depth = 1 + static_cast<int>(rng() % 9);
        std::vector<std::int32_t> outer, inner;
        for (int d = 0; d < depth; ++d) {
            const std::string name = names[rng() % 7];
            outer.push_back(topDown.frameId({name, {}, 0, {}}));
            inner.push_back(reversed.frameId({name, {}, 0, {}}));
        }
        const std::int64_t value = 1 + static_cast<std::int64_t>(rng() % 1000);
        topDown.add(outer, value);
        std::reverse(inner.begin(), inner.end());
        reversed.add(inner, value);
    }
    const StackTree got = invertedStackTree(topDown.finish());
    const StackTree want = reversed.finish();
    QCOMPARE(got.nodes.size(), want.nodes.size());
    QCOMPARE(got.total(), want.total());
    // Walk both trees together; children are sorted the same way (largest first), so compare
    // each node's children as (function, inclusive, self) lists.
    std::vector<std::pair<std::int32_t, std::int32_t>> todo{{0, 0}};
    std::size_t visited = 0;
    while (!todo.empty()) {
        const auto [g, w] = todo.back();
        todo.pop_back();
        ++visited;
        const StackNode& gn = got.nodes[static_cast<std::size_t>(g)];
        const StackNode& wn = want.nodes[static_cast<std::size_t>(w)];
        QCOMPARE(got.frameAt(g).function, want.frameAt(w).function);
        QCOMPARE(gn.inclusive, wn.inclusive);
        QCOMPARE(gn.self, wn.self);
        QCOMPARE(gn.depth, wn.depth);
        QCOMPARE(gn.children.size(), wn.children.size());
        std::map<std::string, std::int32_t> wantChildren;
        for (std::int32_t c : wn.children) wantChildren[want.frameAt(c).function] = c;
        for (std::int32_t c : gn.children) {
            const auto it = wantChildren.find(got.frameAt(c).function);
            QVERIFY(it != wantChildren.end());
            QCOMPARE(got.nodes[static_cast<std::size_t>(c)].parent, g);
            todo.push_back({c, it->second});
        }
    }
    QCOMPARE(visited, got.nodes.size());
}

void TestStacks::callSitesOfOneFunctionMerge() {
    StackTreeBuilder b;
    // main calls f from line 10 and g from line 12; f is called from one line only.
    const std::int32_t main10 = b.frameId({"main", "prog.c", 10, "prog"});
    const std::int32_t main12 = b.frameId({"main", "prog.c", 12, "prog"});
    const std::int32_t f = b.frameId({"f", "prog.c", 3, "prog"});
    const std::int32_t g = b.frameId({"g", "prog.c", 5, "prog"});
    QCOMPARE(main10, main12);
    const std::int32_t s1[] = {main10, f}, s2[] = {main12, g};
    b.add(s1, 4);
    b.add(s2, 6);
    const StackTree t = b.finish();
    // One main (4 + 6), whose line is unknown now; f keeps its line.
    QCOMPARE(t.nodes[0].children.size(), std::size_t(1));
    QCOMPARE(at(t, {"main"}).inclusive, 10);
    QCOMPARE(t.frameAt(nodeAt(t, {"main"})).line, 0);
    QCOMPARE(t.frameAt(nodeAt(t, {"main", "f"})).line, 3);
}

void TestStacks::foldingMovesValueToTheCaller() {
    FrameFolder folder;
    folder.addPattern({"^a$", ""});
    StackTreeBuilder b(folder);
    addStack(b, "main;a;b", 10);
    addStack(b, "main;a", 5);
    addStack(b, "main;c", 7);
    addStack(b, "a", 2);
    const StackTree t = b.finish();
    // Without a: main;b 10, main 5, main;c 7. main = 22 (self 5), b = 10. The stack "a" alone,
    // every frame folded, keeps its innermost frame (issue 52: no byte without a box): a = 2.
    QCOMPARE(t.total(), 24);
    QCOMPARE(t.nodes[0].self, 0);
    QCOMPARE(at(t, {"a"}).inclusive, 2);
    QCOMPARE(at(t, {"main"}).inclusive, 22);
    QCOMPARE(at(t, {"main"}).self, 5);
    QCOMPARE(at(t, {"main", "b"}).inclusive, 10);
    QCOMPARE(nodeAt(t, {"main", "a"}), -1);
}

void TestStacks::presetsElideThePlumbing() {
    const FrameFolder all = FrameFolder::fromPresets(defaultFoldPresets());
    // PyTorch plumbing (issue 14's list) and allocation wrappers go ...
    QVERIFY(all.elides("_call_impl", "/usr/lib/python3/dist-packages/torch/nn/modules/module.py"));
    QVERIFY(all.elides("_wrapped_call_impl", "D:\\venv\\Lib\\site-packages\\torch\\nn\\modules\\module.py"));
    QVERIFY(all.elides("__call__", "/usr/lib/python3/dist-packages/torch/_ops.py"));
    QVERIFY(all.elides("c10::Dispatcher::call<at::Tensor>(...)", ""));
    QVERIFY(all.elides("malloc", "../malloc/malloc.c"));
    QVERIFY(all.elides("operator new(unsigned long)", ""));
    QVERIFY(all.elides("_PyEval_EvalFrameDefault", ""));
    QVERIFY(all.elides("_run_code", "<frozen runpy>"));
    QVERIFY(all.elides("__libc_start_main", ""));
    // ... the user's code stays, also when it shares a name with the plumbing.
    QVERIFY(!all.elides("forward", "/home/me/model.py"));
    QVERIFY(!all.elides("_call_impl", "/home/me/mymodule.py"));
    QVERIFY(!all.elides("main", "prog.c"));
    QVERIFY(!all.elides("mallocate_buffers", "prog.c"));
    // Unresolved addresses only with their preset, and only without a file.
    QVERIFY(!all.elides("0x7f755093aa2b", ""));
    const FrameFolder unresolved = FrameFolder::fromPresets({"unresolved"});
    QVERIFY(unresolved.elides("0x7f755093aa2b", ""));
    QVERIFY(!unresolved.elides("0x7f518d498b9f", "rtld.c"));
    QVERIFY(!unresolved.elides("main", ""));
    // No presets: nothing is elided.
    QVERIFY(!FrameFolder::fromPresets({}).elides("malloc", ""));
}

void TestStacks::unknownPresetAndBadPattern() {
    try {
        FrameFolder::fromPresets({"pyhton"});
        QFAIL("an unknown preset was accepted");
    } catch (const std::invalid_argument& e) {
        QVERIFY2(std::string(e.what()).find("pyhton") != std::string::npos, e.what());
        QVERIFY2(std::string(e.what()).find("python") != std::string::npos, e.what());
    }
    FrameFolder f;
    QVERIFY_THROWS_EXCEPTION(std::invalid_argument, f.addPattern({"(unclosed", ""}));
}

void TestStacks::deepStacksAreBounded() {
    StackTreeBuilder b(FrameFolder{}, 10);
    std::vector<std::int32_t> deep;
    for (int i = 0; i < 50; ++i) deep.push_back(b.frameId({"f" + std::to_string(i), {}, 0, {}}));
    b.add(deep, 8);
    const StackTree t = b.finish();
    // 9 frames kept (f0..f8), the other 41 become one frame: depth 10.
    QCOMPARE(t.maxDepth(), 10);
    QCOMPARE(t.stacksTruncated, 1);
    QCOMPARE(t.total(), 8);
    std::int32_t n = 0;
    while (!t.nodes[static_cast<std::size_t>(n)].children.empty()) n = t.nodes[static_cast<std::size_t>(n)].children[0];
    QVERIFY2(t.frameAt(n).function.find("41 more frames") != std::string::npos, t.frameAt(n).function.c_str());
    QCOMPARE(t.nodes[static_cast<std::size_t>(n)].self, 8);
}

void TestStacks::collapsedText() {
    StackTreeBuilder b;
    addStack(b, "main;a;b", 10);
    addStack(b, "main;a", 5);
    addStack(b, "main;c", 7);
    addStack(b, "main;a;b", 3);
    const std::int32_t withFile = b.frameId({"leaf", "/src/dir/file.c", 12, "libx.so"});
    const std::int32_t mainId = b.frameId({"main", {}, 0, {}});
    const std::int32_t stack[] = {mainId, withFile};
    b.add(stack, 1);
    // Depth first, largest child first; a frame with a file reads "leaf (file.c)".
    QCOMPARE(collapsedStacks(b.finish()), std::string("main;a 5\n"
                                                      "main;a;b 13\n"
                                                      "main;c 7\n"
                                                      "main;leaf (file.c) 1\n"));
}

void TestStacks::allocLogCollapsed_data() {
    QTest::addColumn<QString>("metric");
    QTest::addColumn<qint64>("at");       // -1: none
    QTest::addColumn<qint64>("rangeEnd"); // -1: none; the range starts at 15
    QTest::addColumn<QString>("expected");
    // Allocated: load 100; forward 200 + 50; backward 400.
    QTest::newRow("allocated, whole trace") << "allocated" << qint64(-1) << qint64(-1)
                                            << "main;train;backward 400\nmain;train;forward 250\nmain;load 100\n";
    // Allocated in 15..45: 0x30 (50, forward) at 20 and 0x40 (400, backward) at 40.
    QTest::newRow("allocated, range 15:45") << "allocated" << qint64(-1) << qint64(45)
                                            << "main;train;backward 400\nmain;train;forward 50\n";
    // Live bytes: 100, 300, 350, 150, 550 (t=40, the peak), 500, 100. At the peak: 0x10 (load
    // 100), 0x30 (forward 50), 0x40 (backward 400).
    QTest::newRow("alive at the peak") << "alive" << qint64(-1) << qint64(-1)
                                       << "main;train;backward 400\nmain;train;forward 50\nmain;load 100\n";
    // At t=25: 0x10 (100), 0x20 (200), 0x30 (50).
    QTest::newRow("alive at 25") << "alive" << qint64(25) << qint64(-1) << "main;train;forward 250\nmain;load 100\n";
}

void TestStacks::allocLogCollapsed() {
    QFETCH(QString, metric);
    QFETCH(qint64, at);
    QFETCH(qint64, rangeEnd);
    QFETCH(QString, expected);
    QTemporaryDir dir;
    const QString log = writeFile(dir, "log.csv", kLog);
    Database db(dir.filePath("s.memviz").toStdString());
    const std::int64_t id = importFile(db, log.toStdString(), Progress{});
    const StackAvailability a = stackAvailability(db, id);
    QVERIFY(a.hasStacks());
    StackRequest r;
    r.metric = metric.toStdString();
    if (at >= 0) r.at = at;
    if (rangeEnd >= 0) r.range = TimeRange{15, rangeEnd};
    const StackTree t = loadStackTree(db, id, r);
    QCOMPARE(QString::fromStdString(collapsedStacks(t)), expected);
}

void TestStacks::traceWithoutStacks() {
    QTemporaryDir dir;
    const QString log = writeFile(dir, "log.csv", "time_ns,action,address,size\n0,alloc,0x10,100\n5,free,0x10,\n");
    Database db(dir.filePath("s.memviz").toStdString());
    const std::int64_t id = importFile(db, log.toStdString(), Progress{});
    const StackAvailability a = stackAvailability(db, id);
    QVERIFY(!a.hasStacks());
    QVERIFY2(QString::fromStdString(a.howToRecord).contains("stack"), a.howToRecord.c_str());
    QVERIFY_THROWS_EXCEPTION(std::runtime_error, loadStackTree(db, id, StackRequest{}));
}

// A CUDA snapshot from a real PyTorch run (../shared/fixtures): with the default presets no
// frame of Module._call_impl / _wrapped_call_impl is left, every stack starts at the user's
// script, and the root (alive at each device's peak) is the same with and without folding
// and equals the summary's peak.
void TestStacks::realSnapshotStartsAtUserCode() {
    const QString file = sharedFixture("pytorch-snapshot/magma27_2026.pickle");
    QTemporaryDir dir;
    Database db(dir.filePath("s.memviz").toStdString());
    const std::int64_t id = importFile(db, file.toStdString(), Progress{});
    StackRequest none;
    const StackTree raw = loadStackTree(db, id, none);
    StackRequest folded;
    folded.folder = FrameFolder::fromPresets(defaultFoldPresets());
    const StackTree t = loadStackTree(db, id, folded);
    const auto callImplFrames = [](const StackTree& tree) {
        int n = 0;
        for (const StackFrameInfo& f : tree.frames)
            n += (f.function == "_call_impl" || f.function == "_wrapped_call_impl") && f.file.find("module.py") != std::string::npos;
        return n;
    };
    QVERIFY(callImplFrames(raw) > 0);
    // Frames are interned even when elided; none of them may be in a node.
    for (std::size_t n = 1; n < t.nodes.size(); ++n) {
        const StackFrameInfo& f = t.frameAt(static_cast<std::int32_t>(n));
        QVERIFY2(f.function != "_call_impl" && f.function != "_wrapped_call_impl", f.file.c_str());
    }
    QCOMPARE(t.total(), raw.total());
    QCOMPARE(t.total(), loadSummary(db, id).devices[0].peakBytes);
    // Every stack starts in the script; the blocks from before the recording (no stack) are a box of their own.
    for (std::int32_t top : t.nodes[0].children)
        QVERIFY2(t.frameAt(top).file.find("benchmarking_script.py") != std::string::npos ||
                     t.frameAt(top).function == StackTreeBuilder::kNoStackBeforeRecording,
                 t.frameAt(top).function.c_str());
}

QTEST_GUILESS_MAIN(TestStacks)
#include "tst_stacks.moc"

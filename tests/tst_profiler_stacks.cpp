// SPDX-License-Identifier: MIT
// Call stacks of profiler traces recorded with_stack=True (args["Call stack"]): a memory
// event's stack is the Python frames of the outermost op call around it that has a stack,
// then the op calls down to the innermost one (formats/profiler/ProfilerStacks.h). A small
// hand-written trace with every expected line worked out by hand beside it; the real 2021
// Kineto trace against a standard-library count of its events
// (tests/oracles/profiler_call_stacks.py); a trace without stacks keeps the message that
// says how to record them.
#include <QJsonDocument>
#include <QJsonObject>
#include <QtTest>

#include "TestSupport.h"
#include "core/Progress.h"
#include "formats/FormatIds.h"
#include "formats/FormatRegistry.h"
#include "formats/StackSources.h"
#include "store/Database.h"
#include "store/TraceQueries.h"

using namespace memviz;
using namespace memviz::test;

namespace {

// ts in µs; t = 0 at ts 100. Calls on thread 1/1:
//   ProfilerStep#1 [100, 200] (no stack)
//     aten::linear [110, 150]  stack: linear.py(114) forward < module.py(1501) _call_impl <
//                              model.py(20) forward < train.py(10) step
//       aten::empty [115, 120] (the same stack)
//     aten::relu   [160, 170]  stack: model.py(21) forward < train.py(10) step
// Memory (cuda:0): +1000 at 116 (in aten::empty), +500 at 130 (in aten::linear), +200 at 165
// (in aten::relu), -1000 at 168 (frees the first), +300 at 250 (in no call).
QByteArray trace(bool withStacks) {
    const QByteArray linearStack = R"("Call stack": "torch/nn/modules/linear.py(114): forward;torch/nn/modules/module.py(1501): _call_impl;)"
                                   R"(model.py(20): forward;train.py(10): step")";
    const QByteArray reluStack = R"("Call stack": "model.py(21): forward;train.py(10): step")";
    QByteArray t = R"({"traceEvents": [
{"ph": "X", "cat": "user_annotation", "name": "ProfilerStep#1", "pid": 1, "tid": 1, "ts": 100, "dur": 100, "args": {}},
{"ph": "X", "cat": "cpu_op", "name": "aten::linear", "pid": 1, "tid": 1, "ts": 110, "dur": 40, "args": {LINEAR}},
{"ph": "X", "cat": "cpu_op", "name": "aten::empty", "pid": 1, "tid": 1, "ts": 115, "dur": 5, "args": {LINEAR}},
{"ph": "X", "cat": "cpu_op", "name": "aten::relu", "pid": 1, "tid": 1, "ts": 160, "dur": 10, "args": {RELU}},
{"ph": "i", "s": "t", "name": "[memory]", "pid": 1, "tid": 1, "ts": 116, "args": {"Device Type": 1, "Device Id": 0, "Addr": 4096, "Bytes": 1000, "Total Allocated": 1000, "Total Reserved": 2097152}},
{"ph": "i", "s": "t", "name": "[memory]", "pid": 1, "tid": 1, "ts": 130, "args": {"Device Type": 1, "Device Id": 0, "Addr": 8192, "Bytes": 500, "Total Allocated": 1500, "Total Reserved": 2097152}},
{"ph": "i", "s": "t", "name": "[memory]", "pid": 1, "tid": 1, "ts": 165, "args": {"Device Type": 1, "Device Id": 0, "Addr": 12288, "Bytes": 200, "Total Allocated": 1700, "Total Reserved": 2097152}},
{"ph": "i", "s": "t", "name": "[memory]", "pid": 1, "tid": 1, "ts": 168, "args": {"Device Type": 1, "Device Id": 0, "Addr": 4096, "Bytes": -1000, "Total Allocated": 700, "Total Reserved": 2097152}},
{"ph": "i", "s": "t", "name": "[memory]", "pid": 1, "tid": 1, "ts": 250, "args": {"Device Type": 1, "Device Id": 0, "Addr": 16384, "Bytes": 300, "Total Allocated": 1000, "Total Reserved": 2097152}}
]})";
    t.replace("{LINEAR}", withStacks ? "{" + linearStack + "}" : QByteArray("{}"));
    t.replace("{RELU}", withStacks ? "{" + reluStack + "}" : QByteArray("{}"));
    return t;
}

} // namespace

class TestProfilerStacks : public QObject {
    Q_OBJECT
private slots:
    void collapsedAllocated();
    void aliveAtThePeak();
    void folderSeesPythonFiles();
    void traceWithoutStacks();
    void realTraceStacks();
};

void TestProfilerStacks::collapsedAllocated() {
    QTemporaryDir dir;
    const QString path = writeFile(dir, "t.json", trace(true));
    const ProcessResult r = runMemviz({"stacks", path, "--metric", "allocated", "--fold", "none"});
    QVERIFY2(r.exitCode == 0, r.err.constData());
    // allocated, whole trace: 1000 + 500 + 200 + 300 = 2000. The 300 bytes at 250 are in no
    // call: a frame of their own, "stack not recorded", after step (1700, larger); the others
    // under step > forward (model.py:20 or :21). aten::linear's own 500 are printed before its
    // child aten::empty (1000); relu's 200 last (smallest).
    const QString expected = "step (train.py);forward (model.py);_call_impl (module.py);forward (linear.py);aten::linear 500\n"
                             "step (train.py);forward (model.py);_call_impl (module.py);forward (linear.py);aten::linear;"
                             "aten::empty 1000\n"
                             "step (train.py);forward (model.py);aten::relu 200\n"
                             "stack not recorded 300\n";
    QCOMPARE(QString::fromUtf8(r.out), expected);
}

void TestProfilerStacks::aliveAtThePeak() {
    QTemporaryDir dir;
    const QString path = writeFile(dir, "t.json", trace(true));
    Database db(dir.filePath("p.memviz").toStdString());
    const std::int64_t id = importFile(db, path.toStdString(), Progress{});
    const StackAvailability a = stackAvailability(db, id);
    QVERIFY(a.hasStacks());
    QCOMPARE(a.metrics.front().id, std::string("alive"));
    // Peak of cuda:0: Total Allocated 1700 at ts 165; alive then: 1000 + 500 + 200.
    StackRequest request;
    const StackTree t = loadStackTree(db, id, request);
    QCOMPARE(t.total(), 1700);
    QCOMPARE(t.nodes[0].self, 0);
    QCOMPARE(t.nodes[0].children.size(), std::size_t(1));
    const std::int32_t step = t.nodes[0].children[0];
    QCOMPARE(t.frameAt(step).function, std::string("step"));
    QCOMPARE(t.frameAt(step).file, std::string("train.py"));
    QCOMPARE(t.frameAt(step).line, 10);
    // After the free at 168 (t = 68000 ns) 500 + 200 are alive.
    request.at = 68000;
    QCOMPARE(loadStackTree(db, id, request).total(), 700);
    // Two calls carry a "Call stack" (aten::linear, aten::empty) plus aten::relu: 3.
    bool found = false;
    for (const auto& [key, value] : loadMetadata(db, id))
        if (key == metadata_key::kProfilerCallsWithStack) found = value == "3";
    QVERIFY(found);
}

void TestProfilerStacks::folderSeesPythonFiles() {
    // The torch preset folds Module._call_impl (torch/nn/modules/module.py); the module's own
    // forward (linear.py) and the user's frames stay.
    QTemporaryDir dir;
    const QString path = writeFile(dir, "t.json", trace(true));
    const ProcessResult r = runMemviz({"stacks", path, "--metric", "allocated", "--fold", "torch"});
    QVERIFY2(r.exitCode == 0, r.err.constData());
    QVERIFY2(!r.out.contains("_call_impl"), r.out.constData());
    QVERIFY2(r.out.contains("step (train.py);forward (model.py);forward (linear.py);aten::linear;aten::empty 1000\n"),
             r.out.constData());
}

void TestProfilerStacks::traceWithoutStacks() {
    QTemporaryDir dir;
    const QString path = writeFile(dir, "t.json", trace(false));
    const ProcessResult r = runMemviz({"stacks", path});
    QCOMPARE(r.exitCode, 1);
    QVERIFY2(r.err.contains("with_stack=True"), r.err.constData());
}

void TestProfilerStacks::realTraceStacks() {
    const QString path = sharedFixture("pytorch-profiler/kineto_resnet50_v100_2021.pt.trace.json.gz");
    if (path.isEmpty()) MEMVIZ_SKIP_OR_FAIL("the shared profiler fixtures are missing");
    if (python().isEmpty()) MEMVIZ_SKIP_OR_FAIL("no python3 for the oracle");
    const ProcessResult o = runProcess(python(), {oracle("profiler_call_stacks.py"), path});
    QVERIFY2(o.exitCode == 0, o.err.constData());
    const QJsonObject expected = QJsonDocument::fromJson(o.out).object();
    QCOMPARE(expected.value("calls_with_stack").toInteger(), 14994); // the count the task names

    QTemporaryDir dir;
    Database db(dir.filePath("r.memviz").toStdString());
    const std::int64_t id = importFile(db, path.toStdString(), Progress{});
    QString calls;
    for (const auto& [key, value] : loadMetadata(db, id))
        if (key == metadata_key::kProfilerCallsWithStack) calls = QString::fromStdString(value);
    QCOMPARE(calls.toLongLong(), expected.value("calls_with_stack").toInteger());
    // Without addresses (this 2021 trace has none) frees cannot be paired with allocations:
    // only "allocated" is offered.
    QCOMPARE(expected.value("memory_events_with_address").toInteger(), 0);
    const StackAvailability a = stackAvailability(db, id);
    QCOMPARE(a.metrics.size(), std::size_t(1));
    QCOMPARE(a.metrics.front().id, std::string("allocated"));
    // Every allocated byte is in the tree, under a stack or "stack not recorded".
    StackRequest request;
    request.metric = "allocated";
    const StackTree t = loadStackTree(db, id, request);
    QCOMPARE(t.total(), expected.value("allocated_bytes").toInteger());
    // Under each device (cpu, cuda:0), the forward pass's stacks start at the script's
    // <module> (resnet50_profiler_api.py(54), the outermost frame of its "Call stack"s).
    request.folder = FrameFolder::fromPresets(defaultFoldPresets());
    const StackTree folded = loadStackTree(db, id, request);
    int devicesWithModule = 0;
    for (const std::int32_t device : folded.nodes[0].children)
        for (const std::int32_t c : folded.nodes[static_cast<std::size_t>(device)].children)
            if (folded.frameAt(c).function == "<module>" && folded.frameAt(c).file == "resnet50_profiler_api.py") ++devicesWithModule;
    QCOMPARE(devicesWithModule, 2);
}

QTEST_MAIN(TestProfilerStacks)
#include "tst_profiler_stacks.moc"

// SPDX-License-Identifier: MIT
// PyTorch profiler Chrome traces and memory-timeline exports: each version family by hand,
// the real third-party traces against a standard-library oracle, bad input.
#include <QAbstractItemModelTester>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QtTest>

#include "Compression.h"
#include "TestSupport.h"
#include "core/Errors.h"
#include "core/Progress.h"
#include "formats/FormatIds.h"
#include "formats/FormatRegistry.h"
#include "formats/profiler/ProfilerQuery.h"
#include "formats/profiler/ProfilerTraceBuilder.h"
#include "store/Database.h"
#include "store/SeriesQuery.h"
#include "store/TraceQueries.h"
#include "store/TraceWriter.h"
#include "widgets/MemoryEventsModel.h"
#include "widgets/ProfilerOpsModel.h"

using namespace memviz;

namespace {

// PyTorch <= 1.9: cat "Operator", memory events with Bytes only, tid as a string.
// linear [100,150] holds matmul [110,130]; memory at 105 (+256), 115 (+512), 130 (-256, at
// matmul's end: inclusive); cuda +1024 at 200 is inside no op.
const QByteArray kOldTrace = R"({"schemaVersion": 1, "traceEvents": [
 {"ph": "X", "cat": "Operator", "name": "aten::linear", "pid": 1, "tid": "1", "ts": 100, "dur": 50,
  "args": {"Input Dims": [[4, 8], [16, 8], [16]]}},
 {"ph": "X", "cat": "Operator", "name": "aten::matmul", "pid": 1, "tid": "1", "ts": 110, "dur": 20,
  "args": {"Input Dims": [[4, 8], [8,16]]}},
 {"ph": "i", "s": "t", "name": "[memory]", "pid": 1, "tid": 1, "ts": 105, "args": {"Device Type": 0, "Device Id": -1, "Bytes": 256}},
 {"ph": "i", "s": "t", "name": "[memory]", "pid": 1, "tid": 1, "ts": 115, "args": {"Device Type": 0, "Device Id": -1, "Bytes": 512}},
 {"ph": "i", "s": "t", "name": "[memory]", "pid": 1, "tid": 1, "ts": 130, "args": {"Device Type": 0, "Device Id": -1, "Bytes": -256}},
 {"ph": "i", "s": "t", "name": "[memory]", "pid": 1, "tid": 1, "ts": 200, "args": {"Device Type": 1, "Device Id": 0, "Bytes": 1024}},
 {"ph": "X", "cat": "Kernel", "name": "gemm", "pid": 0, "tid": "stream 7", "ts": 120, "dur": 30}
]})";

// 1.10-2.3: cpu_op / cpu_instant_event with addresses and totals, two threads.
// Thread 1: step [0,100] (user_annotation) > mm [10,40]; thread 2: backward [50,90].
// Memory (cuda:0): +100 @0x10 t=20 (thread 2: PyTorch does not check threads), +50 @0x20 t=60,
// -100 @0x10 t=70, -30 @0x99 t=80 (allocated before the trace), +8 (cpu) @0x30 t=95.
const QByteArray kModernTrace = R"({"schemaVersion": 1, "deviceProperties": [], "traceEvents": [
 {"ph": "X", "cat": "user_annotation", "name": "ProfilerStep#1", "pid": 7, "tid": 1, "ts": 1000000, "dur": 100},
 {"ph": "X", "cat": "cpu_op", "name": "aten::mm", "pid": 7, "tid": 1, "ts": 1000010, "dur": 30, "args": {"Input Dims": [[2, 3], [3, 4]]}},
 {"ph": "X", "cat": "cpu_op", "name": "MmBackward0", "pid": 7, "tid": 2, "ts": 1000050, "dur": 40},
 {"ph": "i", "cat": "cpu_instant_event", "s": "t", "name": "[memory]", "pid": 7, "tid": 2, "ts": 1000020,
  "args": {"Ev Idx": 3, "Device Type": 1, "Device Id": 0, "Addr": 16, "Bytes": 100, "Total Allocated": 1100, "Total Reserved": 4096}},
 {"ph": "i", "cat": "cpu_instant_event", "s": "t", "name": "[memory]", "pid": 7, "tid": 2, "ts": 1000060,
  "args": {"Ev Idx": 4, "Device Type": 1, "Device Id": 0, "Addr": 32, "Bytes": 50, "Total Allocated": 1150, "Total Reserved": 4096}},
 {"ph": "i", "cat": "cpu_instant_event", "s": "t", "name": "[memory]", "pid": 7, "tid": 2, "ts": 1000070,
  "args": {"Ev Idx": 5, "Device Type": 1, "Device Id": 0, "Addr": 16, "Bytes": -100, "Total Allocated": 1050, "Total Reserved": 4096}},
 {"ph": "i", "cat": "cpu_instant_event", "s": "t", "name": "[memory]", "pid": 7, "tid": 2, "ts": 1000080,
  "args": {"Ev Idx": 6, "Device Type": 1, "Device Id": 0, "Addr": 153, "Bytes": -30, "Total Allocated": 1020, "Total Reserved": 6144}},
 {"ph": "i", "cat": "cpu_instant_event", "s": "t", "name": "[memory]", "pid": 7, "tid": 1, "ts": 1000095,
  "args": {"Ev Idx": 7, "Device Type": 0, "Device Id": -1, "Addr": 48, "Bytes": 8, "Total Allocated": 8, "Total Reserved": 0}}
]})";

// >= 2.4: ts relative to baseTimeNanoseconds, fractional microseconds; a bare-array variant.
const QByteArray kNewTrace = R"({"traceEvents": [
 {"ph": "X", "cat": "cpu_op", "name": "aten::empty", "pid": 1, "tid": 1, "ts": 10.5, "dur": 1.25},
 {"ph": "i", "cat": "cpu_instant_event", "s": "t", "name": "[memory]", "pid": 1, "tid": 1, "ts": 11.125,
  "args": {"Device Type": 1, "Device Id": 0, "Addr": 4096, "Bytes": 512, "Total Allocated": 512, "Total Reserved": 2097152}}
], "baseTimeNanoseconds": 1700000000000000000, "displayTimeUnit": "ms"})";

// Two allocators on one device (issue 30, the JeolKorpi traces): the CPU allocator's events
// continue its total (4000 B were allocated before the trace), the other's come with Total
// Allocated 0. Bytes: +1000, +500, +300 (other), -300 (other), -1000, +200 at t = 0..50 us;
// running sum 1000, 1500, 1800, 1500, 500, 700; the totals of most events say 4000 B were there
// before, so the line is 5000, 5500, 5800, 5500, 4500, 4700 (each event's own total would be
// 5000, 5500, 0, 0, 4500, 4700).
const QByteArray kTwoAllocatorsTrace = R"({"schemaVersion": 1, "traceEvents": [
 {"ph": "X", "cat": "cpu_op", "name": "aten::empty", "pid": 1, "tid": 1, "ts": 0, "dur": 100},
 {"ph": "i", "cat": "cpu_instant_event", "s": "t", "name": "[memory]", "pid": 1, "tid": 1, "ts": 0,
  "args": {"Device Type": 0, "Device Id": -1, "Addr": 16, "Bytes": 1000, "Total Allocated": 5000, "Total Reserved": 0}},
 {"ph": "i", "cat": "cpu_instant_event", "s": "t", "name": "[memory]", "pid": 1, "tid": 1, "ts": 10,
  "args": {"Device Type": 0, "Device Id": -1, "Addr": 32, "Bytes": 500, "Total Allocated": 5500, "Total Reserved": 0}},
 {"ph": "i", "cat": "cpu_instant_event", "s": "t", "name": "[memory]", "pid": 1, "tid": 1, "ts": 20,
  "args": {"Device Type": 0, "Device Id": -1, "Addr": 48, "Bytes": 300, "Total Allocated": 0, "Total Reserved": 300}},
 {"ph": "i", "cat": "cpu_instant_event", "s": "t", "name": "[memory]", "pid": 1, "tid": 1, "ts": 30,
  "args": {"Device Type": 0, "Device Id": -1, "Addr": 48, "Bytes": -300, "Total Allocated": 0, "Total Reserved": 0}},
 {"ph": "i", "cat": "cpu_instant_event", "s": "t", "name": "[memory]", "pid": 1, "tid": 1, "ts": 40,
  "args": {"Device Type": 0, "Device Id": -1, "Addr": 16, "Bytes": -1000, "Total Allocated": 4500, "Total Reserved": 0}},
 {"ph": "i", "cat": "cpu_instant_event", "s": "t", "name": "[memory]", "pid": 1, "tid": 1, "ts": 50,
  "args": {"Device Type": 0, "Device Id": -1, "Addr": 64, "Bytes": 200, "Total Allocated": 4700, "Total Reserved": 0}}
]})";

struct Imported {
    QTemporaryDir dir;
    std::unique_ptr<Database> db;
    std::int64_t trace = 0;
};

std::unique_ptr<Imported> importBytes(const QByteArray& content, const QString& name) {
    auto r = std::make_unique<Imported>();
    const QString path = test::writeFile(r->dir, name, content);
    r->db = std::make_unique<Database>(r->dir.filePath("s.memviz").toStdString());
    r->trace = importFile(*r->db, path.toStdString(), Progress{});
    return r;
}

const ProfilerOpRow* findRow(const ProfilerOpsTable& t, const std::string& name, const std::string& shapes = {}) {
    for (const auto& r : t.rows)
        if (r.name == name && r.shapes == shapes) return &r;
    return nullptr;
}

int deviceIndex(const ProfilerOpsTable& t, const std::string& name) {
    for (std::size_t i = 0; i < t.devices.size(); ++i)
        if (t.devices[i] == name) return static_cast<int>(i);
    return -1;
}

QJsonObject runOracle(const QString& script, const QStringList& args) {
    const auto r = test::runProcess(test::python(), QStringList{test::oracle(script)} + args);
    if (r.exitCode != 0) qWarning("oracle failed: %s", r.err.constData());
    return QJsonDocument::fromJson(r.out).object();
}

} // namespace

class TestProfiler : public QObject {
    Q_OBJECT
private slots:
    void oldFamily();
    void modernFamilyPairsAndTotals();
    void newestFamilyFractionalAndBaseTime();
    void bareArrayAndGzip();
    void legacyAutogradBareArray();
    void totalsOfAnotherAllocatorDoNotDropTheLine();
    void unknownTopLevelMembersAreKept();
    void callTreeFollowsKeyAverages();
    void badInput_data();
    void badInput();
    void skippedMemoryEventsAreCounted();
    void escapedMemberNames();
    void memoryTimelineRaw();
    void memoryTimelineCoalesced();
    void modelsAreValid();
    void realTraces_data();
    void realTraces();
    void realMemoryTimeline_data();
    void realMemoryTimeline();
    void torch2Trace();
};

void TestProfiler::oldFamily() {
    auto t = importBytes(kOldTrace, "old.pt.trace.json");
    const TraceSummary s = loadSummary(*t->db, t->trace);
    QCOMPARE(QString::fromStdString(s.trace.format), QStringLiteral("pytorch-profiler"));
    QCOMPARE(s.trace.durationNs, 100000); // 100 us to 200 us
    QCOMPARE(s.devices.size(), std::size_t{2});
    // cpu: running sum of Bytes 256, 768, 512 at 5, 15, 30 us from the start.
    QCOMPARE(s.devices[0].name, std::string("cpu"));
    QCOMPARE(s.devices[0].allocs, 2);
    QCOMPARE(s.devices[0].frees, 1);
    QCOMPARE(s.devices[0].peakBytes, 768);
    QCOMPARE(s.devices[0].peakTimeNs, 15000);
    QCOMPARE(s.devices[0].finalBytes, 512);
    QCOMPARE(s.devices[1].name, std::string("cuda:0"));
    QCOMPARE(s.devices[1].peakBytes, 1024);
    QCOMPARE(s.devices[1].peakTimeNs, 100000);
    const auto meta = loadMetadata(*t->db, t->trace);
    QVERIFY(std::find(meta.begin(), meta.end(), std::pair<std::string, std::string>("profiler_family", "pytorch<=1.9")) !=
            meta.end());
    QVERIFY(std::find_if(meta.begin(), meta.end(), [](auto& kv) {
                return kv.first == "allocated_source:cpu" && kv.second.starts_with("running sum");
            }) != meta.end());

    const ProfilerOpsTable ops = queryProfilerOps(*t->db, t->trace, std::nullopt, false);
    const int cpu = deviceIndex(ops, "cpu"), gpu = deviceIndex(ops, "cuda:0");
    const ProfilerOpRow* linear = findRow(ops, "aten::linear");
    const ProfilerOpRow* matmul = findRow(ops, "aten::matmul");
    const ProfilerOpRow* memory = findRow(ops, "[memory]");
    QVERIFY(linear && matmul && memory);
    QCOMPARE(linear->calls, 1);
    QCOMPARE(linear->memory[cpu].bytes, 256 + 512 - 256);
    QCOMPARE(linear->memory[cpu].selfBytes, 512 - (512 - 256));
    QCOMPARE(linear->memory[cpu].allocs, 2);
    QCOMPARE(linear->memory[cpu].allocBytes, 768);
    QCOMPARE(linear->memory[cpu].selfAllocs, 1);
    QCOMPARE(linear->memory[cpu].selfAllocBytes, 256);
    QCOMPARE(matmul->memory[cpu].bytes, 256);
    QCOMPARE(matmul->memory[cpu].selfBytes, 256);
    QCOMPARE(memory->calls, 1);
    QCOMPARE(memory->memory[gpu].bytes, 1024);
    QCOMPARE(memory->memory[cpu].bytes, 0);
    // Kernels are not CPU-side ops.
    QVERIFY(!findRow(ops, "gemm"));
    // Grouped by input shapes, written like str(input_shapes).
    const ProfilerOpsTable grouped = queryProfilerOps(*t->db, t->trace, std::nullopt, true);
    QVERIFY(findRow(grouped, "aten::matmul", "[[4, 8], [8, 16]]"));
    QVERIFY(findRow(grouped, "aten::linear", "[[4, 8], [16, 8], [16]]"));
    // No addresses: nothing to pair.
    QCOMPARE(countAllocations(*t->db, t->trace), 0);
}

void TestProfiler::modernFamilyPairsAndTotals() {
    auto t = importBytes(kModernTrace, "modern.json");
    const TraceSummary s = loadSummary(*t->db, t->trace);
    QCOMPARE(s.devices.size(), std::size_t{2});
    QCOMPARE(s.devices[0].name, std::string("cpu"));
    QCOMPARE(s.devices[1].name, std::string("cuda:0"));
    // Allocated follows Total Allocated: 1100, 1150, 1050, 1020.
    QCOMPARE(s.devices[1].peakBytes, 1150);
    QCOMPARE(s.devices[1].peakTimeNs, 60000);
    QCOMPARE(s.devices[1].finalBytes, 1020);
    QCOMPARE(s.devices[1].allocs, 2);
    QCOMPARE(s.devices[1].frees, 2);
    QCOMPARE(s.devices[1].unmatchedFrees, 1);
    // Reserved is a second series of the device.
    const auto series = listSeries(*t->db, t->trace);
    const auto reserved = std::find_if(series.begin(), series.end(),
                                       [](auto& x) { return x.deviceName == "cuda:0" && x.name == "reserved"; });
    QVERIFY(reserved != series.end());
    QCOMPARE(reserved->vMax, 6144);

    // key_averages: memory inside [ts, ts+dur] on any thread.
    const ProfilerOpsTable ops = queryProfilerOps(*t->db, t->trace, std::nullopt, false);
    const int gpu = deviceIndex(ops, "cuda:0"), cpu = deviceIndex(ops, "cpu");
    const ProfilerOpRow* step = findRow(ops, "ProfilerStep#1");
    const ProfilerOpRow* mm = findRow(ops, "aten::mm");
    const ProfilerOpRow* bw = findRow(ops, "MmBackward0");
    QVERIFY(step && mm && bw);
    QCOMPARE(mm->memory[gpu].bytes, 100);           // the +100 at t=20 on thread 2
    QCOMPARE(bw->memory[gpu].bytes, 50 - 100 - 30); // t = 60, 70, 80
    QCOMPARE(step->memory[gpu].bytes, 100 + 50 - 100 - 30);
    QCOMPARE(step->memory[gpu].selfBytes, (100 + 50 - 100 - 30) - 100); // mm is its only child (same thread)
    QCOMPARE(step->memory[cpu].bytes, 8);
    QVERIFY(!findRow(ops, "[memory]"));

    // Allocations paired by address: 0x10 lived 20..70; 0x20 alive at the end; 0x99 freed,
    // allocated before the trace; cpu 0x30 alive at the end.
    const auto rows = queryAllocations(*t->db, t->trace, std::nullopt, 100);
    QCOMPARE(rows.size(), std::size_t{4});
    const auto byAddress = [&](std::int64_t a) {
        return *std::find_if(rows.begin(), rows.end(), [a](const AllocationRow& r) { return r.address == a; });
    };
    QCOMPARE(byAddress(16).allocTime.value(), 20000);
    QCOMPARE(byAddress(16).freeTime.value(), 70000);
    QCOMPARE(byAddress(16).op, std::string()); // thread 2 runs no op at t=20
    QVERIFY(!byAddress(32).freeTime.has_value());
    QCOMPARE(byAddress(32).op, std::string("MmBackward0")); // innermost op on thread 2 at t=60
    QVERIFY(!byAddress(153).allocTime.has_value());
    QCOMPARE(byAddress(153).size, 30);
    QCOMPARE(byAddress(48).device, std::string("cpu"));
    QCOMPARE(byAddress(48).op, std::string("ProfilerStep#1"));
    // A window restricts both tables.
    const ProfilerOpsTable windowed = queryProfilerOps(*t->db, t->trace, TimeRange{40000, 100000}, false);
    QVERIFY(findRow(windowed, "MmBackward0"));
    QVERIFY(!findRow(windowed, "aten::mm"));
    QCOMPARE(queryAllocations(*t->db, t->trace, TimeRange{50000, 90000}, 100).size(), std::size_t{2}); // 0x20, 0x99
    // The calls of an op, for the timeline.
    const auto spans = queryCallSpans(*t->db, t->trace, "aten::mm", {0, 1000000}, 10);
    QCOMPARE(spans.size(), std::size_t{1});
    QCOMPARE(spans[0].begin, 10000);
    QCOMPARE(spans[0].end, 40000);
}

void TestProfiler::newestFamilyFractionalAndBaseTime() {
    auto t = importBytes(kNewTrace, "new.pt.trace.json");
    const TraceSummary s = loadSummary(*t->db, t->trace);
    QCOMPARE(s.trace.epochNs.value(), 1700000000000000000 + 10500);
    QCOMPARE(s.trace.durationNs, 1250);
    QCOMPARE(s.devices.at(0).peakBytes, 512);
    QCOMPARE(s.devices.at(0).peakTimeNs, 625); // 11.125 us - 10.5 us, exactly
    const ProfilerOpsTable ops = queryProfilerOps(*t->db, t->trace, std::nullopt, false);
    QCOMPARE(findRow(ops, "aten::empty")->memory[0].bytes, 512);
}

void TestProfiler::bareArrayAndGzip() {
    const QByteArray bare = R"([{"ph": "X", "cat": "cpu_op", "name": "aten::add", "pid": 1, "tid": 1, "ts": 5, "dur": 10},
        {"ph": "i", "s": "t", "name": "[memory]", "pid": 1, "tid": 1, "ts": 6, "args": {"Device Type": 0, "Device Id": -1, "Bytes": 64}}])";
    auto a = importBytes(bare, "trace.json");
    QCOMPARE(loadSummary(*a->db, a->trace).devices.at(0).peakBytes, 64);
    auto g = importBytes(test::gzipped(kOldTrace), "old.pt.trace.json.gz");
    QCOMPARE(loadSummary(*g->db, g->trace).devices.at(0).peakBytes, 768);
}

// torch.autograd.profiler's legacy export_chrome_trace: a bare array, no "cat", pid "CPU
// functions", fractional microseconds (written by hand after PyTorch 1.x's profiler.py).
// forward [0, 100] holds aten::linear [10.5, 50.5] holds aten::addmm [20, 40]; a flow
// event ("s") and a CUDA kernel on "CUDA functions" are not CPU calls.
void TestProfiler::legacyAutogradBareArray() {
    const QByteArray legacy = R"([{"name": "forward", "ph": "X", "ts": 0.000, "dur": 100.000, "tid": 1, "pid": "CPU functions", "args": {}},
{"name": "aten::linear", "ph": "X", "ts": 10.500, "dur": 40.000, "tid": 1, "pid": "CPU functions", "args": {}},
{"name": "aten::addmm", "ph": "X", "ts": 20.000, "dur": 20.000, "tid": 1, "pid": "CPU functions", "args": {}},
{"name": "addmm", "ph": "s", "ts": 20.000, "tid": 1, "pid": "CPU functions", "id": 1, "cat": "cpu_to_cuda", "args": {}},
{"name": "gemm", "ph": "X", "ts": 25.000, "dur": 5.000, "tid": 0, "pid": "CUDA functions", "args": {}}])";
    QTemporaryDir dir;
    const QString path = test::writeFile(dir, "trace.json", legacy);
    QCOMPARE(QString::fromStdString(detectImporter(path.toStdString()).id()), QStringLiteral("pytorch-profiler"));
    auto t = importBytes(legacy, "trace.json");
    const TraceSummary s = loadSummary(*t->db, t->trace);
    QCOMPARE(QString::fromStdString(s.trace.format), QStringLiteral("pytorch-profiler"));
    QCOMPARE(s.trace.durationNs, 100000); // 0 to 100 us
    const ProfilerOpsTable ops = queryProfilerOps(*t->db, t->trace, std::nullopt, false);
    QVERIFY(findRow(ops, "forward") && findRow(ops, "aten::linear") && findRow(ops, "aten::addmm"));
    QCOMPARE(findRow(ops, "aten::linear")->calls, 1);
    QVERIFY(!findRow(ops, "gemm"));  // a kernel
    QVERIFY(!findRow(ops, "addmm")); // a flow event
    // Not every bare array is a trace: an array of numbers or of objects without "ph" is not.
    const QString numbers = test::writeFile(dir, "numbers.json", "[1, 2, 3]");
    QVERIFY_THROWS_EXCEPTION(ImportError, detectImporter(numbers.toStdString()));
    const QString objects = test::writeFile(dir, "objects.json", R"([{"name": "a", "ts": 1}])");
    QVERIFY_THROWS_EXCEPTION(ImportError, detectImporter(objects.toStdString()));
}

void TestProfiler::totalsOfAnotherAllocatorDoNotDropTheLine() {
    auto t = importBytes(kTwoAllocatorsTrace, "two_allocators.pt.trace.json");
    const TraceSummary s = loadSummary(*t->db, t->trace);
    QCOMPARE(s.devices.size(), std::size_t{1});
    QCOMPARE(s.devices[0].peakBytes, 5800); // 4000 before + 1800 running, at t = 20 us
    QCOMPARE(s.devices[0].peakTimeNs, 20000);
    QCOMPARE(s.devices[0].finalBytes, 4700);
    // The lowest point of the line is 4500 (t = 40 us), not the other allocator's 0.
    const auto series = listSeries(*t->db, t->trace);
    const auto allocated = std::find_if(series.begin(), series.end(), [](auto& x) { return x.name == "allocated"; });
    QVERIFY(allocated != series.end());
    QCOMPARE(allocated->vMin, 4500);
    QCOMPARE(allocated->vMax, 5800);
    // The other allocator's Total Reserved (300, 0) is not drawn: only the CPU allocator's 0s.
    const auto reserved = std::find_if(series.begin(), series.end(), [](auto& x) { return x.name == "reserved"; });
    QVERIFY(reserved != series.end());
    QCOMPARE(reserved->pointCount, 4);
    QCOMPARE(reserved->vMax, 0);
    // Said, with the first such event and how many there are.
    const auto w = std::find_if(s.warnings.begin(), s.warnings.end(),
                                [](const ImportWarning& x) { return x.kind == "totals_of_another_allocator"; });
    QVERIFY(w != s.warnings.end());
    QCOMPARE(w->count, 2);
    QCOMPARE(w->firstLocation, std::string("t=20000 ns"));
    bool source = false;
    for (const auto& [key, value] : loadMetadata(*t->db, t->trace))
        if (key == metadata_key::allocatedSource("cpu")) source = value == metadata_key::kAllocatedFromMostTotals;
    QVERIFY(source);
    // One allocator per device: the line is each event's Total Allocated, as before.
    auto one = importBytes(kModernTrace, "modern.json");
    for (const auto& w1 : loadSummary(*one->db, one->trace).warnings) QVERIFY(w1.kind != "totals_of_another_allocator");
}

// Issue 30: the wild corpus's traces carry top-level members memviz has no use for (kineto's
// traceName, deviceProperties, CUDA/CUPTI versions, record_shapes, a cluster's job fields);
// they are kept as "trace.<member>" with their JSON text, strings without quotes. Hand-made,
// in the layout of a 2.x kineto trace; the expected texts are the members as written below.
void TestProfiler::unknownTopLevelMembersAreKept() {
    const QByteArray trace = R"({"schemaVersion": 1,
  "deviceProperties": [{"id": 0, "name": "NVIDIA A100", "totalGlobalMem": 85000000000}],
  "cupti_version": 28, "traceName": "rank0.pt.trace.json", "with_stack": 1,
  "traceEvents": [{"ph": "X", "cat": "cpu_op", "name": "aten::add", "pid": 1, "tid": 1, "ts": 5, "dur": 10},
    {"ph": "i", "s": "t", "name": "[memory]", "pid": 1, "tid": 1, "ts": 6, "args": {"Device Type": 0, "Device Id": -1, "Bytes": 64}}],
  "INFO": ["INFO:2026-01-08 1:1 CuptiActivityProfiler.cpp:914] done"], "future_field": {"a": [1, 2]},
  "big": ")" + QByteArray(20000, 'x') + R"("})";
    auto t = importBytes(trace, "kept.pt.trace.json");
    std::map<std::string, std::string> meta;
    for (const auto& [k, v] : loadMetadata(*t->db, t->trace)) meta[k] = v;
    const std::string p = metadata_key::kTraceMemberPrefix;
    QCOMPARE(meta["schemaVersion"], std::string("1"));
    QCOMPARE(meta[p + "deviceProperties"], std::string(R"([{"id": 0, "name": "NVIDIA A100", "totalGlobalMem": 85000000000}])"));
    QCOMPARE(meta[p + "cupti_version"], std::string("28"));
    QCOMPARE(meta[p + "traceName"], std::string("rank0.pt.trace.json"));
    QCOMPARE(meta[p + "with_stack"], std::string("1"));
    QCOMPARE(meta[p + "INFO"], std::string(R"(["INFO:2026-01-08 1:1 CuptiActivityProfiler.cpp:914] done"])"));
    QCOMPARE(meta[p + "future_field"], std::string(R"({"a": [1, 2]})"));
    // 20,002 bytes with the quotes: cut at 16 KiB and said so.
    QCOMPARE(meta[p + "big"], "\"" + std::string(metadata_key::kTraceMemberMaxBytes - 1, 'x') + "… (20002 bytes)");
    QVERIFY(!meta.count(p + "traceEvents"));
    QCOMPARE(loadSummary(*t->db, t->trace).devices.at(0).peakBytes, 64);
}

void TestProfiler::callTreeFollowsKeyAverages() {
    // Same start: the longer call is the parent. A call starting at its parent's end is not
    // its child; one that ends after its parent's end is an overlap, not a child.
    std::vector<OpRecord> ops = {
        {0, 100, 1, 0, 0},  // 0: root
        {0, 50, 1, 1, 0},   // 1: child of 0 (same start, shorter)
        {10, 5, 1, 2, 0},   // 2: child of 1
        {100, 10, 1, 3, 0}, // 3: starts at 0's end: not 0's child, but inside 4
        {90, 20, 1, 4, 0},  // 4: starts inside 0, ends after it: overlap, root
        {20, 10, 2, 5, 0},  // 5: other thread: a root
    };
    const CallTree tree = buildCallTree(ops);
    QCOMPARE(std::vector<std::int32_t>(tree.parent.begin(), tree.parent.end()), (std::vector<std::int32_t>{-1, 0, 1, 4, -1, -1}));
    QCOMPARE(std::vector<std::int32_t>(tree.depth.begin(), tree.depth.end()), (std::vector<std::int32_t>{0, 1, 2, 1, 0, 0}));
    QCOMPARE(tree.overlaps, 1);
}

void TestProfiler::badInput_data() {
    QTest::addColumn<QByteArray>("content");
    QTest::addColumn<QString>("mustSay");
    const QByteArray head = "{\"traceEvents\": [\n {\"ph\": \"X\", \"cat\": \"cpu_op\", \"name\": \"a\", \"pid\": 1, \"tid\": 1, "
                            "\"ts\": 1, \"dur\": 2},\n";
    QTest::newRow("syntax error at a known offset")
        << head + " {\"ph\": \"X\",, \"name\": \"b\"}\n]}" << QStringLiteral("byte %1: invalid JSON").arg(head.size() + 12);
    QTest::newRow("truncated json") << head + " {\"ph\": \"X\", \"name\": \"b\"" << QStringLiteral("truncated file");
    {
        // Deep in the file, batches after the first (parsed on worker threads): the event's
        // number counts every event before it, the byte is where the parser stopped.
        QByteArray many = head;
        const int good = 120000; // about 10 MB: several 4 MiB batches
        for (int i = 0; i < good; ++i)
            many += " {\"ph\": \"X\", \"cat\": \"cpu_op\", \"name\": \"a\", \"pid\": 1, \"tid\": 1, \"ts\": " +
                    QByteArray::number(i + 10) + ", \"dur\": 2},\n";
        const qsizetype at = many.size();
        many += " {\"ph\": \"X\",, \"name\": \"b\"},\n";
        for (int i = 0; i < 20000; ++i) many += " {\"ph\": \"i\", \"name\": \"c\"},\n";
        many += " {\"ph\": \"i\", \"name\": \"c\"}\n]}";
        QTest::newRow("syntax error in a later batch")
            << many << QStringLiteral("byte %1: invalid JSON in event %2:").arg(at + 12).arg(1 + good + 1);
    }
    QTest::newRow("events not an array") << QByteArray("{\"traceEvents\": 3}")
                                         << QStringLiteral("byte 16: \"traceEvents\" must be an array");
    QTest::newRow("no events") << QByteArray("{\"schemaVersion\": 1}") << QStringLiteral("unrecognised file format");
    QByteArray gz = test::gzipped(kModernTrace.repeated(1));
    gz.chop(40);
    QTest::newRow("truncated gzip") << gz << QStringLiteral("truncated gzip stream");
    QTest::newRow("memory timeline row of 3")
        << QByteArray("[[-1, 1, 100, 0], [5, 2, 7]]") << QStringLiteral("row 1: expected 4 numbers");
    QTest::newRow("memory timeline times and sizes differ")
        << QByteArray("[[1, 2, 3], [[0,0,0,0,0,0,0,0,0], [0,0,0,0,0,0,0,0,0]]]") << QStringLiteral("3 times but 2 rows");
}

void TestProfiler::badInput() {
    QFETCH(QByteArray, content);
    QFETCH(QString, mustSay);
    QTemporaryDir dir;
    const QString path = test::writeFile(dir, "bad.json", content);
    Database db(dir.filePath("s.memviz").toStdString());
    try {
        importFile(db, path.toStdString(), Progress{});
        QFAIL("bad input accepted");
    } catch (const ImportError& e) {
        QVERIFY2(QString(e.what()).startsWith(path), e.what());
        QVERIFY2(QString(e.what()).contains(mustSay), e.what());
    }
    QCOMPARE(listTraces(db).size(), std::size_t{0});
    QCOMPARE(*queryInt(db, "SELECT count(*) FROM record_chunks"), 0);
}

void TestProfiler::skippedMemoryEventsAreCounted() {
    QByteArray trace = kOldTrace;
    trace.replace(R"({"ph": "X", "cat": "Kernel")",
                  R"({"ph": "i", "name": "[memory]", "pid": 1, "tid": 1, "ts": 140, "args": {"Device Type": 0, "Bytes": "lots"}},
                     {"ph": "i", "name": "[memory]", "pid": 1, "tid": 1, "ts": 141, "args": {"Device Id": 0}},
                     {"ph": "X", "cat": "Kernel")");
    auto t = importBytes(trace, "skips.json");
    const TraceSummary s = loadSummary(*t->db, t->trace);
    QCOMPARE(s.warnings.size(), std::size_t{1});
    QCOMPARE(s.warnings[0].kind, std::string("bad_memory_event"));
    QCOMPARE(s.warnings[0].count, 2);
    QVERIFY2(QString::fromStdString(s.warnings[0].firstLocation).contains("event 7"), s.warnings[0].firstLocation.c_str());
    QCOMPARE(s.devices.at(0).peakBytes, 768); // the good events are all there
}

// Member names are read as JSON text: "\u0061" is "a" wherever it is written, and a name that
// merely contains a quote or a backslash is another member. (The parser reads names without
// escapes straight from the bytes and hands the others to simdjson.)
void TestProfiler::escapedMemberNames() {
    const QByteArray trace = R"({"traceEvents": [
 {"ph": "X", "cat": "cpu_op", "n\u0061me": "aten::add", "pid": 1, "tid": 1, "ts": 10, "dur": 100},
 {"ph": "i", "name": "[memory]", "pid": 1, "tid": 1, "ts": 20,
  "args": {"\u0044evice Type": 0, "Device Id": 0, "Addr": 256, "B\u0079tes": 4096, "Bytes\\": -1, "\"Bytes": -2}},
 {"ph": "i", "name": "[memory]", "pid": 1, "tid": 1, "ts": 30, "args": {"Device Type": 0, "Device Id": 0, "Addr": 256, "Bytes": -4096}}
]})";
    auto t = importBytes(trace, "escaped.json");
    const TraceSummary s = loadSummary(*t->db, t->trace);
    QCOMPARE(s.warnings.size(), std::size_t{0}); // both memory events have their args
    QCOMPARE(s.devices.at(0).peakBytes, 4096);   // "B\u0079tes" is Bytes; "Bytes\\" and "\"Bytes" are not
    const ProfilerOpsTable ops = queryProfilerOps(*t->db, t->trace, std::nullopt, false);
    QVERIFY(findRow(ops, "aten::add") != nullptr); // "n\u0061me" is name
    QCOMPARE(findRow(ops, "aten::add")->calls, 1);
}

void TestProfiler::memoryTimelineRaw() {
    // Pre-existing parameter 100 and unknown 50; at 1000 ns an activation of 200 is created and
    // becomes a gradient (INCREMENT_VERSION moves it); at 2000 ns the parameter is destroyed.
    const QByteArray raw = "[[-1, 1, 100, 0], [-1, 1, 50, 7], [1000, 2, 200, 4], [1000, 3, -200, 4], [1000, 3, 200, 5], "
                           "[2000, 4, -100, 0]]";
    auto t = importBytes(test::gzipped(raw), "m.raw.json.gz");
    const TraceSummary s = loadSummary(*t->db, t->trace);
    QCOMPARE(QString::fromStdString(s.trace.format), QStringLiteral("pytorch-memory-timeline"));
    QCOMPARE(s.devices.at(0).peakBytes, 350);
    QCOMPARE(s.devices.at(0).peakTimeNs, 0);
    QCOMPARE(s.devices.at(0).finalBytes, 250);
    QCOMPARE(s.devices.at(0).allocs, 3);
    QCOMPARE(s.devices.at(0).frees, 1);
    QCOMPARE(s.trace.durationNs, 1000);
    // One stacked series per category, each with its own bytes.
    std::map<std::string, std::int64_t> atStart, atEnd;
    for (const auto& x : listSeries(*t->db, t->trace)) {
        if (x.style != kSeriesStacked) continue;
        atStart[x.name] = seriesValueAt(*t->db, x.id, 0).value();
        atEnd[x.name] = seriesValueAt(*t->db, x.id, 1000).value();
    }
    QCOMPARE(atStart.size(), std::size_t{8});
    QCOMPARE(atStart["parameter"], 100);
    QCOMPARE(atStart["activation"], 0); // created, then moved on to the next version
    QCOMPARE(atStart["gradient"], 200);
    QCOMPARE(atStart["unknown"], 50);
    QCOMPARE(atEnd["parameter"], 0);
    QCOMPARE(atEnd["unknown"], 50);
}

void TestProfiler::memoryTimelineCoalesced() {
    const QByteArray json =
        "[[10, 20, 30], [[0, 5, 0, 0, 0, 0, 0, 0, 0], [0, 5, 10, 0, 0, 7, 0, 0, 0], [0, 5, 10, 0, 0, 0, 0, 0, 1]]]";
    auto t = importBytes(json, "m.json");
    const TraceSummary s = loadSummary(*t->db, t->trace);
    QCOMPARE(s.devices.at(0).peakBytes, 22);
    QCOMPARE(s.devices.at(0).peakTimeNs, 10000);
    QCOMPARE(s.devices.at(0).finalBytes, 16);
    QCOMPARE(s.trace.durationNs, 20000);
    QCOMPARE(s.devices.at(0).events, 0);
}

void TestProfiler::modelsAreValid() {
    auto t = importBytes(kModernTrace, "modern.json");
    ProfilerOpsModel ops;
    QAbstractItemModelTester opsTester(&ops, QAbstractItemModelTester::FailureReportingMode::QtTest);
    ops.setTable(queryProfilerOps(*t->db, t->trace, std::nullopt, false), false);
    QCOMPARE(ops.columnCount(), 2 + 2 * 6);
    QCOMPARE(ops.headerData(2, Qt::Horizontal).toString(), QStringLiteral("cpu Mem"));
    QCOMPARE(ops.headerData(5, Qt::Horizontal).toString(), QStringLiteral("Self cuda:0 Mem"));
    ops.setTable(queryProfilerOps(*t->db, t->trace, std::nullopt, true), true);
    QCOMPARE(ops.headerData(1, Qt::Horizontal).toString(), QStringLiteral("Input Shapes"));
    MemoryEventsModel allocations;
    QAbstractItemModelTester allocTester(&allocations, QAbstractItemModelTester::FailureReportingMode::QtTest);
    allocations.setRows(queryAllocations(*t->db, t->trace, std::nullopt, 100));
    QCOMPARE(allocations.rowCount(), 4);
    allocations.setRows({});
}

void TestProfiler::realTraces_data() {
    QTest::addColumn<QString>("fixture");
    QTest::newRow("kineto resnet50 2021 (old form)") << "pytorch-profiler/kineto_resnet50_v100_2021.pt.trace.json.gz";
    QTest::newRow("HTA 2xV100 2022 (modern form)") << "pytorch-profiler/hta_2xv100_2022.pt.trace.json.gz";
}

void TestProfiler::realTraces() {
    QFETCH(QString, fixture);
    MEMVIZ_REQUIRE_FIXTURE(path, fixture);
    if (test::python().isEmpty()) MEMVIZ_SKIP_OR_FAIL("no python3 for the oracle");
    const QJsonObject expected = runOracle("profiler_key_averages.py", {path});
    QVERIFY(!expected.isEmpty());
    QTemporaryDir dir;
    Database db(dir.filePath("s.memviz").toStdString());
    const auto trace = importFile(db, path.toStdString(), Progress{});
    const TraceSummary s = loadSummary(db, trace);
    const QJsonObject devices = expected["devices"].toObject();
    QCOMPARE(s.devices.size(), static_cast<std::size_t>(devices.size()));
    for (const DeviceSummary& d : s.devices) {
        const QJsonObject e = devices[QString::fromStdString(d.name)].toObject();
        QCOMPARE(d.events, e["events"].toInteger());
        QCOMPARE(d.allocs, e["allocs"].toInteger());
        QCOMPARE(d.frees, e["frees"].toInteger());
        QCOMPARE(d.peakBytes, e["peak_bytes"].toInteger());
        QCOMPARE(d.peakTimeNs, e["peak_time_ns"].toInteger());
        QCOMPARE(d.finalBytes, e["final_bytes"].toInteger());
    }
    const ProfilerOpsTable ops = queryProfilerOps(db, trace, std::nullopt, false);
    const QJsonObject rows = expected["ops"].toObject();
    QCOMPARE(static_cast<qsizetype>(ops.rows.size()), expected["op_count"].toInteger());
    int compared = 0;
    for (const ProfilerOpRow& r : ops.rows) {
        const QJsonObject e = rows[QString::fromStdString(r.name)].toObject();
        QCOMPARE(r.calls, e["calls"].toInteger());
        for (std::size_t d = 0; d < ops.devices.size(); ++d) {
            const QString dev = QString::fromStdString(ops.devices[d]) + ":";
            QCOMPARE(r.memory[d].bytes, e[dev + "mem"].toInteger());
            QCOMPARE(r.memory[d].selfBytes, e[dev + "self_mem"].toInteger());
            QCOMPARE(r.memory[d].allocs, e[dev + "allocs"].toInteger());
            QCOMPARE(r.memory[d].allocBytes, e[dev + "alloc_bytes"].toInteger());
            QCOMPARE(r.memory[d].selfAllocs, e[dev + "self_allocs"].toInteger());
            QCOMPARE(r.memory[d].selfAllocBytes, e[dev + "self_alloc_bytes"].toInteger());
        }
        ++compared;
    }
    QVERIFY(compared > 50);
    // Event counts of the fixture README.
    const std::int64_t memoryEvents = fixture.contains("hta") ? 28010 : 12838;
    std::int64_t events = 0;
    for (const DeviceSummary& d : s.devices) events += d.events;
    QCOMPARE(events, memoryEvents);
}

void TestProfiler::realMemoryTimeline_data() {
    QTest::addColumn<bool>("shared");
    QTest::addColumn<QString>("file");
    QTest::newRow("HTA, raw") << true << "pytorch-memory-timeline/hta_memory_timeline.raw.json.gz";
    // PyTorch 2.13's export_memory_timeline on the CPU (bench/torch2/record_profiles.py)
    QTest::newRow("PyTorch 2.13, raw") << false << "profiler-torch2/cnn_adamw_cpu.timeline.raw.json.gz";
    QTest::newRow("PyTorch 2.13, coalesced") << false << "profiler-torch2/cnn_adamw_cpu.timeline.json";
}

void TestProfiler::realMemoryTimeline() {
    QFETCH(bool, shared);
    QFETCH(QString, file);
    QString path = QStringLiteral(MEMVIZ_TEST_DATA) + "/" + file;
    if (shared) {
        MEMVIZ_REQUIRE_FIXTURE(fixture, file);
        path = fixture;
    }
    if (test::python().isEmpty()) MEMVIZ_SKIP_OR_FAIL("no python3 for the oracle");
    const QJsonObject e = runOracle("memory_timeline.py", {path});
    QTemporaryDir dir;
    Database db(dir.filePath("s.memviz").toStdString());
    const auto trace = importFile(db, path.toStdString(), Progress{});
    const DeviceSummary d = loadSummary(db, trace).devices.at(0);
    QCOMPARE(d.peakBytes, e["peak_bytes"].toInteger());
    QCOMPARE(d.peakTimeNs, e["peak_time_ns"].toInteger());
    QCOMPARE(d.finalBytes, e["final_bytes"].toInteger());
    QCOMPARE(d.allocs, e["allocs"].toInteger());
    QCOMPARE(d.frees, e["frees"].toInteger());
    // The breakdown at the peak, from the stacked series.
    const QJsonObject breakdown = e["breakdown"].toObject();
    for (const auto& x : listSeries(db, trace)) {
        if (x.style != kSeriesStacked) continue;
        QCOMPARE(seriesValueAt(db, x.id, d.peakTimeNs).value(), breakdown[QString::fromStdString(x.name)].toInteger());
    }
}

// PyTorch 2.13's own profiler on the CPU (bench/torch2/record_profiles.py: three AdamW steps of
// a small CNN, profile_memory, record_shapes, with_stack). Every operator's calls, Mem and Self
// Mem equal PyTorch's key_averages() of the same run, written beside the trace. Where the
// exported trace itself holds another number of an operator's events than key_averages counted
// (the file's oracle, profiler_key_averages.py, says so: aten::div and aten::div_, whose
// scalar overloads call a same-named op), memviz shows what the file holds, as the oracle does.
void TestProfiler::torch2Trace() {
    const QString dir = QStringLiteral(MEMVIZ_TEST_DATA) + "/profiler-torch2/";
    const QString path = dir + "cnn_adamw_cpu.pt.trace.json.gz";
    if (test::python().isEmpty()) MEMVIZ_SKIP_OR_FAIL("no python3 for the oracle");
    const QJsonObject oracle = runOracle("profiler_key_averages.py", {path});
    QVERIFY(!oracle.isEmpty());
    const QJsonObject torch =
        QJsonDocument::fromJson(test::readFile(dir + "cnn_adamw_cpu.key_averages.json")).object()["ops"].toObject();
    QVERIFY(torch.size() > 300);
    QTemporaryDir tmp;
    Database db(tmp.filePath("s.memviz").toStdString());
    const auto trace = importFile(db, path.toStdString(), Progress{});
    const TraceSummary s = loadSummary(db, trace);
    QCOMPARE(s.devices.size(), std::size_t{1});
    const QJsonObject cpu = oracle["devices"].toObject()["cpu"].toObject();
    QCOMPARE(s.devices[0].peakBytes, cpu["peak_bytes"].toInteger());
    QCOMPARE(s.devices[0].peakTimeNs, cpu["peak_time_ns"].toInteger());
    QCOMPARE(s.devices[0].finalBytes, cpu["final_bytes"].toInteger());
    QCOMPARE(s.devices[0].allocs, cpu["allocs"].toInteger());
    QCOMPARE(s.devices[0].frees, cpu["frees"].toInteger());
    const ProfilerOpsTable ops = queryProfilerOps(db, trace, std::nullopt, false);
    const int d = deviceIndex(ops, "cpu");
    QVERIFY(d >= 0);
    QCOMPARE(static_cast<qsizetype>(ops.rows.size()), torch.size());
    const QJsonObject fileOps = oracle["ops"].toObject();
    int asTorch = 0;
    QStringList asFile;
    for (const ProfilerOpRow& r : ops.rows) {
        const QString name = QString::fromStdString(r.name);
        QVERIFY2(torch.contains(name), qPrintable(name));
        const QJsonObject t = torch[name].toObject(), f = fileOps[name].toObject();
        if (f["calls"].toInteger() != t["calls"].toInteger()) {
            asFile << name;
            QCOMPARE(r.calls, f["calls"].toInteger());
            QCOMPARE(r.memory[d].bytes, f["cpu:mem"].toInteger());
            QCOMPARE(r.memory[d].selfBytes, f["cpu:self_mem"].toInteger());
            continue;
        }
        QCOMPARE(r.calls, t["calls"].toInteger());
        QCOMPARE(r.memory[d].bytes, t["cpu_memory_usage"].toInteger());
        QCOMPARE(r.memory[d].selfBytes, t["self_cpu_memory_usage"].toInteger());
        ++asTorch;
    }
    qInfo("%d operators as PyTorch's key_averages, %d as the file holds them (%s)", asTorch, int(asFile.size()),
          qPrintable(asFile.join(", ")));
    QVERIFY(asFile.size() <= 2);
}

QTEST_GUILESS_MAIN(TestProfiler)
#include "tst_profiler.moc"

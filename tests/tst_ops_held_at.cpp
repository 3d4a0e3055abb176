// SPDX-License-Identifier: MIT
// What an operator holds at the peak (issue 55, item 5): the bytes alive then that it allocated,
// paired by address, never the net of its calls (which counts frees where they happen: an
// operator whose blocks other operators free can "hold" more than the peak itself). By hand: an
// allocation log whose frees are recorded under another operator, and `memviz ranks` over two
// of them; against the standard-library oracle: the bundled allocation log of a real training
// step; a real PyTorch 2.13 profiler trace with addresses; and probe streams written by hand,
// with the storages op mode names (paired) and without (named for what it is: a net of calls).
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QtTest>

#include <map>

#include "LiveTestSupport.h"
#include "TestSupport.h"
#include "core/Progress.h"
#include "formats/FormatRegistry.h"
#include "formats/live/LiveFinalizer.h"
#include "formats/live/LiveWriter.h"
#include "formats/live/ProbeStreamWriter.h"
#include "store/Database.h"
#include "store/OpsHeldAt.h"
#include "store/OpsQuery.h"
#include "store/TraceQueries.h"

using namespace memviz;
using namespace memviz::test;

namespace {

// Rank 0: weights 1000 B at 0; mm allocates 4000 three times (10, 30, 50), relu frees the
// first two (20, 40) and the third at 70; relu allocates 500 at 60. Live bytes 1000, 5000,
// 1000, 5000, 1000, 5000, 5500, 1500: peak 5500 at 60. Then weights hold 1000, mm 4000 (its
// block of 50), relu 500. The net of the calls up to the peak gives mm 12000 (more than the
// peak) and relu -7500.
const QByteArray kRank0 = "time_ns,action,address,size,op\n"
                          "0,alloc,0x10,1000,weights\n"
                          "10,alloc,0x20,4000,mm\n"
                          "20,free,0x20,,relu\n"
                          "30,alloc,0x30,4000,mm\n"
                          "40,free,0x30,,relu\n"
                          "50,alloc,0x40,4000,mm\n"
                          "60,alloc,0x50,500,relu\n"
                          "70,free,0x40,,relu\n";
// Rank 1: the same with mm's last block 6000: peak 7500 at 60, mm 6000 then.
const QByteArray kRank1 = "time_ns,action,address,size,op\n"
                          "0,alloc,0x10,1000,weights\n"
                          "10,alloc,0x20,4000,mm\n"
                          "20,free,0x20,,relu\n"
                          "30,alloc,0x30,4000,mm\n"
                          "40,free,0x30,,relu\n"
                          "50,alloc,0x40,6000,mm\n"
                          "60,alloc,0x50,500,relu\n"
                          "70,free,0x40,,relu\n";

std::map<std::string, std::int64_t> asMap(const OpsHeldAt& h) {
    std::map<std::string, std::int64_t> m;
    for (const auto& [op, bytes] : h.ops)
        if (bytes != 0) m[op] = bytes;
    return m;
}

std::map<std::string, std::int64_t> asMap(const QJsonObject& o) {
    std::map<std::string, std::int64_t> m;
    for (auto it = o.begin(); it != o.end(); ++it)
        if (it.value().toInteger() != 0) m[it.key().toStdString()] = it.value().toInteger();
    return m;
}

// A probe stream by hand. mm makes storage 1 (4000 B, ends at 1500), relu storage 2 (3000,
// 2500), storage 1 goes at 2600; mm makes storage 3 (4000, 3500), which goes at 3600; add
// makes storage 4 (5000, 4500). The allocated series: 1000, 5000, 5000, 8000, 4000, 8000,
// 4000, 9000: peak 9000 at 4500, when relu holds 3000 and add 5000; mm holds nothing. The net
// of the calls says mm 8000 (its two calls grew the heap by 4000 each; the frees happened
// between operators).
const char* const kStream[] = {
    R"({"type":"hello","protocol":"memviz-probe","version":1,"pid":7,"argv":["t.py"],"mode":"op"})",
    R"({"type":"op","t":1000,"dur":500,"kind":"op","name":"aten::mm","phase":"forward","step":0,"mem":{"cpu":{"before":1000,"after":5000}},"outs":[[1,"cpu",4000]]})",
    R"({"type":"op","t":2000,"dur":500,"kind":"op","name":"aten::relu","phase":"forward","step":0,"mem":{"cpu":{"before":5000,"after":8000}},"outs":[[2,"cpu",3000]]})",
    R"({"type":"free","t":2600,"id":1})",
    R"({"type":"op","t":3000,"dur":500,"kind":"op","name":"aten::mm","phase":"forward","step":0,"mem":{"cpu":{"before":4000,"after":8000}},"outs":[[3,"cpu",4000]]})",
    R"({"type":"free","t":3600,"id":3})",
    R"({"type":"op","t":4000,"dur":500,"kind":"op","name":"aten::add","phase":"forward","step":0,"mem":{"cpu":{"before":4000,"after":9000}},"outs":[[4,"cpu",5000]]})",
    R"({"type":"bye","t":5000,"exit_code":0})",
};

std::int64_t recordStream(Database& db, bool withStorages) {
    std::int64_t id = 0;
    {
        LiveWriter w(db, probeSpec());
        ProbeStreamWriter stream(w);
        for (const char* line : kStream) {
            std::string l = line;
            if (!withStorages) {
                if (l.find(R"("type":"free")") != std::string::npos) continue;
                if (const auto at = l.find(R"(,"outs")"); at != std::string::npos) l = l.substr(0, at) + "}";
            }
            stream.applyLine(l, 0);
        }
        w.setEnd({"exited", 0, std::nullopt, "done"});
        id = w.traceId();
    }
    finalizeLiveRecording(db, id);
    return id;
}

} // namespace

class TestOpsHeldAt : public QObject {
    Q_OBJECT
private slots:
    void freesRecordedUnderAnotherOperator();
    void ranksNameWhatTheOperatorHolds();
    void bundledSampleAgainstOracle();
    void profilerTraceWithAddresses();
    void probeStreamWithStorages();
    void probeStreamWithoutStoragesIsANet();
};

void TestOpsHeldAt::freesRecordedUnderAnotherOperator() {
    QTemporaryDir dir;
    const QString log = writeFile(dir, "rank0.csv", kRank0);
    Database db(dir.filePath("s.memviz").toStdString());
    const auto id = importFile(db, log.toStdString(), Progress{});
    const TraceSummary s = loadSummary(db, id);
    QCOMPARE(s.devices.at(0).peakBytes, std::int64_t(5500));
    QCOMPARE(s.devices.at(0).peakTimeNs, std::int64_t(60));
    const OpsHeldAt held = opsHeldAt(db, id, s.devices[0].device, 60);
    QVERIFY(held.paired);
    const std::map<std::string, std::int64_t> expected{{"weights", 1000}, {"mm", 4000}, {"relu", 500}};
    QCOMPARE(asMap(held), expected);
    QCOMPARE(held.ops.front().first, std::string("mm"));
    // The oracle agrees.
    const QString py = python();
    if (py.isEmpty()) MEMVIZ_SKIP_OR_FAIL("no python3 for the oracle");
    const auto oracle = runProcess(py, {test::oracle("alloclog_summary.py"), log});
    QVERIFY2(oracle.exitCode == 0, oracle.err.constData());
    const QJsonObject dev = QJsonDocument::fromJson(oracle.out).object()["devices"].toArray()[0].toObject();
    QCOMPARE(asMap(dev["ops_at_peak"].toObject()), expected);
}

void TestOpsHeldAt::ranksNameWhatTheOperatorHolds() {
    QTemporaryDir dir;
    QDir().mkpath(dir.filePath("job"));
    writeFile(dir, "job/rank0.csv", kRank0);
    writeFile(dir, "job/rank1.csv", kRank1);
    const auto r = runMemviz({"ranks", dir.filePath("job"), "--json"});
    QVERIFY2(r.exitCode == 0, r.err.constData());
    const QJsonObject o = QJsonDocument::fromJson(r.out).object();
    const QJsonArray ranks = o["ranks"].toArray();
    QCOMPARE(ranks.size(), 2);
    const qint64 peaks[] = {5500, 7500}, mm[] = {4000, 6000};
    for (int i = 0; i < 2; ++i) {
        const QJsonObject row = ranks[i].toObject();
        QCOMPARE(row["peak_bytes"].toInteger(), peaks[i]);
        QCOMPARE(row["top_op"].toString(), QStringLiteral("mm"));
        QCOMPARE(row["top_op_bytes"].toInteger(), mm[i]);
        QVERIFY(row["top_op_bytes"].toInteger() <= row["peak_bytes"].toInteger());
        QCOMPARE(row["top_op_figure"].toString(), QStringLiteral("alive_at_peak"));
    }
    const QJsonObject im = o["imbalance"].toObject();
    QCOMPARE(im["op"].toString(), QStringLiteral("mm"));
    QCOMPARE(im["op_delta_bytes"].toInteger(), 2000);
    QCOMPARE(im["op_figure"].toString(), QStringLiteral("alive_at_peak"));
    // The text says nothing about nets where the figures are paired.
    const auto text = runMemviz({"ranks", dir.filePath("job")});
    QVERIFY2(text.exitCode == 0, text.err.constData());
    QVERIFY2(text.out.contains("mm (3.9 KiB)") || text.out.contains("mm (4.0 KB)") || text.out.contains("mm (3.91 KiB)"),
             text.out.constData());
    QVERIFY(!text.out.contains("net of"));
}

void TestOpsHeldAt::bundledSampleAgainstOracle() {
    const QString py = python();
    if (py.isEmpty()) MEMVIZ_SKIP_OR_FAIL("no python3 for the oracle");
    const QString sample = QStringLiteral(MEMVIZ_SOURCE_DIR) + "/resources/sample/sample_training_step.csv.gz";
    const auto oracle = runProcess(py, {test::oracle("alloclog_summary.py"), sample});
    QVERIFY2(oracle.exitCode == 0, oracle.err.constData());
    const QJsonArray devices = QJsonDocument::fromJson(oracle.out).object()["devices"].toArray();
    QTemporaryDir dir;
    Database db(dir.filePath("s.memviz").toStdString());
    const auto id = importFile(db, sample.toStdString(), Progress{});
    const TraceSummary s = loadSummary(db, id);
    QCOMPARE(s.devices.size(), std::size_t(devices.size()));
    for (std::size_t i = 0; i < s.devices.size(); ++i) {
        const DeviceSummary& d = s.devices[i];
        const OpsHeldAt held = opsHeldAt(db, id, d.device, d.peakTimeNs);
        QVERIFY(held.paired);
        const auto expected = asMap(devices[qsizetype(i)].toObject()["ops_at_peak"].toObject());
        QVERIFY(expected.size() > 3);
        QCOMPARE(asMap(held), expected);
        std::int64_t sum = 0;
        for (const auto& [op, bytes] : held.ops) {
            QVERIFY(bytes <= d.peakBytes);
            sum += bytes;
        }
        QCOMPARE(sum, d.peakBytes); // every byte at the peak has its allocation in the log
    }
}

void TestOpsHeldAt::profilerTraceWithAddresses() {
    // Three AdamW steps of a small CNN, PyTorch 2.13's profiler (profile_memory): every
    // [memory] event has its address. Frees happen in whichever operator runs then.
    const QString trace = QStringLiteral(MEMVIZ_TEST_DATA) + "/profiler-torch2/cnn_adamw_cpu.pt.trace.json.gz";
    QTemporaryDir dir;
    Database db(dir.filePath("p.memviz").toStdString());
    const auto id = importFile(db, trace.toStdString(), Progress{});
    const TraceSummary s = loadSummary(db, id);
    const DeviceSummary& d = s.devices.at(0);
    const OpsHeldAt held = opsHeldAt(db, id, d.device, d.peakTimeNs);
    QVERIFY(held.paired);
    std::int64_t sum = 0;
    for (const auto& [op, bytes] : held.ops) {
        QVERIFY2(bytes >= 0, op.c_str());
        QVERIFY2(bytes <= d.peakBytes, op.c_str());
        sum += bytes;
    }
    QVERIFY(sum <= d.peakBytes);
    // The net of the calls up to the peak, for comparison (what the figure was before).
    OpsFilter f;
    f.device = d.device;
    f.range = TimeRange{0, d.peakTimeNs};
    std::int64_t topNet = 0;
    std::string topNetOp;
    for (const OpRow& r : queryOps(db, id, f))
        if (r.name != kNoOpName && r.netBytes() > topNet) {
            topNet = r.netBytes();
            topNetOp = r.name;
        }
    qInfo("peak %lld B; held at the peak: %s %lld B (paired); net of calls: %s %lld B", static_cast<long long>(d.peakBytes),
          held.ops.front().first.c_str(), static_cast<long long>(held.ops.front().second), topNetOp.c_str(),
          static_cast<long long>(topNet));
}

void TestOpsHeldAt::probeStreamWithStorages() {
    QTemporaryDir dir;
    Database db(dir.filePath("p.memviz").toStdString());
    const auto id = recordStream(db, true);
    const TraceSummary s = loadSummary(db, id);
    QCOMPARE(s.devices.at(0).peakBytes, std::int64_t(9000));
    QCOMPARE(s.devices.at(0).peakTimeNs, std::int64_t(4500));
    const OpsHeldAt held = opsHeldAt(db, id, s.devices[0].device, 4500);
    QVERIFY(held.paired);
    QCOMPARE(asMap(held), (std::map<std::string, std::int64_t>{{"aten::add", 5000}, {"aten::relu", 3000}}));
    // The operator table: what each made and what of it was released, under the operator that made it.
    std::map<std::string, QString> rows;
    for (const OpRow& r : queryOps(db, id, {}))
        rows[r.name] = QStringLiteral("a%1 f%2 +%3 -%4").arg(r.allocs).arg(r.frees).arg(r.bytesAllocated).arg(r.bytesFreed);
    QCOMPARE(rows, (std::map<std::string, QString>{{"aten::mm", "a2 f2 +8000 -8000"},
                                                   {"aten::relu", "a1 f0 +3000 -0"},
                                                   {"aten::add", "a1 f0 +5000 -0"}}));
    // The oracle reads the same tables independently.
    const QString py = python();
    if (py.isEmpty()) MEMVIZ_SKIP_OR_FAIL("no python3 for the oracle");
    const auto oracle = runProcess(py, {test::oracle("probe_ops_at_peak.py"), dir.filePath("p.memviz"), QString::number(id), "cpu"});
    QVERIFY2(oracle.exitCode == 0, oracle.err.constData());
    const QJsonObject o = QJsonDocument::fromJson(oracle.out).object();
    QCOMPARE(o["peak_bytes"].toInteger(), 9000);
    QCOMPARE(o["peak_time_ns"].toInteger(), 4500);
    QCOMPARE(asMap(o["ops"].toObject()), asMap(held));
}

void TestOpsHeldAt::probeStreamWithoutStoragesIsANet() {
    QTemporaryDir dir;
    Database db(dir.filePath("p.memviz").toStdString());
    const auto id = recordStream(db, false);
    const TraceSummary s = loadSummary(db, id);
    QCOMPARE(s.devices.at(0).peakBytes, std::int64_t(9000));
    const OpsHeldAt held = opsHeldAt(db, id, s.devices[0].device, 4500);
    QVERIFY(!held.paired);
    QCOMPARE(held.ops.front(), (std::pair<std::string, std::int64_t>{"aten::mm", 8000}));
}

QTEST_GUILESS_MAIN(TestOpsHeldAt)
#include "tst_ops_held_at.moc"

// SPDX-License-Identifier: MIT
// Live recordings without live processes: the /proc parsers on known text, the probe
// protocol, the relational live tables, their queries, finalisation and recovery.
#include <QtTest>

#include <sys/wait.h>
#include <unistd.h>

#include "LiveTestSupport.h"
#include "TestSupport.h"
#include "core/Errors.h"
#include "formats/live/Launcher.h"
#include "formats/live/LiveFinalizer.h"
#include "formats/live/LiveQueries.h"
#include "formats/live/LiveWriter.h"
#include "formats/live/ProbeProtocol.h"
#include "formats/live/ProbeSocket.h"
#include "formats/live/ProbeStreamWriter.h"
#include "formats/live/ProcFiles.h"
#include "formats/live/ProcessTable.h"
#include "store/Database.h"
#include "store/OpsQuery.h"
#include "store/SeriesQuery.h"
#include "store/TraceQueries.h"

using namespace memviz;
using memviz::test::probeSpec;

namespace {

constexpr std::int64_t kMiB = 1024 * 1024;

// A probe stream written by hand: two forward ops, a backward op, an optimizer op, phases,
// steps and a mark. Bytes are chosen so every figure below can be checked by hand.
const char* const kStream[] = {
    R"({"type":"hello","protocol":"memviz-probe","version":1,"pid":4242,"argv":["train.py","--epochs","1"],"python":"3.11.2","torch":"1.13.1","mode":"op","t0_wall_ns":1700000000000000000})",
    R"({"type":"phase","t":1000,"phase":"forward","step":0})",
    R"({"type":"op","t":1000,"dur":500,"kind":"op","name":"aten::mm","phase":"forward","step":0,"mem":{"cpu":{"before":1000,"after":5000}}})",
    R"({"type":"op","t":2000,"dur":500,"kind":"op","name":"aten::relu","phase":"forward","step":0,"mem":{"cpu":{"before":5000,"after":7000}}})",
    R"({"type":"phase","t":3000,"phase":"backward","step":0})",
    R"({"type":"op","t":3000,"dur":1000,"kind":"op","name":"aten::mm","phase":"backward","step":0,"mem":{"cpu":{"before":7000,"after":4000}}})",
    R"({"type":"mark","t":3500,"label":"halfway"})",
    R"({"type":"phase","t":5000,"phase":"optimizer","step":0})",
    R"({"type":"op","t":5000,"dur":100,"kind":"op","name":"aten::add_","phase":"optimizer","step":0,"mem":{"cpu":{"before":4000,"after":4000}}})",
    R"({"type":"step","t":6000,"step":1})",
    R"({"type":"future_record","t":6100,"whatever":[1,2]})",
    R"({"type":"bye","t":7000,"exit_code":0})",
};

std::int64_t recordStream(Database& db) {
    LiveWriter w(db, probeSpec());
    ProbeStreamWriter stream(w);
    for (const char* line : kStream) stream.applyLine(line, 0);
    w.setEnd({"exited", 0, std::nullopt, "done"});
    return w.traceId();
}

} // namespace

class TestLiveStore : public QObject {
    Q_OBJECT
private slots:
    void procStatusParses();
    void smapsRollupParses();
    void procStatNamesWithSpacesAndParens();
    void descendantsAreTransitive();
    void probeParserReadsEveryRecord();
    void probeParserRejects_data();
    void probeParserRejects();
    void probeAddresses();
    void probeStreamIsStoredAndFinalised();
    void liveOpsMatchFinalisedOpStats();
    void gapsBetweenOperators();
    void phasesAndMarkers();
    void newerProtocolIsRefused();
    void commitsAreVisibleToOtherConnections();
    void liveSeriesQueryBinsLongRanges();
    void interruptedRecordingIsRecovered();
    void launcherErrorsAndExitStatus();
};

void TestLiveStore::procStatusParses() {
    const ProcStatus s = parseProcStatus("Name:\tmy prog\nUmask:\t0022\nState:\tS (sleeping)\nUid:\t1000\t1000\t1000\t1000\n"
                                         "VmHWM:\t  204800 kB\nVmRSS:\t  102400 kB\nRssAnon:\t   81920 kB\n"
                                         "RssFile:\t   20000 kB\nRssShmem:\t     480 kB\nVmSwap:\t      12 kB\n");
    QCOMPARE(QString::fromStdString(s.name), QStringLiteral("my prog"));
    QCOMPARE(s.state, 'S');
    QCOMPARE(s.uid, 1000);
    QVERIFY(s.hasRss);
    QCOMPARE(s.rss, 102400 * 1024LL);
    QCOMPARE(s.hwm, 204800 * 1024LL);
    QCOMPARE(s.rssAnon, 81920 * 1024LL);
    QCOMPARE(s.rssFile, 20000 * 1024LL);
    QCOMPARE(s.rssShmem, 480 * 1024LL);
    QCOMPARE(s.swap, 12 * 1024LL);
    // A kernel thread: no Vm lines at all.
    QVERIFY(!parseProcStatus("Name:\tkworker/0:1\nState:\tI (idle)\n").hasRss);
    // This very process, read from /proc.
    const ProcStatus self = readProcStatus(static_cast<int>(::getpid()));
    QVERIFY(self.hasRss);
    QVERIFY(self.rss > 0 && self.hwm >= self.rss);
}

void TestLiveStore::smapsRollupParses() {
    const ProcRollup r = parseSmapsRollup("55d0-7ffd ---p 00000000 00:00 0  [rollup]\nRss:  1724 kB\nPss:  262 kB\n"
                                          "Pss_Anon:  116 kB\nShared_Clean:  1568 kB\nPrivate_Clean:  40 kB\n"
                                          "Private_Dirty:  116 kB\nSwap:  8 kB\nSwapPss:  8 kB\n");
    QCOMPARE(r.pss, 262 * 1024LL); // not Pss_Anon
    QCOMPARE(r.privateBytes, (40 + 116) * 1024LL);
    QCOMPARE(r.swap, 8 * 1024LL); // not SwapPss
}

void TestLiveStore::procStatNamesWithSpacesAndParens() {
    ProcessEntry e;
    QVERIFY(parseProcStat("4321 (my (odd) name) S 17 4321 4321 0 -1 4194560 120 0 0 0", e));
    QCOMPARE(e.pid, 4321);
    QCOMPARE(e.ppid, 17);
    QCOMPARE(QString::fromStdString(e.name), QStringLiteral("my (odd) name"));
    QVERIFY(!e.kernelThread);
    QVERIFY(parseProcStat("2 (kthreadd) S 0 0 0 0 -1 2129984 0 0 0 0", e));
    QVERIFY(e.kernelThread); // PF_KTHREAD
    QVERIFY(!parseProcStat("garbage", e));
    // This process is listed, with its command line.
    const auto all = listProcesses(true);
    const auto me = std::find_if(all.begin(), all.end(), [](const ProcessEntry& p) { return p.pid == ::getpid(); });
    QVERIFY(me != all.end());
    QVERIFY(QString::fromStdString(me->commandLine).contains("tst_live_store"));
    QVERIFY(me->rssBytes > 0);
    QCOMPARE(me->ppid, static_cast<int>(::getppid()));
}

void TestLiveStore::descendantsAreTransitive() {
    std::vector<ProcessEntry> table(6);
    const int links[][2] = {{10, 1}, {11, 10}, {12, 11}, {13, 10}, {20, 1}, {21, 20}};
    for (std::size_t i = 0; i < 6; ++i) {
        table[i].pid = links[i][0];
        table[i].ppid = links[i][1];
    }
    auto d = descendantsOf(10, table);
    std::sort(d.begin(), d.end());
    QCOMPARE(d, (std::vector<int>{11, 12, 13}));
    QVERIFY(descendantsOf(12, table).empty());
}

void TestLiveStore::probeParserReadsEveryRecord() {
    ProbeParser p;
    const ProbeRecord hello = p.parse(kStream[0]);
    QCOMPARE(hello.type, ProbeRecord::Type::Hello);
    QCOMPARE(hello.version, 1);
    QCOMPARE(hello.pid, 4242);
    QCOMPARE(hello.argv.size(), std::size_t(3));
    QCOMPARE(QString::fromStdString(hello.torch), QStringLiteral("1.13.1"));
    QCOMPARE(*hello.t0WallNs, 1700000000000000000LL);
    const ProbeRecord op = p.parse(kStream[2]);
    QCOMPARE(op.type, ProbeRecord::Type::Op);
    QCOMPARE(op.t, 1000);
    QCOMPARE(op.dur, 500);
    QCOMPARE(QString::fromStdString(op.name), QStringLiteral("aten::mm"));
    QCOMPARE(QString::fromStdString(op.phase), QStringLiteral("forward"));
    QCOMPARE(op.memory.size(), std::size_t(1));
    QCOMPARE(*op.memory[0].before, 1000);
    QCOMPARE(*op.memory[0].after, 5000);
    const ProbeRecord cuda = p.parse(
        R"({"type":"mem","t":9,"mem":{"cpu":{"allocated":5},"cuda:1":{"allocated":1024,"reserved":2097152}},"extra":true})");
    QCOMPARE(cuda.type, ProbeRecord::Type::Mem);
    QCOMPARE(cuda.memory.size(), std::size_t(2));
    QCOMPARE(QString::fromStdString(cuda.memory[1].device), QStringLiteral("cuda:1"));
    QCOMPARE(*cuda.memory[1].reserved, 2097152);
    QCOMPARE(p.parse(kStream[10]).type, ProbeRecord::Type::Unknown);
    const ProbeRecord bye = p.parse(R"({"type":"bye","t":5,"exit_code":null,"error":"KeyboardInterrupt"})");
    QVERIFY(!bye.exitCode);
    QCOMPARE(QString::fromStdString(bye.error), QStringLiteral("KeyboardInterrupt"));
}

void TestLiveStore::probeParserRejects_data() {
    QTest::addColumn<QByteArray>("line");
    QTest::addColumn<QString>("message");
    QTest::newRow("not json") << QByteArray("{nope") << "JSON";
    QTest::newRow("array") << QByteArray("[1,2]") << "object";
    QTest::newRow("no type") << QByteArray(R"({"t":1})") << "type";
    QTest::newRow("no time") << QByteArray(R"({"type":"op","name":"x"})") << "without \"t\"";
    QTest::newRow("op without name") << QByteArray(R"({"type":"op","t":1})") << "name";
    QTest::newRow("string time") << QByteArray(R"({"type":"mark","t":"1","label":"x"})") << "\"t\" must be an integer";
    QTest::newRow("negative bytes") << QByteArray(R"({"type":"mem","t":1,"mem":{"cpu":{"allocated":-5}}})") << "negative";
    QTest::newRow("foreign hello") << QByteArray(R"({"type":"hello","protocol":"other","version":1})")
                                   << "not from a memviz probe";
    QTest::newRow("trailing") << QByteArray(R"({"type":"mark","t":1,"label":"x"} {})") << "after";
}

void TestLiveStore::probeParserRejects() {
    QFETCH(QByteArray, line);
    QFETCH(QString, message);
    ProbeParser p;
    try {
        p.parse(line.toStdString());
        QFAIL("accepted");
    } catch (const ProbeProtocolError& e) {
        QVERIFY2(QString::fromUtf8(e.what()).contains(message), e.what());
    }
}

void TestLiveStore::probeAddresses() {
    QCOMPARE(QString::fromStdString(parseProbeAddress("unix:/tmp/x.sock").path), QStringLiteral("/tmp/x.sock"));
    QCOMPARE(parseProbeAddress("/run/p.sock").kind, ProbeAddress::Kind::Unix);
    const ProbeAddress tcp = parseProbeAddress("127.0.0.1:47011");
    QCOMPARE(tcp.kind, ProbeAddress::Kind::Tcp);
    QCOMPARE(tcp.port, 47011);
    QCOMPARE(parseProbeAddress("tcp:localhost:5").port, 5);
    QCOMPARE(parseProbeAddress(":0").port, 0);
    QVERIFY_THROWS_EXCEPTION(std::invalid_argument, parseProbeAddress("10.0.0.1:5000")); // local only
    QVERIFY_THROWS_EXCEPTION(std::invalid_argument, parseProbeAddress("127.0.0.1:99999"));
    QVERIFY_THROWS_EXCEPTION(std::invalid_argument, parseProbeAddress("nonsense"));
    QVERIFY(QString::fromStdString(defaultProbeAddress().text()).startsWith("unix:"));
    // Port 0: the listener reports the port it got.
    ProbeListener l(parseProbeAddress("127.0.0.1:0"));
    QVERIFY(l.address().port > 0);
}

void TestLiveStore::probeStreamIsStoredAndFinalised() {
    QTemporaryDir dir;
    Database db(dir.filePath("p.memviz").toStdString());
    const std::int64_t id = recordStream(db);
    const auto rec = findLiveRecording(db, id);
    QVERIFY(rec);
    QCOMPARE(rec->targetPid, 4242);
    QCOMPARE(QString::fromStdString(rec->command), QStringLiteral("train.py --epochs 1"));
    QVERIFY(rec->recording());
    // Before finalisation: relational rows only, readable live.
    QCOMPARE(liveSampleCount(db, id), 8); // before and after of four ops, one device
    QCOMPARE(liveExtent(db, id), 6000);   // the step mark; the bye carries no sample
    QVERIFY(listSeries(db, id).empty());

    QVERIFY(finalizeLiveRecording(db, id));
    QVERIFY(!finalizeLiveRecording(db, id)); // once only
    const TraceSummary s = loadSummary(db, id);
    QCOMPARE(QString::fromStdString(s.trace.format), QString(kLiveProbeFormat));
    QCOMPARE(s.trace.epochNs.value_or(0), 1700000000000000000LL);
    QCOMPARE(s.devices.size(), std::size_t(1));
    const DeviceSummary& cpu = s.devices[0];
    QCOMPARE(QString::fromStdString(cpu.name), QStringLiteral("cpu"));
    QCOMPARE(cpu.peakBytes, 7000); // after aten::relu
    QCOMPARE(cpu.peakTimeNs, 2500);
    QCOMPARE(cpu.finalBytes, 4000);
    QCOMPARE(cpu.allocs, 2); // mm +4000, relu +2000
    QCOMPARE(cpu.frees, 1);  // backward mm -3000
    QCOMPARE(s.trace.durationNs, 6000);
    const auto series = listSeries(db, id);
    QCOMPARE(series.size(), std::size_t(1));
    QCOMPARE(series[0].pointCount, 8);
    const auto meta = loadMetadata(db, id);
    QVERIFY(std::find(meta.begin(), meta.end(), std::make_pair(std::string("torch_version"), std::string("1.13.1"))) !=
            meta.end());
    QCOMPARE(QString::fromStdString(findLiveRecording(db, id)->state), QStringLiteral("finalized"));
}

void TestLiveStore::liveOpsMatchFinalisedOpStats() {
    QTemporaryDir dir;
    Database db(dir.filePath("p.memviz").toStdString());
    const std::int64_t id = recordStream(db);
    const std::vector<OpRow> live = queryLiveOps(db, id, {});
    // By hand: aten::mm +4000 (forward) and -3000 (backward); aten::relu +2000; add_ no change.
    QCOMPARE(live.size(), std::size_t(2));
    QCOMPARE(QString::fromStdString(live[0].name), QStringLiteral("aten::mm"));
    QCOMPARE(live[0].allocs, 1);
    QCOMPARE(live[0].bytesAllocated, 4000);
    QCOMPARE(live[0].frees, 1);
    QCOMPARE(live[0].bytesFreed, 3000);
    QCOMPARE(live[0].largestAlloc, 4000);
    QCOMPARE(QString::fromStdString(live[1].name), QStringLiteral("aten::relu"));
    QCOMPARE(live[1].bytesAllocated, 2000);
    OpsFilter window;
    window.range = TimeRange{2000, 3000};
    QCOMPARE(queryLiveOps(db, id, window).size(), std::size_t(1)); // relu ends at 2500
    QVERIFY(finalizeLiveRecording(db, id));
    const std::vector<OpRow> stored = queryOps(db, id, {});
    QCOMPARE(stored.size(), live.size());
    for (std::size_t i = 0; i < live.size(); ++i) {
        QCOMPARE(stored[i].name, live[i].name);
        QCOMPARE(stored[i].allocs, live[i].allocs);
        QCOMPARE(stored[i].frees, live[i].frees);
        QCOMPARE(stored[i].bytesAllocated, live[i].bytesAllocated);
        QCOMPARE(stored[i].bytesFreed, live[i].bytesFreed);
        QCOMPARE(stored[i].largestAlloc, live[i].largestAlloc);
    }
    const auto windowed = queryOps(db, id, window);
    QCOMPARE(windowed.size(), std::size_t(1));
    QCOMPARE(QString::fromStdString(windowed[0].name), QStringLiteral("aten::relu"));
    QCOMPARE(QString::fromStdString(liveOpAt(db, id, 3200)), QStringLiteral("aten::mm (backward, step 0)"));
    QVERIFY(liveOpAt(db, id, 2700).empty());
}

void TestLiveStore::gapsBetweenOperators() {
    QTemporaryDir dir;
    Database db(dir.filePath("g.memviz").toStdString());
    LiveWriter w(db, probeSpec());
    ProbeStreamWriter stream(w);
    // Between the two ops, 3000 bytes were freed (a tensor's last reference dropped).
    stream.applyLine(
        R"({"type":"op","t":0,"dur":10,"name":"aten::empty","phase":"forward","mem":{"cpu":{"before":100,"after":4100}}})", 0);
    stream.applyLine(
        R"({"type":"op","t":50,"dur":10,"name":"aten::add","phase":"forward","mem":{"cpu":{"before":1100,"after":2100}}})", 0);
    w.commit();
    const auto rows = queryLiveOps(db, w.traceId(), {});
    QCOMPARE(rows.size(), std::size_t(3));
    std::int64_t net = 0;
    for (const OpRow& r : rows) net += r.netBytes();
    QCOMPARE(net, 2100 - 100); // the operators' net bytes add up to the series' change
    const auto gap = std::find_if(rows.begin(), rows.end(), [](const OpRow& r) { return r.name == kBetweenOperators; });
    QVERIFY(gap != rows.end());
    QCOMPARE(gap->frees, 1);
    QCOMPARE(gap->bytesFreed, 3000);
    QCOMPARE(QString::fromStdString(liveOpAt(db, w.traceId(), 30)), QStringLiteral("(between operators) (forward, step 0)"));
}

void TestLiveStore::phasesAndMarkers() {
    QTemporaryDir dir;
    Database db(dir.filePath("p.memviz").toStdString());
    const std::int64_t id = recordStream(db);
    const auto markers = listLiveMarkers(db, id);
    QCOMPARE(markers.size(), std::size_t(5)); // 3 phases, the mark, the step
    const auto spans = livePhaseSpans(markers, 7000);
    QCOMPARE(spans.size(), std::size_t(3));
    QCOMPARE(QString::fromStdString(spans[0].phase), QStringLiteral("forward"));
    QCOMPARE(spans[0].begin, 1000);
    QCOMPARE(spans[0].end, 3000);
    QCOMPARE(QString::fromStdString(spans[1].phase), QStringLiteral("backward"));
    QCOMPARE(spans[1].end, 5000);
    QCOMPARE(QString::fromStdString(spans[2].phase), QStringLiteral("optimizer"));
    QCOMPARE(spans[2].end, 7000);
    const auto step = std::find_if(markers.begin(), markers.end(), [](const LiveMarker& m) { return m.kind == "step"; });
    QCOMPARE(QString::fromStdString(step->label), QStringLiteral("step 1"));
    QCOMPARE(step->t, 6000);
}

void TestLiveStore::newerProtocolIsRefused() {
    QTemporaryDir dir;
    Database db(dir.filePath("p.memviz").toStdString());
    LiveWriter w(db, probeSpec());
    ProbeStreamWriter stream(w);
    try {
        stream.applyLine(R"({"type":"hello","protocol":"memviz-probe","version":2,"pid":1})", 0);
        QFAIL("accepted a newer protocol");
    } catch (const ProbeProtocolError& e) {
        QVERIFY(QString::fromUtf8(e.what()).contains("version 2"));
    }
    // Malformed lines are counted and skipped, not fatal.
    stream.applyLine("{broken", 0);
    stream.applyLine(R"({"type":"mark","t":5,"label":"ok"})", 0);
    QCOMPARE(stream.malformed(), 1);
    QVERIFY(QString::fromStdString(stream.firstMalformed()).startsWith("line 2: "));
}

void TestLiveStore::commitsAreVisibleToOtherConnections() {
    QTemporaryDir dir;
    const std::string path = dir.filePath("c.memviz").toStdString();
    Database db(path);
    LiveRecordingSpec spec;
    spec.source = "attach";
    spec.format = kLiveProcFormat;
    spec.title = "x";
    LiveWriter w(db, spec);
    Database reader(path, Database::Mode::ReadOnly);
    // The trace and recording rows are committed at once.
    QVERIFY(findLiveRecording(reader, w.traceId()));
    const int s = w.addSeries({"process", "rss", "bytes", true});
    w.setCommitIntervalNs(1000);
    w.addSample(s, 0, 100);
    QVERIFY(!w.commitIfDue(0)); // the first call starts the clock
    w.addSample(s, 10, 200);
    QCOMPARE(liveSampleCount(reader, w.traceId()), 0); // not committed yet
    QVERIFY(!w.commitIfDue(999));
    QVERIFY(w.commitIfDue(1000));
    QCOMPARE(liveSampleCount(reader, w.traceId()), 2);
    QCOMPARE(w.committedSamples(), 2);
    QCOMPARE(findLiveRecording(reader, w.traceId())->lastCommitNs, 10);
    QCOMPARE(*liveValueAt(reader, w.traceId(), s, 9), 100);
    QVERIFY(!liveValueAt(reader, w.traceId(), s, -1));
    QVERIFY_THROWS_EXCEPTION(StoreError, w.addSample(7, 0, 0));
}

void TestLiveStore::liveSeriesQueryBinsLongRanges() {
    QTemporaryDir dir;
    Database db(dir.filePath("b.memviz").toStdString());
    LiveRecordingSpec spec;
    spec.source = "attach";
    spec.format = kLiveProcFormat;
    LiveWriter w(db, spec);
    const int s = w.addSeries({"process", "rss", "bytes", true});
    // 10 000 points: a sawtooth 0..99; one spike of 5000 at t = 4321.
    for (int i = 0; i < 10000; ++i) w.addSample(s, i, i == 4321 ? 5000 : i % 100);
    w.commit();
    const SeriesWindow all = queryLiveSeries(db, w.traceId(), s, {0, 9999}, 100);
    QCOMPARE(all.level, 1);
    QVERIFY(all.points.size() <= 100 * 2 + 3);
    const auto top = std::max_element(all.points.begin(), all.points.end(),
                                      [](const SeriesPoint& a, const SeriesPoint& b) { return a.v < b.v; });
    QCOMPARE(top->v, 5000); // the spike survives binning
    QCOMPARE(all.points.back().v, 99);
    // A narrow range: raw points, with the one before and after.
    const SeriesWindow narrow = queryLiveSeries(db, w.traceId(), s, {100, 110}, 100);
    QCOMPARE(narrow.level, 0);
    QCOMPARE(narrow.points.size(), std::size_t(13));
    QCOMPARE(narrow.points.front().t, 99);
    QCOMPARE(narrow.points.back().t, 111);
    const auto series = listLiveSeries(db, w.traceId());
    QCOMPARE(series[0].count, 10000);
    QCOMPARE(series[0].vMax, 5000);
    QCOMPARE(series[0].vLast, 99);
}

void TestLiveStore::interruptedRecordingIsRecovered() {
    QTemporaryDir dir;
    const std::string path = dir.filePath("r.memviz").toStdString();
    std::int64_t id = 0;
    {
        Database db(path);
        LiveRecordingSpec spec;
        spec.source = "launch";
        spec.format = kLiveProcFormat;
        spec.title = "gone";
        LiveWriter w(db, spec);
        id = w.traceId();
        const int rss = w.addSeries({"process", "rss", "bytes", true});
        const int swap = w.addSeries({"process", "swap", "bytes", false});
        for (int i = 0; i < 50; ++i) {
            w.addSample(rss, i * 1000, (i % 10) * kMiB);
            w.addSample(swap, i * 1000, 0);
        }
        w.commit();
        // This recorder is alive: nothing to recover.
        QVERIFY(recoverInterruptedRecordings(db).empty());
        // Pretend the recorder was a process that no longer exists.
        db.exec("UPDATE live_recordings SET recorder_start = recorder_start + 1 WHERE trace_id = " + std::to_string(id));
    }
    Database db(path);
    QCOMPARE(recoverInterruptedRecordings(db), std::vector<std::int64_t>{id});
    const auto rec = findLiveRecording(db, id);
    QCOMPARE(QString::fromStdString(rec->state), QStringLiteral("finalized"));
    QCOMPARE(QString::fromStdString(rec->endReason), QStringLiteral("recorder-died"));
    const TraceSummary s = loadSummary(db, id);
    QCOMPARE(s.devices[0].peakBytes, 9 * kMiB);
    QCOMPARE(s.devices[0].peakTimeNs, 9000);
    QCOMPARE(s.trace.durationNs, 49000);
    // The all-zero swap series is not drawn; its samples stay.
    const auto series = listSeries(db, id);
    QCOMPARE(series.size(), std::size_t(1));
    QCOMPARE(series[0].pointCount, 50);
    QCOMPARE(liveSampleCount(db, id), 100);
    // The timeline's query answers from the pyramid like for any trace.
    const SeriesWindow w = querySeries(db, series[0].id, {0, 49000}, 800);
    QCOMPARE(w.points.size(), std::size_t(50));
}

void TestLiveStore::launcherErrorsAndExitStatus() {
    QVERIFY_THROWS_EXCEPTION(std::runtime_error, LaunchedProcess({"/nonexistent/program"}));
    QVERIFY_THROWS_EXCEPTION(std::runtime_error, LaunchedProcess({"no-such-program-memviz-test"}));
    QTemporaryDir dir;
    const QString plain = memviz::test::writeFile(dir, "not-a-program", "data"); // mode 0644
    QVERIFY_THROWS_EXCEPTION(std::runtime_error, LaunchedProcess({plain.toStdString()}));
    {
        LaunchedProcess p({"/bin/sh", "-c", "exit 7"});
        QVERIFY(!p.poll()); // waits for release
        p.release();
        const ExitStatus s = p.wait();
        QCOMPARE(s.code.value_or(-1), 7);
        QCOMPARE(QString::fromStdString(s.text()), QStringLiteral("exited with status 7"));
    }
    {
        LaunchedProcess p({"/bin/sh", "-c", "kill -9 $$"});
        p.release();
        const ExitStatus s = p.wait();
        QCOMPARE(s.signal.value_or(-1), 9);
        QVERIFY(QString::fromStdString(s.text()).startsWith("killed by signal 9"));
    }
    QCOMPARE(QString::fromStdString(joinCommandLine({"python3", "-c", "print('hi there')"})),
             QStringLiteral("python3 -c 'print('\\''hi there'\\'')'"));
    QCOMPARE(QString::fromStdString(oneLineTitle("a\n  b\tc", 10)), QStringLiteral("a b c"));
}

QTEST_GUILESS_MAIN(TestLiveStore)
#include "tst_live_store.moc"

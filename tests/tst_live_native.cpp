// SPDX-License-Identifier: MIT
// memviz record --native: a real program (data/live/native_phases.cpp: 8 MiB held in 1 KiB
// blocks, half freed, 1 MiB leaked, with pauses) recorded through heaptrack, launched and
// attached. The final figures are compared with heaptrack_print's on the very file heaptrack
// wrote (run here as the oracle); the live figures stored while it ran with what the program
// is known to do (hand-computed sizes) and with the final ones: heaptrack's times never go
// back, heap consumed never exceeds the final peak, the 8 MiB plateau of phase 1 is seen
// while RSS holds at least as much, and the top sites are the program's two loops. Then the
// ways it fails: heaptrack missing (names the packages), the program not found, ptrace
// refused (a target that already has a tracer), and bad usage.
#include <QJsonDocument>
#include <QJsonObject>
#include <QtTest>

#include <csignal>

#include "NativeToolOutput.h"
#include "TestSupport.h"
#include "formats/heaptrack/HeaptrackQueries.h"
#include "formats/live/HeaptrackStream.h"
#include "store/Database.h"

using namespace memviz;
using namespace memviz::test;

namespace {

constexpr qint64 kKiB = 1024;
constexpr qint64 kPhase1 = 8192 * kKiB; // phase 1: 8192 blocks of 1 KiB held
constexpr qint64 kLeak = 1024 * kKiB;   // phase 3: 1024 blocks of 1 KiB never freed

struct Sample {
    qint64 t = 0, value = 0;
};

// A series' samples in the order the recorder wrote them.
std::vector<Sample> samples(Database& db, qint64 traceId, const char* name) {
    Statement s(db, "SELECT l.t, l.value FROM live_samples l JOIN live_series USING (trace_id, series) "
                    "WHERE l.trace_id = ? AND live_series.name = ? ORDER BY l.rowid");
    s.bind(1, static_cast<std::int64_t>(traceId)).bind(2, std::string(name));
    std::vector<Sample> out;
    while (s.step()) out.push_back({s.int64(0), s.int64(1)});
    return out;
}

// The value of a series at time t (the last sample at or before it).
std::optional<qint64> valueAt(const std::vector<Sample>& points, qint64 t) {
    std::optional<qint64> v;
    for (const Sample& p : points)
        if (p.t <= t) v = p.value;
    return v;
}

#define REQUIRE_HEAPTRACK()                                                                                   \
    do {                                                                                                      \
        if (findTool("heaptrack").isEmpty() || findTool("heaptrack_print").isEmpty())                        \
            MEMVIZ_SKIP_OR_FAIL("heaptrack is not installed (apt install heaptrack libheaptrack)");           \
    } while (false)

} // namespace

class TestLiveNative : public QObject {
    Q_OBJECT
private slots:
    void launchedMatchesHeaptrackPrint();
    void attachedMatchesHeaptrackPrint();
    void durationEndsTheLaunchedProgram();
    void heaptrackMissing();
    void programNotFound();
    void ptraceRefused();
    void badUsage();
    void streamsCarryLinesAcrossChunks();

private:
    // Checks one finished recording: `out` is memviz record --json's output.
    void checkRecording(const QString& store, const QByteArray& out, qint64 expectedCalls);
};

void TestLiveNative::checkRecording(const QString& store, const QByteArray& out, qint64 expectedCalls) {
    // A launched program writes to the same stdout ("ready", "done") before the report.
    const QJsonObject o = QJsonDocument::fromJson(out.mid(out.indexOf("{\n"))).object();
    QVERIFY2(!o.isEmpty(), out.constData());
    const QJsonObject h = o.value("heaptrack").toObject();
    const QString file = h.value("file").toString();
    QVERIFY2(QFileInfo::exists(file), qPrintable(file));
    const qint64 heaptrackTrace = h.value("trace").toInteger();
    QVERIFY(heaptrackTrace > 0);

    // The oracle: heaptrack_print on the file heaptrack's interpreter wrote.
    const HeaptrackPrintReport report = parseHeaptrackPrint(runOutput(findTool("heaptrack_print"), {file}));
    QVERIFY(report.calls > 0);
    Database db(store.toStdString(), Database::Mode::ReadOnly);
    const auto summary = loadHeaptrackSummary(db, heaptrackTrace);
    QVERIFY(summary);
    QCOMPARE(summary->calls, report.calls);
    QCOMPARE(summary->temporary, report.temporary);
    QCOMPARE(heaptrackBytes(summary->peakBytes), report.peak);
    QCOMPARE(heaptrackBytes(summary->leakedBytes), report.leaked);
    QCOMPARE(h.value("calls").toInteger(), report.calls);
    // And what the program is known to do: the phases' calls, 8 MiB held at once, 1 MiB
    // leaked (plus what the C and C++ runtimes allocate for themselves: a few KiB).
    QVERIFY2(report.calls >= expectedCalls && report.calls < expectedCalls + 50, qPrintable(QString::number(report.calls)));
    QVERIFY(summary->peakBytes >= kPhase1 && summary->peakBytes < kPhase1 + 256 * kKiB);
    QVERIFY(summary->leakedBytes >= kLeak && summary->leakedBytes < kLeak + 256 * kKiB);

    // The live figures, written while the program ran.
    Statement live(db, "SELECT trace_id FROM live_recordings ORDER BY trace_id");
    QVERIFY(live.step());
    const qint64 traceId = live.int64(0);
    const std::vector<Sample> heap = samples(db, traceId, "heap_consumed");
    const std::vector<Sample> rss = samples(db, traceId, "rss");
    const std::vector<Sample> rate = samples(db, traceId, "allocations_per_s");
    QVERIFY2(heap.size() >= 5, qPrintable(QString::number(heap.size())));
    QVERIFY(rss.size() >= 20); // 100 ms samples over more than 4 s
    qint64 plateauAt = -1;
    for (std::size_t i = 0; i < heap.size(); ++i) {
        if (i > 0) QVERIFY2(heap[i].t >= heap[i - 1].t, "heap consumed went back in time");
        QVERIFY2(heap[i].value <= summary->peakBytes, qPrintable(QString::number(heap[i].value)));
        if (plateauAt < 0 && heap[i].value >= kPhase1) plateauAt = heap[i].t;
    }
    QVERIFY2(plateauAt >= 0, "the 8 MiB of phase 1 were never seen live");
    // The plateau lasts a pause (1.2 s): 0.5 s into it the heap still holds 8 MiB, and the
    // allocator's RSS at least that much (heap consumed is part of RSS).
    QVERIFY(*valueAt(heap, plateauAt + 500'000'000) >= kPhase1);
    const auto rssThen = valueAt(rss, plateauAt + 500'000'000);
    QVERIFY(rssThen && *rssThen >= kPhase1);
    // Its end is what stayed allocated: the leak.
    QCOMPARE(heap.back().value, summary->leakedBytes + summary->suppressedBytes);
    // The allocation rate adds up to the calls: each sample is the calls of one 100 ms
    // interval, per second.
    qint64 calls = 0;
    for (const Sample& s : rate) calls += s.value / 10;
    QCOMPARE(calls, report.calls);

    // Top sites at the end: the leaking loop holds 1 MiB from 1024 calls; phase 1's loop
    // held 8 MiB at its peak from 8192 calls and holds nothing now.
    Statement sites(db, "SELECT function, location, bytes, peak_bytes, calls FROM live_native_sites WHERE trace_id = ? "
                        "ORDER BY rank");
    sites.bind(1, static_cast<std::int64_t>(traceId));
    bool leakSite = false, phaseSite = false;
    int rank = 0;
    while (sites.step()) {
        ++rank;
        const QString location = QString::fromStdString(sites.text(1));
        if (sites.text(0) != "main" || !location.contains("native_phases.cpp")) continue;
        if (sites.int64(4) == 1024 && sites.int64(2) == kLeak) {
            leakSite = true;
            QCOMPARE(rank, 1);
        }
        if (sites.int64(4) == 8192 && sites.int64(3) == kPhase1 && sites.int64(2) == 0) phaseSite = true;
    }
    QVERIFY(leakSite);
    QVERIFY(phaseSite);
}

void TestLiveNative::launchedMatchesHeaptrackPrint() {
    REQUIRE_HEAPTRACK();
    QTemporaryDir dir;
    const QString store = dir.filePath("launch.memviz");
    const ProcessResult r =
        runMemviz({"record", "--native", "--out", store, "--json", "--", QStringLiteral(MEMVIZ_NATIVE_PHASES), "1200"});
    QVERIFY2(r.exitCode == 0, r.err.constData());
    QVERIFY2(r.out.contains("\"exit_code\": 0"), r.out.constData());
    checkRecording(store, r.out, 8192 + 1024);
}

void TestLiveNative::attachedMatchesHeaptrackPrint() {
    REQUIRE_HEAPTRACK();
    if (findTool("gdb").isEmpty()) MEMVIZ_SKIP_OR_FAIL("gdb is not installed (apt install gdb)");
    QTemporaryDir dir;
    QProcess target;
    // It waits 5 s before phase 1: time for gdb to attach heaptrack.
    target.start(QStringLiteral(MEMVIZ_NATIVE_PHASES), {"1200", "5000"});
    QVERIFY(target.waitForStarted());
    QTRY_VERIFY_WITH_TIMEOUT(target.canReadLine(), 10000);
    QCOMPARE(target.readLine(), QByteArray("ready\n"));
    const QString store = dir.filePath("attach.memviz");
    const ProcessResult r =
        runMemviz({"record", "--native", "--pid", QString::number(target.processId()), "--out", store, "--json"});
    QVERIFY2(r.exitCode == 0, r.err.constData());
    QVERIFY(target.waitForFinished(20000));
    QCOMPARE(target.exitStatus(), QProcess::NormalExit);
    QCOMPARE(target.exitCode(), 0); // unharmed: it ran to its end
    QCOMPARE(target.readAll(), QByteArray("done\n"));
    // Attached before phase 1: every call of the phases is seen (the runtime's own start-up
    // allocations were before).
    checkRecording(store, r.out, 8192 + 1024);
}

// heaptrack's data ends only with the program: at --duration a launched program is ended
// (SIGINT first), and what heaptrack wrote until then is imported, still equal to
// heaptrack_print's figures for that file.
void TestLiveNative::durationEndsTheLaunchedProgram() {
    REQUIRE_HEAPTRACK();
    QTemporaryDir dir;
    const QString store = dir.filePath("duration.memviz");
    // Phase 1 after 0.5 s, then a minute of pause: --duration 2 ends it in that pause.
    const ProcessResult r = runMemviz({"record", "--native", "--duration", "2", "--out", store, "--json", "--",
                                       QStringLiteral(MEMVIZ_NATIVE_PHASES), "60000", "500"});
    QVERIFY2(r.exitCode == 0, r.err.constData());
    const QJsonObject o = QJsonDocument::fromJson(r.out.mid(r.out.indexOf("{\n"))).object();
    const QJsonObject rec = o.value("recording").toObject();
    QCOMPARE(rec.value("end_reason").toString(), QStringLiteral("duration"));
    QCOMPARE(rec.value("exit_signal").toInt(), SIGINT);
    const QJsonObject h = o.value("heaptrack").toObject();
    const HeaptrackPrintReport report = parseHeaptrackPrint(runOutput(findTool("heaptrack_print"), {h.value("file").toString()}));
    QVERIFY(report.calls > 0);
    QCOMPARE(h.value("calls").toInteger(), report.calls);
    QCOMPARE(heaptrackBytes(h.value("peak_bytes").toInteger()), report.peak);
    QCOMPARE(heaptrackBytes(h.value("leaked_bytes").toInteger()), report.leaked);
    // Phase 1 was under way or done: most of its 8 MiB were seen.
    QVERIFY2(h.value("peak_bytes").toInteger() >= kPhase1 / 2, qPrintable(QString::number(h.value("peak_bytes").toInteger())));
}

void TestLiveNative::heaptrackMissing() {
    QTemporaryDir dir;
    QProcess p;
    QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
    env.insert("MEMVIZ_HEAPTRACK_LIBDIR", dir.filePath("no-heaptrack-here"));
    p.setProcessEnvironment(env);
    p.start(QStringLiteral(MEMVIZ_BINARY), {"record", "--native", "--out", dir.filePath("x.memviz"), "--", "true"});
    QVERIFY(p.waitForFinished(30000));
    const QByteArray err = p.readAllStandardError();
    QCOMPARE(p.exitCode(), 1);
    QVERIFY2(err.contains("heaptrack is not installed"), err.constData());
    QVERIFY2(err.contains("apt install heaptrack") && err.contains("libheaptrack"), err.constData());
    QVERIFY(!QFileInfo::exists(dir.filePath("x.memviz"))); // nothing started, nothing stored
}

void TestLiveNative::programNotFound() {
    REQUIRE_HEAPTRACK();
    QTemporaryDir dir;
    const ProcessResult r =
        runMemviz({"record", "--native", "--out", dir.filePath("x.memviz"), "--", dir.filePath("no-such-program")});
    QCOMPARE(r.exitCode, 1);
    QVERIFY2(r.err.contains("no-such-program") && r.err.contains("No such file or directory"), r.err.constData());
    QVERIFY(!QFileInfo::exists(dir.filePath("x.memviz")));
}

// A process has one tracer at a time: one that asked to be traced by its parent (this test)
// cannot be attached by gdb, which then prints "ptrace: Operation not permitted" exactly as
// under kernel.yama.ptrace_scope or without CAP_SYS_PTRACE; memviz explains it with the text
// the probe's attach uses.
void TestLiveNative::ptraceRefused() {
    REQUIRE_HEAPTRACK();
    if (findTool("gdb").isEmpty()) MEMVIZ_SKIP_OR_FAIL("gdb is not installed (apt install gdb)");
    const QString py = python();
    if (py.isEmpty()) MEMVIZ_SKIP_OR_FAIL("python3 is not installed");
    QTemporaryDir dir;
    QProcess traced;
    traced.start(py, {"-c", "import ctypes, time\n"
                            "assert ctypes.CDLL(None).ptrace(0, 0, None, None) == 0  # PTRACE_TRACEME\n"
                            "print('ready', flush=True)\ntime.sleep(60)\n"});
    QVERIFY(traced.waitForStarted());
    QTRY_VERIFY_WITH_TIMEOUT(traced.canReadLine(), 10000);
    const ProcessResult r =
        runMemviz({"record", "--native", "--pid", QString::number(traced.processId()), "--out", dir.filePath("x.memviz")});
    QCOMPARE(r.exitCode, 1);
    QVERIFY2(r.err.contains("ptrace: Operation not permitted"), r.err.constData());
    QVERIFY2(r.err.contains("already traced by process " + QByteArray::number(QCoreApplication::applicationPid())),
             r.err.constData());
    QVERIFY(traced.state() == QProcess::Running); // unharmed
    ::kill(static_cast<pid_t>(traced.processId()), SIGKILL); // a tracee stops on other signals
    traced.waitForFinished();
}

void TestLiveNative::badUsage() {
    QTemporaryDir dir;
    const ProcessResult both = runMemviz({"record", "--native", "--pid", "1", "--", "true"});
    QCOMPARE(both.exitCode, 2);
    QVERIFY2(both.err.contains("--native needs exactly one of --pid PID or -- CMD ARGS..."), both.err.constData());
    const ProcessResult probe = runMemviz({"record", "--native", "--probe", "--pid", "1"});
    QCOMPARE(probe.exitCode, 2);
    QVERIFY2(probe.err.contains("--probe is not for --native"), probe.err.constData());
}

// The readers behind the live figures, on handwritten streams (heaptrack's formats,
// docs/formats-native.md), fed whole and one byte at a time: a line cut by a chunk is read
// once it is complete, and the figures are the hand-computed ones either way.
void TestLiveNative::streamsCarryLinesAcrossChunks() {
    // Raw (what the preload writes): three blocks of 0x400 bytes, one freed, one free of a
    // pointer never allocated (before an attach): consumed 2048, peak 3072, 3 calls.
    const std::string raw = "v 10400 3\nc a\n+ 400 1 1000\n+ 400 1 2000\nc 14\n+ 400 2 3000\n- 2000\n- 9999\nc 1e\n";
    // Interpreted (what heaptrack_interpret writes): two sites, main at a.cpp:7 holding one
    // block of 0x400 after a free, and f at a.cpp:9 holding 0x10.
    const std::string text = "v 10400 3\ns 4 main\ns 5 a.cpp\ns 1 f\ns 3 exe\n"
                             "i 1000 4 1 2 7\ni 2000 4 3 2 9\nt 1 0\nt 2 1\n"
                             "a 400 1\na 10 2\n+ 0\n+ 0\n- 0\n+ 1\nc 5\n";
    for (const std::size_t chunk : {std::size_t{1}, std::size_t{7}, raw.size() + text.size()}) {
        HeaptrackRawStream r;
        HeaptrackStream t;
        for (std::size_t at = 0; at < raw.size(); at += chunk) r.feed(std::string_view(raw).substr(at, chunk));
        for (std::size_t at = 0; at < text.size(); at += chunk) t.feed(std::string_view(text).substr(at, chunk));
        QCOMPARE(r.consumed(), 2048);
        QCOMPARE(r.peakConsumed(), 3072);
        QCOMPARE(r.calls(), 3);
        QCOMPARE(r.timeMs(), 30);
        const std::vector<HeaptrackTick> ticks = r.takeTicks();
        QVERIFY(!ticks.empty());
        QCOMPARE(ticks.back().consumed, 2048); // the state at the last tick (0x1e = 30 ms)
        QCOMPARE(ticks.back().timeMs, 30);
        QCOMPARE(t.consumed(), 0x400 + 0x10);
        QCOMPARE(t.calls(), 3);
        QCOMPARE(t.temporary(), 1); // `- 0` right after `+ 0`
        const auto sites = t.topSites(5);
        QCOMPARE(sites.size(), std::size_t{2});
        QCOMPARE(sites[0].function, std::string("main"));
        QCOMPARE(sites[0].location, std::string("a.cpp:7"));
        QCOMPARE(sites[0].bytes, 0x400);
        QCOMPARE(sites[0].peakBytes, 0x800);
        QCOMPARE(sites[0].calls, 2);
        QCOMPARE(sites[1].function, std::string("f"));
        QCOMPARE(sites[1].bytes, 0x10);
    }
}

QTEST_GUILESS_MAIN(TestLiveNative)
#include "tst_live_native.moc"

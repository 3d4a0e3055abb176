// SPDX-License-Identifier: MIT
// The /proc recorder against a program with known memory steps (tests/data/live/
// live_steps.cpp): launched and attached, children summed, a pid that does not exist, one
// that may not be read, the recorder killed mid-way, and `memviz record` end to end.
//
// Expected numbers come from the step program: it touches exactly STEP MiB of anonymous
// memory per step and writes the CLOCK_MONOTONIC time of every phase. Byte checks are exact
// up to the kernel's RSS counter granularity (kByteSlack); time checks allow for a loaded
// two-core machine (kLateSlack).
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QtTest>

#include <csignal>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "LiveTestSupport.h"
#include "TestSupport.h"
#include "formats/live/LiveFinalizer.h"
#include "formats/live/ProcFiles.h"
#include "formats/live/ProcRecorder.h"
#include "formats/live/ProcSampler.h"
#include "formats/live/ProcessTable.h"
#include "store/Database.h"

using namespace memviz;
using namespace memviz::test;

namespace {

const QString kSteps = QStringLiteral(MEMVIZ_LIVE_STEPS);
constexpr std::int64_t kStep = 64 * kMiB;
// RssAnon moves by exactly the touched bytes; the kernel's per-CPU RSS counters may lag by
// a few pages, never by more than this.
constexpr std::int64_t kByteSlack = 256 * 1024;
// RSS also counts file pages that fault in (libc code run for the first time).
constexpr std::int64_t kRssSlack = 2 * kMiB;
// A sample may come this late after the interval on a loaded machine.
constexpr std::int64_t kLateSlack = 400'000'000;
constexpr std::int64_t kSettle = 60'000'000; // after a step, before its level is checked

std::int64_t ms(std::int64_t v) { return v * 1'000'000; }

// Checks the recorded series against the program's timeline: baseline, +1 step, +2 steps,
// back to the baseline. Returns the baseline.
void checkSteps(Database& db, std::int64_t traceId, const QMap<QString, qint64>& tl, std::int64_t intervalNs) {
    for (const char* e : {"start", "alloc1_begin", "alloc1_end", "alloc2_begin", "alloc2_end", "free_begin", "free_end", "end"})
        QVERIFY2(tl.contains(e), e);
    for (const char* name : {"rss_anon", "rss"}) {
        const bool anon = std::string(name) == "rss_anon";
        const std::int64_t slack = anon ? kByteSlack : kRssSlack;
        const auto points = samplesOnMonotonicClock(db, traceId, name);
        QVERIFY2(points.size() > 10, name);
        const auto base = valueBefore(points, tl["alloc1_begin"]);
        QVERIFY2(base, "no sample before the first step");
        struct Level {
            const char* from;
            const char* to;
            std::int64_t steps;
        };
        for (const Level& l :
             {Level{"alloc1_end", "alloc2_begin", 1}, Level{"alloc2_end", "free_begin", 2}, Level{"free_end", "end", 0}}) {
            const auto values = valuesBetween(points, tl[l.from] + kSettle, tl[l.to]);
            QVERIFY2(!values.empty(), qPrintable(QStringLiteral("%1: no sample between %2 and %3").arg(name, l.from, l.to)));
            for (std::int64_t v : values) {
                const std::int64_t expected = *base + l.steps * kStep;
                QVERIFY2(std::abs(v - expected) <= slack,
                         qPrintable(QStringLiteral("%1 after %2: %3 bytes, expected %4 (baseline %5 + %6 x 64 MiB)")
                                        .arg(name, l.from)
                                        .arg(v)
                                        .arg(expected)
                                        .arg(*base)
                                        .arg(l.steps)));
            }
        }
        // The first step shows within one interval (plus scheduling) of the program making it.
        const auto seen = firstReaching(points, tl["alloc1_begin"], *base + kStep - slack);
        QVERIFY(seen);
        QVERIFY2(*seen <= tl["alloc1_end"] + intervalNs + kLateSlack,
                 qPrintable(QStringLiteral("step seen %1 ms after the program made it").arg((*seen - tl["alloc1_end"]) / 1e6)));
    }
}

std::int64_t onlyTrace(Database& db) { return latestTraceId(db).value_or(0); }

QString setprivPath() { return QStandardPaths::findExecutable("setpriv"); }

} // namespace

class TestLiveProc : public QObject {
    Q_OBJECT
private slots:
    void launchSeesTheSteps();
    void attachSeesTheSteps();
    void childrenAreSummed();
    void markersAndDuration();
    void vanishedPid();
    void notPermittedPid();
    void killedRecorderKeepsCommittedSamples();
    void recordCommandEndToEnd();
    void recordUsageErrors();
};

void TestLiveProc::launchSeesTheSteps() {
    QTemporaryDir dir;
    const QString store = dir.filePath("launch.memviz");
    const QString tl = dir.filePath("tl.txt");
    ProcRecordingOptions o;
    o.command = {kSteps.toStdString(), "--timeline", tl.toStdString(), "--exit-code", "5"};
    o.intervalNs = ms(20);
    ProcRecorder r(store.toStdString(), o);
    r.start();
    QVERIFY(r.waitFor(60000));
    const RecorderStatus s = r.status();
    QVERIFY2(s.state == RecorderStatus::State::Finished, s.message.c_str());
    QCOMPARE(QString::fromStdString(s.endReason), QStringLiteral("exited"));
    QCOMPARE(s.exitCode.value_or(-1), 5);
    Database db(store.toStdString());
    const auto rec = findLiveRecording(db, s.traceId);
    QVERIFY(rec);
    QCOMPARE(QString::fromStdString(rec->state), QStringLiteral("finalized"));
    QCOMPARE(rec->exitCode.value_or(-1), 5);
    QCOMPARE(QString::fromStdString(rec->source), QStringLiteral("launch"));
    checkSteps(db, s.traceId, readTimeline(tl), o.intervalNs);
    // From its first moment: sampling starts as the program is released, so the first sample
    // comes no later than one interval (plus scheduling on a loaded machine) after the
    // program's own first mark. Which of the two comes first is a race: the recorder thread
    // and the freshly exec'd program run concurrently.
    const auto rss = samplesOnMonotonicClock(db, s.traceId, "rss");
    QVERIFY2(rss.front().t <= readTimeline(tl)["start"] + o.intervalNs + kLateSlack,
             qPrintable(QStringLiteral("first sample %1 ms after the program started")
                            .arg((rss.front().t - readTimeline(tl)["start"]) / 1e6)));
    // The finalised summary: the peak is the two steps over the baseline.
    const TraceSummary summary = loadSummary(db, s.traceId);
    QCOMPARE(summary.devices.size(), std::size_t(1));
    QVERIFY(summary.devices[0].peakBytes >= 2 * kStep);
    QVERIFY(summary.devices[0].peakBytes <= 2 * kStep + 16 * kMiB);
    const auto markers = listLiveMarkers(db, s.traceId);
    QVERIFY(std::any_of(markers.begin(), markers.end(),
                        [](const LiveMarker& m) { return m.kind == "exit" && m.label == "exited with status 5"; }));
}

void TestLiveProc::attachSeesTheSteps() {
    QTemporaryDir dir;
    const QString store = dir.filePath("attach.memviz");
    const QString tl = dir.filePath("tl.txt");
    QProcess program;
    program.start(kSteps, {"--timeline", tl, "--wait-stdin"});
    QVERIFY(program.waitForReadyRead(10000));
    const QByteArray ready = program.readLine().trimmed();
    QVERIFY2(ready.startsWith("ready "), ready.constData());
    const QString pid = QString::fromLatin1(ready.mid(6));
    QCOMPARE(pid.toLongLong(), program.processId());

    QProcess memviz;
    memviz.setReadChannel(QProcess::StandardError);
    memviz.start(QStringLiteral(MEMVIZ_BINARY),
                 {"record", "--pid", pid, "--out", store, "--interval-ms", "20", "--json", "--progress"});
    // Start the steps once the recorder has committed a few samples of the baseline.
    QByteArray err;
    while (!err.contains("samples committed") && memviz.waitForReadyRead(10000)) err += memviz.readAllStandardError();
    QVERIFY2(err.contains("samples committed"), err.constData());
    program.write("go\n");
    QVERIFY(program.waitForFinished(30000));
    QVERIFY(memviz.waitForFinished(30000));
    QCOMPARE(memviz.exitCode(), 0);
    const QJsonObject o = QJsonDocument::fromJson(memviz.readAllStandardOutput()).object();
    const QJsonObject rec = o["recording"].toObject();
    QCOMPARE(rec["source"].toString(), QStringLiteral("attach"));
    QCOMPARE(rec["end_reason"].toString(), QStringLiteral("exited"));
    QVERIFY(rec["exit_code"].isNull()); // not our child: its status went to its parent
    QCOMPARE(rec["target_pid"].toInteger(), pid.toLongLong());
    Database db(store.toStdString());
    checkSteps(db, onlyTrace(db), readTimeline(tl), ms(20));
}

void TestLiveProc::childrenAreSummed() {
    QTemporaryDir dir;
    for (const bool children : {true, false}) {
        const QString store = dir.filePath(children ? "with.memviz" : "without.memviz");
        const QString tl = dir.filePath(children ? "with.txt" : "without.txt");
        ProcRecordingOptions o;
        o.command = {kSteps.toStdString(), "--timeline", tl.toStdString(), "--in-child", "--hold-ms", "600"};
        o.intervalNs = ms(20);
        o.children = children;
        ProcRecorder r(store.toStdString(), o);
        r.start();
        QVERIFY(r.waitFor(60000));
        QVERIFY2(r.status().state == RecorderStatus::State::Finished, r.status().message.c_str());
        Database db(store.toStdString());
        const auto timeline = readTimeline(tl);
        const auto anon = samplesOnMonotonicClock(db, r.status().traceId, "rss_anon");
        const auto level = valuesBetween(anon, timeline["alloc2_end"] + kSettle, timeline["free_begin"]);
        QVERIFY(!level.empty());
        if (children) {
            // The parent's anon memory plus the child's two steps (the child is re-scanned
            // every 500 ms, so it is counted from then on).
            for (std::int64_t v : level) QVERIFY2(v >= 2 * kStep, qPrintable(QString::number(v)));
            const auto processes = samplesOnMonotonicClock(db, r.status().traceId, "processes");
            QVERIFY(std::any_of(processes.begin(), processes.end(), [](const SeriesPoint& p) { return p.v == 2; }));
        } else {
            for (std::int64_t v : level) QVERIFY2(v < kStep / 2, qPrintable(QString::number(v)));
            QVERIFY(samplesOnMonotonicClock(db, r.status().traceId, "processes").empty());
        }
    }
}

void TestLiveProc::markersAndDuration() {
    QTemporaryDir dir;
    const QString store = dir.filePath("m.memviz");
    ProcRecordingOptions o;
    o.command = {kSteps.toStdString(), "--hold-ms", "3000"};
    o.intervalNs = ms(50);
    ProcRecorder r(store.toStdString(), o);
    r.setDurationNs(ms(700));
    r.start();
    QTRY_VERIFY_WITH_TIMEOUT(r.status().state == RecorderStatus::State::Recording, 10000);
    QTest::qWait(200);
    r.addMarker("before the step");
    QVERIFY(r.waitFor(30000));
    const RecorderStatus s = r.status();
    QCOMPARE(QString::fromStdString(s.endReason), QStringLiteral("duration"));
    QVERIFY2(QString::fromStdString(s.message).contains("keeps running"), s.message.c_str());
    QVERIFY(s.targetPid > 0);
    QCOMPARE(::kill(s.targetPid, 0), 0); // still running: the recording stopped, not the program
    ::kill(s.targetPid, SIGKILL);
    Database db(store.toStdString());
    const auto markers = listLiveMarkers(db, s.traceId);
    QCOMPARE(markers.size(), std::size_t(1));
    QCOMPARE(QString::fromStdString(markers[0].label), QStringLiteral("before the step"));
    QVERIFY(markers[0].t >= ms(150) && markers[0].t <= ms(700));
    const TraceSummary summary = loadSummary(db, s.traceId);
    QVERIFY(summary.trace.durationNs >= ms(700));
    QVERIFY(summary.trace.durationNs < ms(700) + kLateSlack);
}

void TestLiveProc::vanishedPid() {
    // A pid that existed a moment ago and has been reaped.
    QProcess gone;
    gone.start("/bin/sleep", {"0.1"});
    QVERIFY(gone.waitForStarted());
    const qint64 pid = gone.processId();
    QVERIFY(gone.waitForFinished());
    // (Should the pid have been reused at once, take one that cannot exist on Linux.)
    const QString vanished = QString::number(::kill(static_cast<pid_t>(pid), 0) == 0 ? 4194305 : pid);
    QTemporaryDir dir;
    const QString store = dir.filePath("v.memviz");
    const auto r = runMemviz({"record", "--pid", vanished, "--out", store});
    QCOMPARE(r.exitCode, 1);
    QVERIFY2(r.err.contains("no process with pid " + vanished.toUtf8()), r.err.constData());
    QVERIFY(!QFileInfo::exists(store)); // refused before the store was touched

    // The model says the same, with the failure kind.
    ProcSampler sampler({vanished.toInt(), false, ms(100)});
    try {
        sampler.check();
        QFAIL("no error");
    } catch (const ProcError& e) {
        QCOMPARE(e.failure(), ProcFailure::NoSuchProcess);
    }
}

void TestLiveProc::notPermittedPid() {
    // Another user's process: as root, memviz runs as nobody against a process of root's;
    // as anyone else, against pid 1 (root's).
    QTemporaryDir dir;
    ::chmod(dir.path().toLocal8Bit().constData(), 0777);
    const QString store = dir.filePath("p.memviz");
    QProcess target;
    QString pid = "1";
    QStringList command{QStringLiteral(MEMVIZ_BINARY), "record", "--pid", pid, "--out", store};
    if (::getuid() == 0) {
        if (setprivPath().isEmpty()) QSKIP("running as root without setpriv: cannot act as another user");
        // The build folder must be reachable for nobody (it is not under a private home).
        const auto probe = runProcess(
            setprivPath(), {"--reuid=65534", "--regid=65534", "--clear-groups", QStringLiteral(MEMVIZ_BINARY), "--version"});
        if (probe.exitCode != 0) QSKIP("user nobody cannot run the memviz binary here (a private build folder?)");
        target.start("/bin/sleep", {"30"});
        QVERIFY(target.waitForStarted());
        pid = QString::number(target.processId());
        command = QStringList{"--reuid=65534",
                              "--regid=65534",
                              "--clear-groups",
                              QStringLiteral(MEMVIZ_BINARY),
                              "record",
                              "--pid",
                              pid,
                              "--out",
                              store};
    } else {
        ProcSampler probe({1, false, ms(100)});
        try {
            probe.check();
            QSKIP("pid 1 is readable by this user: no process of another user to try");
        } catch (const ProcError&) {}
    }
    QProcess memviz;
    QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
    env.insert("XDG_CONFIG_HOME", dir.path());
    env.insert("XDG_CACHE_HOME", dir.path());
    memviz.setProcessEnvironment(env);
    if (::getuid() == 0) memviz.start(setprivPath(), command);
    else memviz.start(command.takeFirst(), command);
    QVERIFY(memviz.waitForFinished(30000));
    const QByteArray err = memviz.readAllStandardError();
    QCOMPARE(memviz.exitCode(), 1);
    QVERIFY2(err.contains("not permitted") && err.contains("/proc/" + pid.toUtf8() + "/smaps_rollup"), err.constData());
    QVERIFY(!QFileInfo::exists(store));
    target.kill();
    target.waitForFinished();
}

void TestLiveProc::killedRecorderKeepsCommittedSamples() {
    QTemporaryDir dir;
    const QString store = dir.filePath("k.memviz");
    QProcess memviz;
    memviz.setReadChannel(QProcess::StandardError);
    memviz.start(QStringLiteral(MEMVIZ_BINARY),
                 {"record", "--out", store, "--interval-ms", "20", "--progress", "--", kSteps, "--hold-ms", "800"});
    // Wait for a few commits, then kill the recorder without warning.
    QByteArray err;
    while (err.count("samples committed") < 4 && memviz.waitForReadyRead(10000)) err += memviz.readAllStandardError();
    QVERIFY2(err.count("samples committed") >= 4, err.constData());
    ::kill(static_cast<pid_t>(memviz.processId()), SIGKILL);
    QVERIFY(memviz.waitForFinished(10000));
    err += memviz.readAllStandardError();
    // The last commit the recorder reported before it died.
    const QList<QByteArray> lines = err.trimmed().split('\n');
    std::int64_t reported = 0;
    for (const QByteArray& l : lines)
        if (l.contains("samples committed")) reported = l.split(' ').at(2).toLongLong();
    QVERIFY(reported > 0);

    std::int64_t traceId = 0, target = 0, samples = 0;
    {
        Database db(store.toStdString(), Database::Mode::ReadOnly);
        traceId = onlyTrace(db);
        const auto rec = findLiveRecording(db, traceId);
        QVERIFY(rec);
        QVERIFY2(rec->recording(), qPrintable(QString::fromStdString(rec->state + " " + rec->endReason + " " + rec->message) +
                                              err)); // nobody finalised it
        target = rec->targetPid.value_or(0);
        samples = liveSampleCount(db, traceId);
        // The progress line counts sampling moments (one per reading, whatever the series).
        const std::int64_t moments = liveSampleMoments(db, traceId);
        QVERIFY2(moments >= reported, qPrintable(QStringLiteral("%1 moments stored, %2 reported").arg(moments).arg(reported)));
        QVERIFY(listSeries(db, traceId).empty());
    }
    if (target > 0) ::kill(static_cast<pid_t>(target), SIGKILL); // the orphaned program
    // Opening it again finalises it, every committed sample included.
    const auto r = runMemviz({"summary", store, "--json"});
    QVERIFY2(r.exitCode == 0, r.err.constData());
    const QJsonObject o = QJsonDocument::fromJson(r.out).object();
    QCOMPARE(o["recording"].toObject()["state"].toString(), QStringLiteral("finalized"));
    QCOMPARE(o["recording"].toObject()["end_reason"].toString(), QStringLiteral("recorder-died"));
    QCOMPARE(o["devices"].toArray().size(), 1);
    Database db(store.toStdString(), Database::Mode::ReadOnly);
    QCOMPARE(liveSampleCount(db, traceId), samples);
    std::int64_t points = 0;
    for (const SeriesInfo& s : listSeries(db, traceId)) {
        if (s.name == "rss") {
            points = s.pointCount;
            QCOMPARE(o["devices"].toArray()[0].toObject()["peak_bytes"].toInteger(), s.vMax);
        }
    }
    const auto rssSamples = samplesOnMonotonicClock(db, traceId, "rss");
    QCOMPARE(points, static_cast<std::int64_t>(rssSamples.size()));
}

void TestLiveProc::recordCommandEndToEnd() {
    QTemporaryDir dir;
    const QString store = dir.filePath("cli.memviz");
    const auto r = runMemviz(
        {"record", "--out", store, "--interval-ms", "25", "--json", "--", kSteps, "--hold-ms", "250", "--exit-code", "3"});
    QVERIFY2(r.exitCode == 0, r.err.constData());
    const QJsonObject o = QJsonDocument::fromJson(r.out).object();
    QCOMPARE(o["format"].toString(), QStringLiteral("memviz-live-proc"));
    QCOMPARE(o["recording"].toObject()["exit_code"].toInt(), 3);
    QCOMPARE(o["recording"].toObject()["end_reason"].toString(), QStringLiteral("exited"));
    QVERIFY(o["samples"].toInteger() > 20);
    const QJsonObject device = o["devices"].toArray()[0].toObject();
    QCOMPARE(device["device"].toString(), QStringLiteral("process"));
    QVERIFY(device["peak_bytes"].toInteger() >= 2 * kStep);
    // The store reads like any other: summary (with how it ended), ops, screenshot.
    const auto text = runMemviz({"summary", store});
    QCOMPARE(text.exitCode, 0);
    QVERIFY2(text.out.contains("the program exited with status 3"), text.out.constData());
    QVERIFY(text.out.contains("launched and sampled every 25 ms"));
    const auto summary = runMemviz({"summary", store, "--json"});
    QCOMPARE(QJsonDocument::fromJson(summary.out).object()["devices"].toArray()[0].toObject()["peak_bytes"].toInteger(),
             device["peak_bytes"].toInteger());
    QCOMPARE(runMemviz({"ops", store}).exitCode, 0);
    const QString png = dir.filePath("shot.png");
    const auto shot = runMemviz({"screenshot", store, "--out", png, "--size", "1000x700"});
    QVERIFY2(shot.exitCode == 0, shot.err.constData());
    QVERIFY(QImage(png).width() == 1000);
    // A second recording goes into the same store as a new trace.
    QCOMPARE(runMemviz({"record", "--out", store, "--duration", "0.2", "--", "/bin/sleep", "5"}).exitCode, 0);
    const auto traces = runMemviz({"traces", store, "--json"});
    QCOMPARE(QJsonDocument::fromJson(traces.out).array().size(), 2);
}

void TestLiveProc::recordUsageErrors() {
    QTemporaryDir dir;
    const QString store = dir.filePath("u.memviz");
    struct Case {
        QStringList args;
        int status;
        QByteArray message;
    };
    const Case cases[] = {
        {{"record", "--", "/bin/true"}, 2, "--out"},
        {{"record", "--out", store}, 2, "exactly one of"},
        {{"record", "--out", store, "--pid", "1", "--", "/bin/true"}, 2, "exactly one of"},
        {{"record", "--out", store, "--interval-ms", "5", "--", "/bin/true"}, 2, "from 10"},
        {{"record", "--out", store, "--duration", "-1", "--", "/bin/true"}, 2, "positive"},
        {{"record", "--out", store, "--pid", "abc"}, 2, "process id"},
        {{"record", "--out", store, "--listen", "10.1.2.3:80"}, 2, "local only"},
        {{"record", "--out", store, "--", "no-such-program-for-memviz"}, 1, "not found on PATH"},
    };
    for (const Case& c : cases) {
        const auto r = runMemviz(c.args);
        QVERIFY2(r.exitCode == c.status, qPrintable(c.args.join(' ') + ": " + r.err));
        QVERIFY2(r.err.contains(c.message), qPrintable(c.args.join(' ') + ": " + r.err));
    }
    QVERIFY(!QFileInfo::exists(store)); // every one of them refused before touching the store
}

QTEST_GUILESS_MAIN(TestLiveProc)
#include "tst_live_proc.moc"

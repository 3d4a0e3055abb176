// SPDX-License-Identifier: MIT
// The PyTorch probe stream: a hand-written client over both socket kinds, then the real
// probe (the memviz_probe package, python/memviz_probe/) running a tiny training loop under /usr/bin/python3
// with Debian's PyTorch: op names, phases, steps and monotonic times arrive and are stored;
// memviz absent or going away leaves the script unharmed; `memviz record --listen` end to
// end. The torch tests skip cleanly when PyTorch is not installed.
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QtTest>

#include <algorithm>
#include <map>
#include <set>

#include <arpa/inet.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>

#include "ProbeClient.h"
#include "TestSupport.h"
#include "formats/live/LiveQueries.h"
#include "formats/live/ProbeRecorder.h"
#include "store/Database.h"
#include "store/OpsHeldAt.h"
#include "store/OpsQuery.h"
#include "store/TraceQueries.h"

using namespace memviz;
using namespace memviz::test;

namespace {

const QString kPython = memviz::test::torchPython();
constexpr std::int64_t kMiB = 1024 * 1024;

// A tiny training loop. It knows its own figures and prints them: the steps it took and
// the bytes of the one big tensor it makes between two marks.
const QByteArray kTrainScript = R"PY(
import sys, time, torch, memviz_probe
torch.manual_seed(0)
steps = int(sys.argv[1]) if len(sys.argv) > 1 else 2
pause = float(sys.argv[2]) if len(sys.argv) > 2 else 0.0
net = torch.nn.Sequential(torch.nn.Linear(32, 64), torch.nn.ReLU(), torch.nn.Linear(64, 4))
opt = torch.optim.SGD(net.parameters(), lr=0.1)
x = torch.randn(16, 32)
y = torch.randint(0, 4, (16,))
for i in range(steps):
    opt.zero_grad()
    loss = torch.nn.functional.cross_entropy(net(x), y)
    loss.backward()
    opt.step()
    time.sleep(pause)
memviz_probe.mark("big tensor")
big = torch.ones(4 * 1024 * 1024)  # 16 MiB of float32
print("big_bytes", big.numel() * big.element_size())
print("steps", steps)
print("trained")
)PY";

bool torchAvailable() {
    static const bool ok = [] {
        if (!QFileInfo(kPython).isExecutable()) return false;
        const auto r = runProcess(kPython, {"-c", "import torch"}, 120000);
        return r.exitCode == 0;
    }();
    return ok;
}

#define REQUIRE_TORCH()                                                                                                          \
    if (!torchAvailable()) MEMVIZ_SKIP_OR_FAIL(qPrintable(memviz::test::torchMissingMessage()))

// Twenty Adam steps of a small MLP on CPU; prints the parameters' bytes.
const QByteArray kAdamScript = R"PY(
import torch
torch.manual_seed(0)
net = torch.nn.Sequential(torch.nn.Linear(512, 2048), torch.nn.ReLU(), torch.nn.Linear(2048, 2048), torch.nn.ReLU(),
                          torch.nn.Linear(2048, 10))
opt = torch.optim.Adam(net.parameters(), lr=1e-3)
x = torch.randn(256, 512)
y = torch.randint(0, 10, (256,))
for i in range(20):
    opt.zero_grad()
    torch.nn.functional.cross_entropy(net(x), y).backward()
    opt.step()
print("param_bytes", sum(p.numel() * p.element_size() for p in net.parameters()))
)PY";

// Runs the training script (or `text`) under the probe; returns the finished process' output.
ProcessResult runProbe(const QTemporaryDir& dir, const QStringList& probeArgs, const QStringList& scriptArgs = {},
                       const QByteArray& text = kTrainScript) {
    const QString script = writeFile(dir, "train.py", text);
    QProcess p;
    QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
    env.insert("PYTHONPATH", QStringLiteral(MEMVIZ_PROBE_DIR));
    env.insert("OMP_NUM_THREADS", "1");
    p.setProcessEnvironment(env);
    p.start(kPython, QStringList{"-m", "memviz_probe"} + probeArgs + QStringList{script} + scriptArgs);
    ProcessResult r;
    if (!p.waitForFinished(300000)) return r;
    r.exitCode = p.exitStatus() == QProcess::NormalExit ? p.exitCode() : -1;
    r.out = p.readAllStandardOutput();
    r.err = p.readAllStandardError();
    return r;
}

std::int64_t printed(const ProcessResult& r, const QByteArray& key) {
    for (const QByteArray& line : r.out.split('\n'))
        if (line.startsWith(key + " ")) return line.mid(key.size() + 1).toLongLong();
    return -1;
}

int connectTo(const ProbeAddress& a) {
    if (a.kind == ProbeAddress::Kind::Unix) {
        const int fd = ::socket(AF_UNIX, SOCK_STREAM, 0);
        sockaddr_un sa{};
        sa.sun_family = AF_UNIX;
        std::strncpy(sa.sun_path, a.path.c_str(), sizeof sa.sun_path - 1);
        if (::connect(fd, reinterpret_cast<sockaddr*>(&sa), sizeof sa) != 0) {
            ::close(fd);
            return -1;
        }
        return fd;
    }
    const int fd = ::socket(AF_INET, SOCK_STREAM, 0);
    sockaddr_in sa{};
    sa.sin_family = AF_INET;
    sa.sin_port = htons(static_cast<std::uint16_t>(a.port));
    sa.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    if (::connect(fd, reinterpret_cast<sockaddr*>(&sa), sizeof sa) != 0) {
        ::close(fd);
        return -1;
    }
    return fd;
}

} // namespace

class TestLiveProbe : public QObject {
    Q_OBJECT
private slots:
    void handWrittenStream_data();
    void handWrittenStream();
    void trainingStepUnderTheProbe();
    void moduleMode();
    void scriptRunsWhenNobodyListens();
    void scriptRunsOnWhenMemvizGoesAway();
    void recordListenEndToEnd();
    void adamStepsOperatorsAtThePeak();
};

void TestLiveProbe::handWrittenStream_data() {
    QTest::addColumn<QString>("address");
    QTest::newRow("unix") << "unix";
    QTest::newRow("tcp") << "127.0.0.1:0";
}

void TestLiveProbe::handWrittenStream() {
    QFETCH(QString, address);
    QTemporaryDir dir;
    const QString store = dir.filePath("h.memviz");
    const ProbeAddress where = parseProbeAddress(address == "unix" ? "unix:" + dir.filePath("p.sock").toStdString()
                                                                   : address.toStdString());
    ProbeRecorder r(store.toStdString(), where);
    r.start();
    QTRY_VERIFY(r.status().state == RecorderStatus::State::Waiting);
    const int fd = connectTo(r.address());
    QVERIFY(fd >= 0);
    // A second probe is refused while the first is recorded.
    QTRY_VERIFY(r.status().state == RecorderStatus::State::Recording);
    QTRY_COMPARE(connectTo(r.address()), -1);
    // Lines split across writes, a malformed one, then a goodbye.
    sendAll(fd,
            R"({"type":"hello","protocol":"memviz-probe","version":1,"pid":77,"argv":["t.py"]})"
            "\n"
            R"({"type":"op","t":100,"dur":50,"name":"aten::ones","phase":"forward","step":0,"mem":{"cpu":{"before":10,"after":)");
    QTest::qWait(50);
    sendAll(fd, "1010}}}\n{oops\n"
                R"({"type":"mark","t":200,"label":"hi"})"
                "\n"
                R"({"type":"bye","t":300,"exit_code":0})"
                "\n");
    QVERIFY(r.waitFor(10000));
    ::close(fd);
    const RecorderStatus s = r.status();
    QVERIFY2(s.state == RecorderStatus::State::Finished, s.message.c_str());
    QCOMPARE(QString::fromStdString(s.endReason), QStringLiteral("exited"));
    QVERIFY2(QString::fromStdString(s.message).contains("1 malformed line(s) skipped (first: line 3"), s.message.c_str());
    Database db(store.toStdString());
    const auto ops = queryOps(db, s.traceId, {});
    QCOMPARE(ops.size(), std::size_t(1));
    QCOMPARE(ops[0].bytesAllocated, 1000);
    QCOMPARE(findLiveRecording(db, s.traceId)->targetPid.value_or(0), 77);
    if (where.kind == ProbeAddress::Kind::Unix) QVERIFY(!QFileInfo::exists(QString::fromStdString(where.path)));
}

void TestLiveProbe::trainingStepUnderTheProbe() {
    REQUIRE_TORCH();
    QTemporaryDir dir;
    const QString store = dir.filePath("t.memviz");
    const ProbeAddress where = parseProbeAddress("unix:" + dir.filePath("p.sock").toStdString());
    ProbeRecorder recorder(store.toStdString(), where);
    recorder.start();
    const ProcessResult script = runProbe(dir, {"--connect", QString::fromStdString(where.text())});
    QVERIFY2(script.exitCode == 0, script.err.constData());
    QVERIFY(script.out.contains("trained"));
    QVERIFY2(!script.err.contains("memviz_probe:"), script.err.constData()); // no warnings
    QVERIFY(recorder.waitFor(30000));
    const RecorderStatus s = recorder.status();
    QVERIFY2(s.state == RecorderStatus::State::Finished, s.message.c_str());
    QCOMPARE(QString::fromStdString(s.endReason), QStringLiteral("exited"));
    QCOMPARE(s.exitCode.value_or(-1), 0);

    Database db(store.toStdString());
    // Operator names and phases, stored relationally.
    std::map<std::string, std::set<std::string>> phasesOf;
    {
        Statement q(db, "SELECT DISTINCT name, phase FROM live_ops WHERE trace_id = ?");
        q.bind(1, s.traceId);
        while (q.step()) phasesOf[q.text(0)].insert(q.text(1));
    }
    QVERIFY(phasesOf["aten::addmm"].count("forward"));
    QVERIFY(phasesOf["aten::relu"].count("forward"));
    QVERIFY(phasesOf["aten::mm"].count("backward"));
    QVERIFY(phasesOf["aten::threshold_backward"].count("backward"));
    QVERIFY(phasesOf["aten::add_"].count("optimizer")); // SGD's parameter update
    // Times: monotonic in record order, every record inside the recording.
    {
        Statement q(db, "SELECT t, t_end FROM live_ops WHERE trace_id = ? ORDER BY seq");
        q.bind(1, s.traceId);
        std::int64_t previous = -1, count = 0;
        while (q.step()) {
            QVERIFY(q.int64(0) >= previous);
            QVERIFY(q.int64(1) >= q.int64(0));
            previous = q.int64(0);
            ++count;
        }
        QVERIFY(count > 50);
    }
    // The steps the script took, and its mark.
    const auto markers = listLiveMarkers(db, s.traceId);
    QStringList steps;
    for (const LiveMarker& m : markers)
        if (m.kind == "step") steps << QString::fromStdString(m.label);
    QCOMPARE(steps.size(), printed(script, "steps"));
    QCOMPARE(steps.last(), QStringLiteral("step %1").arg(printed(script, "steps")));
    QVERIFY(std::any_of(markers.begin(), markers.end(),
                        [](const LiveMarker& m) { return m.kind == "user" && m.label == "big tensor"; }));
    const auto spans = livePhaseSpans(markers, liveExtent(db, s.traceId));
    QVERIFY(spans.size() >= 6); // forward, backward, optimizer per step
    // The big tensor: its op moved the CPU heap by its bytes (plus the allocator's rounding).
    const std::int64_t big = printed(script, "big_bytes");
    QCOMPARE(big, 16 * kMiB);
    {
        Statement q(db, "SELECT bytes_after - bytes_before FROM live_ops WHERE trace_id = ? AND device = 'cpu' "
                        "AND t >= (SELECT t FROM live_markers WHERE trace_id = ?1 AND label = 'big tensor') "
                        "ORDER BY bytes_after - bytes_before DESC LIMIT 1");
        q.bind(1, s.traceId);
        QVERIFY(q.step());
        QVERIFY2(q.int64(0) >= big && q.int64(0) <= big + 64 * 1024, qPrintable(QString::number(q.int64(0))));
    }
    // Stored like a file trace: summary and ops work on it.
    const TraceSummary summary = loadSummary(db, s.traceId);
    QCOMPARE(QString::fromStdString(summary.trace.format), QStringLiteral("memviz-live-probe"));
    QCOMPARE(QString::fromStdString(summary.devices.at(0).name), QStringLiteral("cpu"));
    QVERIFY(summary.devices[0].peakBytes > big);
    const auto ops = queryOps(db, s.traceId, {});
    QVERIFY(
        std::any_of(ops.begin(), ops.end(), [&](const OpRow& o) { return o.name == "aten::ones" && o.bytesAllocated >= big; }));
    // While recording the table is the calls' before/after changes; once finalised, op mode's
    // rows are the storages each operator made (and which of them went): other rows, as many or not.
    QVERIFY(!queryLiveOps(db, s.traceId, {}).empty());
    const auto ones = std::find_if(ops.begin(), ops.end(), [](const OpRow& o) { return o.name == "aten::ones"; });
    QVERIFY(ones != ops.end());
    QCOMPARE(ones->bytesAllocated, big); // the storage's own size: paired, not the heap's growth
}

// Twenty Adam steps of a small MLP (the issue's case: 'aten::mm' was said to hold more than the
// peak). What each operator holds at the peak is what it made and is alive then: never more than
// the peak; the parameters (made by aten::empty) and Adam's two moment buffers (aten::zeros_like)
// exactly the sizes the script prints; the whole table equal to the oracle's reading of the
// recording's storages (tests/oracles/probe_ops_at_peak.py); `memviz ranks` names it so.
void TestLiveProbe::adamStepsOperatorsAtThePeak() {
    REQUIRE_TORCH();
    QTemporaryDir dir;
    const QString store = dir.filePath("adam.memviz");
    const ProbeAddress where = parseProbeAddress("unix:" + dir.filePath("a.sock").toStdString());
    ProbeRecorder recorder(store.toStdString(), where);
    recorder.start();
    const ProcessResult script = runProbe(dir, {"--connect", QString::fromStdString(where.text())}, {}, kAdamScript);
    QVERIFY2(script.exitCode == 0, script.err.constData());
    QVERIFY(recorder.waitFor(60000));
    const RecorderStatus s = recorder.status();
    QVERIFY2(s.state == RecorderStatus::State::Finished, s.message.c_str());
    const std::int64_t params = printed(script, "param_bytes");
    QVERIFY(params > 16 * kMiB);

    Database db(store.toStdString());
    const TraceSummary summary = loadSummary(db, s.traceId);
    const DeviceSummary& cpu = summary.devices.at(0);
    QCOMPARE(QString::fromStdString(cpu.name), QStringLiteral("cpu"));
    const OpsHeldAt held = opsHeldAt(db, s.traceId, cpu.device, cpu.peakTimeNs);
    QVERIFY(held.paired);
    std::map<std::string, std::int64_t> byOp;
    std::int64_t sum = 0;
    for (const auto& [op, bytes] : held.ops) {
        QVERIFY2(bytes >= 0 && bytes <= cpu.peakBytes, op.c_str());
        if (bytes) byOp[op] = bytes;
        sum += bytes;
    }
    QVERIFY(sum <= cpu.peakBytes);
    QCOMPARE(byOp["aten::empty"], params);
    QCOMPARE(byOp["aten::zeros_like"], 2 * params);
    qInfo("peak %.2f MiB; at the peak: %s %.2f MiB (paired)", double(cpu.peakBytes) / kMiB, held.ops.front().first.c_str(),
          double(held.ops.front().second) / kMiB);
    // The oracle, from the recording's tables.
    const QString py = python();
    if (py.isEmpty()) MEMVIZ_SKIP_OR_FAIL("no python3 for the oracle");
    const auto oracle = runProcess(py, {test::oracle("probe_ops_at_peak.py"), store, QString::number(s.traceId), "cpu"});
    QVERIFY2(oracle.exitCode == 0, oracle.err.constData());
    const QJsonObject o = QJsonDocument::fromJson(oracle.out).object();
    QCOMPARE(o["peak_bytes"].toInteger(), cpu.peakBytes);
    QCOMPARE(o["peak_time_ns"].toInteger(), cpu.peakTimeNs);
    std::map<std::string, std::int64_t> expected;
    const QJsonObject eo = o["ops"].toObject();
    for (auto it = eo.begin(); it != eo.end(); ++it)
        if (it.value().toInteger()) expected[it.key().toStdString()] = it.value().toInteger();
    QCOMPARE(byOp, expected);
    // The operator table: frees land under the operator that made the storage.
    const auto ops = queryOps(db, s.traceId, {});
    const auto mm = std::find_if(ops.begin(), ops.end(), [](const OpRow& r) { return r.name == "aten::mm"; });
    QVERIFY(mm != ops.end());
    QVERIFY(mm->bytesFreed > 0 && mm->bytesFreed <= mm->bytesAllocated);
}

void TestLiveProbe::moduleMode() {
    REQUIRE_TORCH();
    QTemporaryDir dir;
    const QString store = dir.filePath("m.memviz");
    const ProbeAddress where = parseProbeAddress("unix:" + dir.filePath("p.sock").toStdString());
    ProbeRecorder recorder(store.toStdString(), where);
    recorder.start();
    const ProcessResult script = runProbe(dir, {"--connect", QString::fromStdString(where.text()), "--mode", "module"}, {"3"});
    QVERIFY2(script.exitCode == 0, script.err.constData());
    QVERIFY(recorder.waitFor(30000));
    Database db(store.toStdString());
    std::map<std::string, std::int64_t> calls;
    Statement q(db, "SELECT kind || ' ' || name, count(DISTINCT seq) FROM live_ops WHERE trace_id = ? GROUP BY 1");
    q.bind(1, recorder.status().traceId);
    while (q.step()) calls[q.text(0)] = q.int64(1);
    QCOMPARE(calls["module Sequential"], 3);
    QCOMPARE(calls["module Sequential.0"], 3); // the first Linear, named by its path
    QCOMPARE(calls["module Sequential.1"], 3);
    QCOMPARE(calls["backward backward"], 3);
    QCOMPARE(calls["optimizer SGD.step"], 3);
    QCOMPARE(calls["optimizer SGD.zero_grad"], 3);
    const auto meta = loadMetadata(db, recorder.status().traceId);
    QVERIFY(std::find(meta.begin(), meta.end(), std::make_pair(std::string("probe_mode"), std::string("module"))) != meta.end());
}

void TestLiveProbe::scriptRunsWhenNobodyListens() {
    REQUIRE_TORCH();
    QTemporaryDir dir;
    const QString nowhere = "unix:" + dir.filePath("nobody.sock");
    const ProcessResult script = runProbe(dir, {"--connect", nowhere});
    QVERIFY2(script.exitCode == 0, script.err.constData());
    QVERIFY(script.out.contains("trained"));
    QCOMPARE(script.err.count("memviz_probe:"), 1);
    QVERIFY2(script.err.contains("memviz is not listening on " + nowhere.toUtf8()), script.err.constData());
}

void TestLiveProbe::scriptRunsOnWhenMemvizGoesAway() {
    REQUIRE_TORCH();
    QTemporaryDir dir;
    const ProbeAddress where = parseProbeAddress("unix:" + dir.filePath("p.sock").toStdString());
    auto recorder = std::make_unique<ProbeRecorder>(dir.filePath("g.memviz").toStdString(), where);
    recorder->start();
    const QString script = writeFile(dir, "train.py", kTrainScript);
    QProcess p;
    QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
    env.insert("PYTHONPATH", QStringLiteral(MEMVIZ_PROBE_DIR));
    p.setProcessEnvironment(env);
    // 40 steps with a pause: long enough to pull the plug in the middle.
    p.start(kPython, {"-m", "memviz_probe", "--connect", QString::fromStdString(where.text()), script, "40", "0.05"});
    QTRY_VERIFY_WITH_TIMEOUT(recorder->status().committedSamples > 0, 60000);
    recorder.reset(); // stops: the connection closes under the running script
    QVERIFY(p.waitForFinished(120000));
    const QByteArray err = p.readAllStandardError();
    QCOMPARE(p.exitCode(), 0);
    QVERIFY(p.readAllStandardOutput().contains("trained"));
    QCOMPARE(err.count("memviz_probe:"), 1);
    QVERIFY2(err.contains("lost the connection to memviz"), err.constData());
}

void TestLiveProbe::recordListenEndToEnd() {
    REQUIRE_TORCH();
    QTemporaryDir dir;
    const QString store = dir.filePath("cli.memviz");
    const QString address = "unix:" + dir.filePath("cli.sock");
    QProcess memviz;
    memviz.setReadChannel(QProcess::StandardError);
    memviz.start(QStringLiteral(MEMVIZ_BINARY), {"record", "--listen", address, "--out", store, "--json", "--wait", "120"});
    QVERIFY(memviz.waitForReadyRead(10000));
    QVERIFY(memviz.readAllStandardError().contains("waiting for a probe on " + address.toUtf8()));
    const ProcessResult script = runProbe(dir, {"--connect", address});
    QVERIFY2(script.exitCode == 0, script.err.constData());
    QVERIFY(memviz.waitForFinished(60000));
    QCOMPARE(memviz.exitCode(), 0);
    const QJsonObject o = QJsonDocument::fromJson(memviz.readAllStandardOutput()).object();
    QCOMPARE(o["format"].toString(), QStringLiteral("memviz-live-probe"));
    QCOMPARE(o["recording"].toObject()["exit_code"].toInt(-1), 0);
    QCOMPARE(o["recording"].toObject()["source"].toString(), QStringLiteral("probe"));
    const auto ops = runMemviz({"ops", store, "--json"});
    QCOMPARE(ops.exitCode, 0);
    QStringList names;
    for (const QJsonValue& v : QJsonDocument::fromJson(ops.out).object()["ops"].toArray())
        names << v.toObject()["name"].toString();
    QVERIFY2(names.contains("aten::ones") && names.contains("aten::addmm"), qPrintable(names.join(", ")));
    // Nobody connects: --wait gives up with a clear message and status 1.
    const auto lonely = runMemviz(
        {"record", "--listen", "unix:" + dir.filePath("lonely.sock"), "--out", dir.filePath("l.memviz"), "--wait", "0.3"});
    QCOMPARE(lonely.exitCode, 1);
    QVERIFY2(lonely.err.contains("no probe connected"), lonely.err.constData());
}

QTEST_GUILESS_MAIN(TestLiveProbe)
#include "tst_live_probe.moc"

// SPDX-License-Identifier: MIT
// Every rank of a distributed job, live (issue 13): `memviz record --listen` takes several
// probes at once and keeps each process as its own trace in one store, named by its rank.
// First hand-written probes (two at once, lines interleaved, one without a rank), then a
// real torch.distributed job on CPU with the gloo backend (tests/data/ranks/gloo_ranks.py),
// three ranks under the probe, rank r on a batch of 16*(r+1): one trace per rank with its
// operator rows, and the rank with the biggest batch has the biggest peak.
#include <QDeadlineTimer>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QtTest>

#include <arpa/inet.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>

#include "ProbeClient.h"
#include "TestSupport.h"
#include "formats/live/LiveQueries.h"
#include "formats/live/ProbeProtocol.h"
#include "formats/live/ProbeRecorder.h"
#include "store/Database.h"
#include "store/OpsQuery.h"
#include "store/TraceQueries.h"

using namespace memviz;
using namespace memviz::test;

namespace {

const QString kPython = memviz::test::torchPython();
constexpr std::int64_t kMiB = 1024 * 1024;

bool torchAvailable() {
    static const bool ok = [] {
        if (!QFileInfo(kPython).isExecutable()) return false;
        return runProcess(kPython, {"-c", "import torch, torch.distributed"}, 120000).exitCode == 0;
    }();
    return ok;
}

std::string metadataValue(Database& db, std::int64_t trace, const std::string& key) {
    for (const auto& [k, v] : loadMetadata(db, trace))
        if (k == key) return v;
    return {};
}

// A port nobody listens on now, for the job's rendezvous (MASTER_PORT).
int freePort() {
    const int fd = ::socket(AF_INET, SOCK_STREAM, 0);
    sockaddr_in sa{};
    sa.sin_family = AF_INET;
    sa.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    socklen_t len = sizeof sa;
    int port = 0;
    if (::bind(fd, reinterpret_cast<sockaddr*>(&sa), sizeof sa) == 0 &&
        ::getsockname(fd, reinterpret_cast<sockaddr*>(&sa), &len) == 0)
        port = ntohs(sa.sin_port);
    ::close(fd);
    return port;
}

// `memviz record --listen unix:DIR/ranks.sock --out STORE`, once its socket exists.
bool startListening(QProcess& memviz, const QTemporaryDir& dir, const QString& store) {
    memviz.start(QStringLiteral(MEMVIZ_BINARY), {"record", "--listen", "unix:" + dir.filePath("ranks.sock"), "--out", store,
                                                  "--json", "--wait", "120", "--grace", "1"});
    if (!memviz.waitForStarted()) return false;
    QDeadlineTimer deadline(10000);
    while (!QFileInfo::exists(dir.filePath("ranks.sock")) && !deadline.hasExpired()) QTest::qWait(20);
    return QFileInfo::exists(dir.filePath("ranks.sock"));
}

} // namespace

class TestLiveRanks : public QObject {
    Q_OBJECT
private slots:
    void twoHandWrittenProbesAtOnce();
    void oneProbeStillEndsTheRecording();
    void glooJobUnderOneListen();
    void torchrunJobUnderOneListen();
};

// Two probes connected at the same time, their lines interleaved: two traces, each with
// exactly its own operators and bytes; the one with RANK in its hello is named by it, the
// other by its pid.
void TestLiveRanks::twoHandWrittenProbesAtOnce() {
    QTemporaryDir dir;
    const QString store = dir.filePath("two.memviz");
    const std::string sock = dir.filePath("p.sock").toStdString();
    ProbeRecorder r(store.toStdString(), parseProbeAddress("unix:" + sock));
    r.setAcceptSeveral(true, 300'000'000);
    r.start();
    QTRY_VERIFY(r.status().state == RecorderStatus::State::Waiting);
    const int a = connectUnix(sock);
    QVERIFY(a >= 0);
    QTRY_COMPARE(r.traceIds().size(), std::size_t(1));
    const int b = connectUnix(sock); // while a is being recorded: accepted too
    QVERIFY(b >= 0);
    QTRY_COMPARE(r.traceIds().size(), std::size_t(2));
    sendAll(a, R"({"type":"hello","protocol":"memviz-probe","version":1,"pid":501,"argv":["train.py"],"rank":1,"local_rank":1,"world_size":2})"
               "\n");
    sendAll(b, R"({"type":"hello","protocol":"memviz-probe","version":1,"pid":502,"argv":["other.py"]})"
               "\n");
    // a: 0 -> 3000 -> 1000 bytes; b: 0 -> 70000 bytes.
    sendAll(a, opLine(100, "aten::ones", 0, 3000));
    sendAll(b, opLine(100, "aten::zeros", 0, 70000));
    QTest::qWait(30);
    sendAll(a, opLine(200, "aten::mul", 3000, 1000));
    sendAll(a, R"({"type":"bye","t":300,"exit_code":0})"
               "\n");
    sendAll(b, R"({"type":"bye","t":400,"exit_code":3})"
               "\n");
    QVERIFY(r.waitFor(20000));
    ::close(a);
    ::close(b);
    const RecorderStatus s = r.status();
    QVERIFY2(s.state == RecorderStatus::State::Finished, s.message.c_str());
    QCOMPARE(s.exitCode.value_or(-1), 3); // the one that failed
    QVERIFY2(QString::fromStdString(s.message).contains("rank 1: the script exited with status 0"), s.message.c_str());
    QVERIFY2(QString::fromStdString(s.message).contains("pid 502: the script exited with status 3"), s.message.c_str());
    const auto ids = r.traceIds();
    QCOMPARE(ids.size(), std::size_t(2));
    Database db(store.toStdString());
    QCOMPARE(listTraces(db).size(), std::size_t(2));
    const TraceSummary ta = loadSummary(db, ids[0]);
    const TraceSummary tb = loadSummary(db, ids[1]);
    QVERIFY2(QString::fromStdString(ta.trace.sourcePath).startsWith("rank 1 of 2: train.py"), ta.trace.sourcePath.c_str());
    QVERIFY2(QString::fromStdString(tb.trace.sourcePath).startsWith("other.py (probe, pid 502)"), tb.trace.sourcePath.c_str());
    QCOMPARE(metadataValue(db, ids[0], probe_metadata::kRank), std::string("1"));
    QCOMPARE(metadataValue(db, ids[0], probe_metadata::kWorldSize), std::string("2"));
    QCOMPARE(metadataValue(db, ids[1], probe_metadata::kRank), std::string());
    QCOMPARE(ta.devices.size(), std::size_t(1));
    QCOMPARE(ta.devices[0].peakBytes, std::int64_t(3000));
    QCOMPARE(ta.devices[0].finalBytes, std::int64_t(1000));
    QCOMPARE(tb.devices[0].peakBytes, std::int64_t(70000));
    const auto opsA = queryOps(db, ids[0], {});
    const auto opsB = queryOps(db, ids[1], {});
    QCOMPARE(opsA.size(), std::size_t(2));
    QCOMPARE(opsB.size(), std::size_t(1));
    QCOMPARE(QString::fromStdString(opsB[0].name), QStringLiteral("aten::zeros"));
    QCOMPARE(findLiveRecording(db, ids[1])->exitCode.value_or(-1), 3);
    QVERIFY(!QFileInfo::exists(QString::fromStdString(sock)));
}

// One probe, several accepted: the recording still ends by itself once it has gone (after
// the grace period), with that probe's own end.
void TestLiveRanks::oneProbeStillEndsTheRecording() {
    QTemporaryDir dir;
    const std::string sock = dir.filePath("one.sock").toStdString();
    ProbeRecorder r(dir.filePath("one.memviz").toStdString(), parseProbeAddress("unix:" + sock));
    r.setAcceptSeveral(true, 200'000'000);
    r.start();
    QTRY_VERIFY(r.status().state == RecorderStatus::State::Waiting);
    const int fd = connectUnix(sock);
    QVERIFY(fd >= 0);
    sendAll(fd, R"({"type":"hello","protocol":"memviz-probe","version":1,"pid":9,"argv":["x.py"]})"
                "\n" + opLine(5, "aten::ones", 0, 8));
    ::close(fd); // no goodbye
    QVERIFY(r.waitFor(20000));
    const RecorderStatus s = r.status();
    QCOMPARE(QString::fromStdString(s.endReason), QStringLiteral("disconnected"));
    QCOMPARE(r.traceIds().size(), std::size_t(1));
}

void TestLiveRanks::glooJobUnderOneListen() {
    if (!torchAvailable()) MEMVIZ_SKIP_OR_FAIL(qPrintable(memviz::test::torchMissingMessage()));
    constexpr int kRanks = 3;
    QTemporaryDir dir;
    const QString store = dir.filePath("gloo.memviz");
    const QString address = "unix:" + dir.filePath("ranks.sock");
    QProcess memviz;
    QVERIFY(startListening(memviz, dir, store));
    const int port = freePort();
    QVERIFY(port > 0);
    std::vector<std::unique_ptr<QProcess>> ranks;
    for (int rank = 0; rank < kRanks; ++rank) {
        auto p = std::make_unique<QProcess>();
        QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
        env.insert("PYTHONPATH", QStringLiteral(MEMVIZ_PROBE_DIR));
        env.insert("OMP_NUM_THREADS", "1");
        env.insert("RANK", QString::number(rank));
        env.insert("LOCAL_RANK", QString::number(rank));
        env.insert("WORLD_SIZE", QString::number(kRanks));
        env.insert("MASTER_ADDR", "127.0.0.1");
        env.insert("MASTER_PORT", QString::number(port));
        env.insert("GLOO_SOCKET_IFNAME", "lo"); // loopback only: no network needed (CI containers)
        p->setProcessEnvironment(env);
        p->start(kPython, {"-m", "memviz_probe", "--connect", address, QStringLiteral(MEMVIZ_GLOO_SCRIPT), "2"});
        ranks.push_back(std::move(p));
    }
    std::vector<std::int64_t> activation(kRanks, 0);
    for (int rank = 0; rank < kRanks; ++rank) {
        QProcess& p = *ranks[rank];
        QVERIFY(p.waitForFinished(300000));
        const QByteArray out = p.readAllStandardOutput();
        QVERIFY2(p.exitCode() == 0, (out + p.readAllStandardError()).constData());
        // "rank R batch B activation_bytes N": the script's own figure, B*16*128*128*4.
        const QList<QByteArray> words = out.trimmed().split('\n').last().split(' ');
        QCOMPARE(words.size(), 6);
        QCOMPARE(words[1].toInt(), rank);
        activation[rank] = words[5].toLongLong();
        QCOMPARE(activation[rank], std::int64_t(16) * (rank + 1) * 16 * 128 * 128 * 4);
    }
    QVERIFY(memviz.waitForFinished(60000));
    const QByteArray out = memviz.readAllStandardOutput();
    QVERIFY2(memviz.exitCode() == 0, memviz.readAllStandardError().constData());
    const QJsonObject o = QJsonDocument::fromJson(out).object();
    QCOMPARE(o["traces"].toArray().size(), kRanks);

    Database db(store.toStdString(), Database::Mode::ReadOnly);
    const auto traces = listTraces(db);
    QCOMPARE(int(traces.size()), kRanks);
    std::vector<std::int64_t> peak(kRanks, -1);
    std::vector<std::int64_t> traceOf(kRanks, 0);
    for (const auto& t : traces) {
        const std::string rankText = metadataValue(db, t.id, probe_metadata::kRank);
        QVERIFY2(!rankText.empty(), t.sourcePath.c_str());
        const int rank = std::stoi(rankText);
        QVERIFY(rank >= 0 && rank < kRanks);
        QVERIFY2(traceOf[rank] == 0, "two traces for one rank");
        traceOf[rank] = t.id;
        QVERIFY2(QString::fromStdString(t.sourcePath).startsWith(QStringLiteral("rank %1 of %2: ").arg(rank).arg(kRanks)),
                 t.sourcePath.c_str());
        QCOMPARE(metadataValue(db, t.id, probe_metadata::kWorldSize), std::to_string(kRanks));
        QCOMPARE(findLiveRecording(db, t.id)->exitCode.value_or(-1), 0);
        const auto ops = queryOps(db, t.id, {});
        bool conv = false;
        for (const auto& op : ops) conv = conv || op.name == "aten::convolution";
        QVERIFY2(conv, "no aten::convolution row");
        const TraceSummary s = loadSummary(db, t.id);
        QCOMPARE(s.devices.size(), std::size_t(1));
        peak[rank] = s.devices[0].peakBytes;
    }
    // Rank r holds (r+1) times rank 0's activations, the weights being the same everywhere:
    // each rank's peak exceeds the one before by at least the difference of one activation
    // (16 more images, 16 MiB), so the biggest batch has the biggest peak.
    for (int rank = 1; rank < kRanks; ++rank)
        QVERIFY2(peak[rank] - peak[rank - 1] >= activation[rank] - activation[rank - 1],
                 qPrintable(QStringLiteral("rank %1 peak %2, rank %3 peak %4").arg(rank - 1).arg(peak[rank - 1]).arg(rank).arg(peak[rank])));
    QVERIFY(activation[1] - activation[0] == 16 * kMiB);

    // memviz ranks on the store: one row per rank in rank order with the peaks above, and the
    // imbalance between the biggest batch (rank 2) and the smallest (rank 0).
    const auto ranksOut = runMemviz({"ranks", store, "--json"});
    QVERIFY2(ranksOut.exitCode == 0, ranksOut.err.constData());
    const QJsonObject set = QJsonDocument::fromJson(ranksOut.out).object();
    const QJsonArray rows = set["ranks"].toArray();
    QCOMPARE(rows.size(), kRanks);
    for (int rank = 0; rank < kRanks; ++rank) {
        const QJsonObject row = rows[rank].toObject();
        QCOMPARE(row["name"].toString(), QStringLiteral("rank %1").arg(rank));
        QCOMPARE(row["trace_id"].toInteger(), traceOf[rank]);
        QCOMPARE(row["peak_bytes"].toInteger(), peak[rank]);
        QVERIFY2(!row["top_op"].toString().isEmpty(), ranksOut.out.constData());
    }
    const QJsonObject im = set["imbalance"].toObject();
    QCOMPARE(im["max_rank"].toString(), QStringLiteral("rank 2"));
    QCOMPARE(im["min_rank"].toString(), QStringLiteral("rank 0"));
    QCOMPARE(im["ratio"].toDouble(), double(peak[2]) / double(peak[0]));
}

// The same job launched by torchrun (`python3 -m torch.distributed.run`, two ranks on this
// host), the probe put under it with torchrun's -m: torchrun sets RANK, LOCAL_RANK and
// WORLD_SIZE, the probe sends them. PyTorch 1.13's torchrun under Python 3.11 needs
// `--redirects 1 --tee 1` (its default "0" parses to None there: Flag enums no longer iterate
// their zero member), as docs/cli.md says. Expected, from the script's own printout: two
// traces, ranks 0 and 1 of 2, rank 1's peak at least one activation (16 MiB) above rank 0's.
void TestLiveRanks::torchrunJobUnderOneListen() {
    if (!torchAvailable()) MEMVIZ_SKIP_OR_FAIL(qPrintable(memviz::test::torchMissingMessage()));
    QTemporaryDir dir;
    const QString store = dir.filePath("torchrun.memviz");
    const QString address = "unix:" + dir.filePath("ranks.sock");
    QProcess memviz;
    QVERIFY(startListening(memviz, dir, store));
    // Not --standalone: it always takes port 29400, which another job (or another test run
    // on the machine) may hold; the same rendezvous on a port that is free now.
    const int port = freePort();
    QVERIFY(port > 0);
    QProcess torchrun;
    QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
    env.insert("PYTHONPATH", QStringLiteral(MEMVIZ_PROBE_DIR));
    env.insert("OMP_NUM_THREADS", "1");
    env.insert("GLOO_SOCKET_IFNAME", "lo");
    torchrun.setProcessEnvironment(env);
    torchrun.start(kPython, {"-m", "torch.distributed.run", "--nnodes", "1", "--rdzv_backend", "c10d", "--rdzv_endpoint",
                             QStringLiteral("localhost:%1").arg(port), "--rdzv_id", "memviz-test", "--nproc_per_node", "2", "--redirects", "1",
                             "--tee", "1", "--log_dir", dir.filePath("logs"), "-m", "memviz_probe", "--connect", address,
                             QStringLiteral(MEMVIZ_GLOO_SCRIPT), "1"});
    QVERIFY(torchrun.waitForFinished(300000));
    const QByteArray out = torchrun.readAllStandardOutput();
    QVERIFY2(torchrun.exitCode() == 0, (out + torchrun.readAllStandardError()).constData());
    // "[default0]:rank 0 batch 16 activation_bytes N", one line per rank, in any order.
    std::vector<std::int64_t> activation(2, 0);
    for (const QByteArray& line : out.split('\n')) {
        const int at = line.indexOf("rank ");
        if (at < 0 || !line.contains("activation_bytes")) continue;
        const QList<QByteArray> words = line.mid(at).trimmed().split(' ');
        QCOMPARE(words.size(), 6);
        const int rank = words[1].toInt();
        QVERIFY(rank == 0 || rank == 1);
        activation[rank] = words[5].toLongLong();
    }
    QCOMPARE(activation[0], std::int64_t(16) * 16 * 128 * 128 * 4);
    QCOMPARE(activation[1], std::int64_t(32) * 16 * 128 * 128 * 4);
    QVERIFY(memviz.waitForFinished(60000));
    QVERIFY2(memviz.exitCode() == 0, memviz.readAllStandardError().constData());

    Database db(store.toStdString(), Database::Mode::ReadOnly);
    const auto traces = listTraces(db);
    QCOMPARE(int(traces.size()), 2);
    std::vector<std::int64_t> peak(2, -1);
    for (const auto& t : traces) {
        const int rank = std::stoi(metadataValue(db, t.id, probe_metadata::kRank));
        QVERIFY(rank == 0 || rank == 1);
        QVERIFY2(peak[rank] < 0, "two traces for one rank");
        QCOMPARE(metadataValue(db, t.id, probe_metadata::kLocalRank), std::to_string(rank));
        QCOMPARE(metadataValue(db, t.id, probe_metadata::kWorldSize), std::string("2"));
        QCOMPARE(findLiveRecording(db, t.id)->exitCode.value_or(-1), 0);
        peak[rank] = loadSummary(db, t.id).devices.at(0).peakBytes;
    }
    QVERIFY2(peak[1] - peak[0] >= activation[1] - activation[0],
             qPrintable(QStringLiteral("rank 0 peak %1, rank 1 peak %2").arg(peak[0]).arg(peak[1])));
}

QTEST_GUILESS_MAIN(TestLiveRanks)
#include "tst_live_ranks.moc"

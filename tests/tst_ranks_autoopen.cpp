// SPDX-License-Identifier: MIT
// The Ranks window opens by itself (issue 13) when the main window opens a store holding the
// probe recordings of one distributed job: two hand-written probes (rank 0 and rank 1 of 2,
// as tst_live_ranks writes them) recorded by one ProbeRecorder. Rank 0 goes 0 -> 3000 ->
// 1000 bytes, rank 1 0 -> 5000: the window's rows are rank 0 (peak 3000) and rank 1 (peak
// 5000), a window of its own (not modal) beside the main one. A store with one trace (an allocation log)
// opens no Ranks window, nor does a store with one probe of a two-rank job.
#include <QLabel>
#include <QSignalSpy>
#include <QtTest>
#include <functional>

#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>

#include "MainWindow.h"
#include "ProbeClient.h"
#include "TestSupport.h"
#include "WindowTestSetup.h"
#include "formats/live/ProbeProtocol.h"
#include "formats/live/ProbeRecorder.h"
#include "widgets/TraceSession.h"
#include "widgets/ranks/RanksOpener.h"
#include "widgets/ranks/RanksWindow.h"

using namespace memviz;
using namespace memviz::test;

namespace {

bool waitUntil(const std::function<bool()>& done, int ms) {
    QDeadlineTimer deadline(ms);
    while (!done()) {
        if (deadline.hasExpired()) return false;
        QTest::qWait(10);
    }
    return true;
}

struct Probe {
    int rank;
    QList<QByteArray> ops;
};

// Records `probes` (rank R of `world`) at once into `store`; true when all were recorded.
bool recordProbes(const QString& store, const QString& sock, int world, const QList<Probe>& probes) {
    ProbeRecorder r(store.toStdString(), parseProbeAddress("unix:" + sock.toStdString()));
    r.setAcceptSeveral(true, 300'000'000);
    r.start();
    if (!waitUntil([&] { return r.status().state == RecorderStatus::State::Waiting; }, 10000)) return false;
    QList<int> fds;
    for (const Probe& p : probes) {
        fds << connectUnix(sock.toStdString());
        if (fds.back() < 0) return false;
        if (!waitUntil([&] { return r.traceIds().size() == static_cast<std::size_t>(fds.size()); }, 10000)) return false;
        sendAll(fds.back(), QStringLiteral(R"({"type":"hello","protocol":"memviz-probe","version":1,"pid":%1,"argv":["train.py"],"rank":%2,"local_rank":%2,"world_size":%3})"
                                           "\n")
                                .arg(600 + p.rank)
                                .arg(p.rank)
                                .arg(world)
                                .toUtf8());
    }
    for (qsizetype i = 0; i < probes.size(); ++i) {
        for (const QByteArray& op : probes[i].ops) sendAll(fds[i], op);
        sendAll(fds[i], R"({"type":"bye","t":500,"exit_code":0})"
                        "\n");
    }
    const bool ended = r.waitFor(20000);
    for (const int fd : fds) ::close(fd);
    return ended && r.status().state == RecorderStatus::State::Finished;
}

} // namespace

class TestRanksAutoOpen : public QObject {
    Q_OBJECT
private slots:
    void initTestCase() {
        startIsolatedWindowSuite("memviz-tests-ranks-autoopen");
        QVERIFY(dir_.isValid());
    }
    void opensForAJobsStore();
    void notForOneTrace();

private:
    QTemporaryDir dir_;
};

void TestRanksAutoOpen::opensForAJobsStore() {
    const QString store = dir_.filePath("job.memviz");
    QVERIFY(recordProbes(store, dir_.filePath("job.sock"), 2,
                         {{0, {opLine(100, "aten::ones", 0, 3000), opLine(200, "aten::mul", 3000, 1000)}},
                          {1, {opLine(100, "aten::zeros", 0, 5000)}}}));
    MainWindow w;
    w.resize(900, 700);
    w.show();
    QVERIFY(QTest::qWaitForWindowExposed(&w));
    auto* opener = w.findChild<RanksOpener*>(QStringLiteral("ranksOpener"));
    QVERIFY(opener);
    QSignalSpy checked(opener, &RanksOpener::checked);
    w.openFileBlocking(store);
    QVERIFY(checked.count() > 0 || checked.wait(20000));
    QCOMPARE(checked.first().at(1).toBool(), true);
    RanksWindow* ranks = opener->lastWindow();
    QVERIFY(ranks);
    QVERIFY(ranks->isVisible());
    QVERIFY(!ranks->isModal());
    QCOMPARE(ranks->parentWidget(), &w);
    ranks->waitForResult();
    QVERIFY2(ranks->rankSet().has_value(), qPrintable(ranks->status()->text()));
    const RankSet& set = *ranks->rankSet();
    QCOMPARE(set.rows.size(), std::size_t(2));
    QCOMPARE(QString::fromStdString(set.rows[0].name), QStringLiteral("rank 0"));
    QCOMPARE(set.rows[0].peakBytes, std::int64_t(3000));
    QCOMPARE(set.rows[0].finalBytes, std::int64_t(1000));
    QCOMPARE(QString::fromStdString(set.rows[1].name), QStringLiteral("rank 1"));
    QCOMPARE(set.rows[1].peakBytes, std::int64_t(5000));
    // Another trace of the same store: no second window.
    checked.clear();
    const int windows = w.findChildren<RanksWindow*>().size();
    w.openFileBlocking(store);
    QTest::qWait(300);
    QCOMPARE(w.findChildren<RanksWindow*>().size(), windows);
}

void TestRanksAutoOpen::notForOneTrace() {
    // An allocation log imported into a store: one trace.
    const QString log = writeFile(dir_, "one.csv", "time_ns,action,address,size,op\n0,alloc,0x10,100,a\n");
    const QString store = dir_.filePath("one.memviz");
    QCOMPARE(runMemviz({"import", log, "--db", store}).exitCode, 0);
    // One probe of a two-rank job: one rank only.
    const QString half = dir_.filePath("half.memviz");
    QVERIFY(recordProbes(half, dir_.filePath("half.sock"), 2, {{1, {opLine(100, "aten::ones", 0, 3000)}}}));
    for (const QString& path : {store, half}) {
        MainWindow w;
        w.show();
        QVERIFY(QTest::qWaitForWindowExposed(&w));
        auto* opener = w.findChild<RanksOpener*>(QStringLiteral("ranksOpener"));
        QSignalSpy checked(opener, &RanksOpener::checked);
        w.openFileBlocking(path);
        QVERIFY(checked.count() > 0 || checked.wait(20000));
        QCOMPARE(checked.first().at(1).toBool(), false);
        QVERIFY(w.findChildren<RanksWindow*>().isEmpty());
    }
}

QTEST_MAIN(TestRanksAutoOpen)
#include "tst_ranks_autoopen.moc"

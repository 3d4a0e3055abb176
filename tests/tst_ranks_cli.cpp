// SPDX-License-Identifier: MIT
// `memviz ranks` (issue 13): per-rank allocation logs written here, whose figures are worked
// out by hand below, read as a folder of rank files and as several files; then the errors: a
// folder without rank files, traces without a device in common, a device one trace lacks.
#include <QDir>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QtTest>

#include "RankLogs.h"
#include "TestSupport.h"

using namespace memviz::test;

namespace {

using memviz::test::kRank0;
using memviz::test::kRank1;
using memviz::test::kRank2;

struct Expected {
    const char* name;
    qint64 peak, peakAt, final;
    const char* topOp;
    qint64 topOpBytes;
};
const Expected kExpected[] = {
    {"rank 0", 1500, 10, 1100, "weights", 1000},
    {"rank 1", 3000, 15, 1100, "activations", 2000},
    {"rank 2", 1800, 12, 1300, "weights", 1000},
};

void checkRanks(const QJsonObject& o) {
    QCOMPARE(o["device"].toString(), QStringLiteral("cpu"));
    const QJsonArray ranks = o["ranks"].toArray();
    QCOMPARE(ranks.size(), 3);
    for (int i = 0; i < 3; ++i) {
        const QJsonObject r = ranks[i].toObject();
        const Expected& e = kExpected[i];
        QCOMPARE(r["name"].toString(), QString::fromLatin1(e.name));
        QCOMPARE(r["rank"].toInt(-1), i);
        QCOMPARE(r["peak_bytes"].toInteger(), e.peak);
        QCOMPARE(r["peak_time_ns"].toInteger(), e.peakAt);
        QCOMPARE(r["final_bytes"].toInteger(), e.final);
        QCOMPARE(r["top_op"].toString(), QString::fromLatin1(e.topOp));
        QCOMPARE(r["top_op_bytes"].toInteger(), e.topOpBytes);
    }
    const QJsonObject im = o["imbalance"].toObject();
    QCOMPARE(im["max_rank"].toString(), QStringLiteral("rank 1"));
    QCOMPARE(im["min_rank"].toString(), QStringLiteral("rank 0"));
    QCOMPARE(im["ratio"].toDouble(), 2.0);
    QCOMPARE(im["spread_bytes"].toInteger(), 1500);
    QCOMPARE(im["op"].toString(), QStringLiteral("activations"));
    QCOMPARE(im["op_delta_bytes"].toInteger(), 1500);
}

} // namespace

class TestRanksCli : public QObject {
    Q_OBJECT
private slots:
    void folderOfRankFiles();
    void severalFiles();
    void eachRanksOwnGpu();
    void badInput();
};

void TestRanksCli::folderOfRankFiles() {
    QTemporaryDir dir;
    QDir().mkpath(dir.filePath("job"));
    // Three spellings of a rank in the name; the files that name no rank are not ranks.
    writeFile(dir, "job/rank-2.csv", kRank2);
    writeFile(dir, "job/rank0.csv", kRank0);
    writeFile(dir, "job/worker_rank_1.csv", kRank1);
    writeFile(dir, "job/summary.csv", kRank0);
    writeFile(dir, "job/notes.txt", "rank 7 was slow\n");
    const auto r = runMemviz({"ranks", dir.filePath("job"), "--json"});
    QVERIFY2(r.exitCode == 0, r.err.constData());
    checkRanks(QJsonDocument::fromJson(r.out).object());
    const auto text = runMemviz({"ranks", dir.filePath("job")});
    QCOMPARE(text.exitCode, 0);
    QVERIFY2(text.out.contains("max/min 2.00x"), text.out.constData());
    QVERIFY2(text.out.contains("activations"), text.out.constData());
}

void TestRanksCli::severalFiles() {
    QTemporaryDir dir;
    // Given out of order: the rows follow the ranks in the names.
    const auto r = runMemviz({"ranks", writeFile(dir, "rank2.csv", kRank2), writeFile(dir, "rank1.csv", kRank1),
                              writeFile(dir, "rank0.csv", kRank0), "--json"});
    QVERIFY2(r.exitCode == 0, r.err.constData());
    checkRanks(QJsonDocument::fromJson(r.out).object());
}

// Rank k of a multi-GPU job allocates on cuda:k: the common figure is each rank's own GPU
// (not the CPU both also have). Rank 0: 100 B then 400 more (peak 500); rank 1: 900 B.
void TestRanksCli::eachRanksOwnGpu() {
    QTemporaryDir dir;
    const QString r0 = writeFile(dir, "rank0.csv",
                                 "time_ns,action,address,size,op,device\n0,alloc,0x1,7,host,cpu\n"
                                 "1,alloc,0x10,100,a,cuda:0\n5,alloc,0x20,400,b,cuda:0\n");
    const QString r1 = writeFile(dir, "rank1.csv",
                                 "time_ns,action,address,size,op,device\n0,alloc,0x1,7,host,cpu\n"
                                 "3,alloc,0x10,900,a,cuda:1\n");
    const auto r = runMemviz({"ranks", r0, r1, "--json"});
    QVERIFY2(r.exitCode == 0, r.err.constData());
    const QJsonObject o = QJsonDocument::fromJson(r.out).object();
    QCOMPARE(o["device"].toString(), QStringLiteral("cuda"));
    const QJsonArray ranks = o["ranks"].toArray();
    QCOMPARE(ranks[0].toObject()["device"].toString(), QStringLiteral("cuda:0"));
    QCOMPARE(ranks[0].toObject()["peak_bytes"].toInteger(), 500);
    QCOMPARE(ranks[0].toObject()["top_op"].toString(), QStringLiteral("b"));
    QCOMPARE(ranks[1].toObject()["device"].toString(), QStringLiteral("cuda:1"));
    QCOMPARE(ranks[1].toObject()["peak_bytes"].toInteger(), 900);
    QCOMPARE(o["imbalance"].toObject()["ratio"].toDouble(), 1.8);
    // --device cpu still compares the host side: 7 B on each.
    const auto cpu = runMemviz({"ranks", r0, r1, "--json", "--device", "CPU"});
    QCOMPARE(QJsonDocument::fromJson(cpu.out).object()["imbalance"].toObject()["ratio"].toDouble(), 1.0);
}

void TestRanksCli::badInput() {
    QTemporaryDir dir;
    QDir().mkpath(dir.filePath("empty"));
    writeFile(dir, "empty/notes.txt", "nothing here\n");
    const auto none = runMemviz({"ranks", dir.filePath("empty")});
    QCOMPARE(none.exitCode, 1);
    QVERIFY2(none.err.contains(dir.filePath("empty").toUtf8()) && none.err.contains("no rank files"), none.err.constData());

    // No device in common: one rank on the GPU, one on the CPU.
    const QString gpu = writeFile(dir, "rank0.csv",
                                  "time_ns,action,address,size,op,device\n0,alloc,0x10,100,a,cuda:0\n");
    const QString cpu = writeFile(dir, "rank1.csv", kRank1);
    const auto apart = runMemviz({"ranks", gpu, cpu});
    QCOMPARE(apart.exitCode, 1);
    QVERIFY2(apart.err.contains("no device in common") && apart.err.contains("rank0.csv has cuda:0") &&
                 apart.err.contains("rank1.csv has cpu"),
             apart.err.constData());
    const auto missing = runMemviz({"ranks", writeFile(dir, "rank2.csv", kRank2), cpu, "--device", "cuda:0"});
    QCOMPARE(missing.exitCode, 1);
    QVERIFY2(missing.err.contains("rank2.csv: no device cuda:0"), missing.err.constData());
    const auto one = runMemviz({"ranks", cpu});
    QCOMPARE(one.exitCode, 1);
    QVERIFY2(one.err.contains("at least two traces"), one.err.constData());
}

QTEST_GUILESS_MAIN(TestRanksCli)
#include "tst_ranks_cli.moc"

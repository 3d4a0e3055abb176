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
    void tracesOfOneStore();
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

// --trace ID[,ID...]: exactly those traces of one store, in the order given. The three logs are
// imported into one store (no rank in its name: the rows are named by store#id and stay in the
// order given). Expected, from the hand-worked figures in RankLogs.h: rank 2's log (peak 1800
// at 12, final 1300, weights 1000) then rank 0's (1500 at 10, 1100, weights 1000); imbalance
// 1800/1500 = 1.2, 300 apart, activations 800 - 500 = +300.
void TestRanksCli::tracesOfOneStore() {
    QTemporaryDir dir;
    const QString store = dir.filePath("job.memviz");
    QList<qint64> ids; // the id each import got, as `memviz import --json` reports it
    for (const auto& [name, log] : {std::pair{"a.csv", kRank0}, std::pair{"b.csv", kRank1}, std::pair{"c.csv", kRank2}}) {
        const auto r = runMemviz({"import", writeFile(dir, name, log), "--db", store, "--json"});
        QVERIFY2(r.exitCode == 0, r.err.constData());
        ids << QJsonDocument::fromJson(r.out).object()["trace_id"].toInteger();
    }
    QVERIFY(ids[0] > 0 && ids[1] > 0 && ids[2] > 0);
    const QString id0 = QString::number(ids[0]), id2 = QString::number(ids[2]);
    auto check = [&](const QJsonObject& o) {
        const QJsonArray ranks = o["ranks"].toArray();
        QCOMPARE(ranks.size(), 2);
        const QJsonObject first = ranks[0].toObject(), second = ranks[1].toObject();
        QCOMPARE(first["trace_id"].toInteger(), ids[2]);
        QCOMPARE(first["source"].toString(), store + "#" + id2);
        QCOMPARE(first["peak_bytes"].toInteger(), 1800);
        QCOMPARE(first["peak_time_ns"].toInteger(), 12);
        QCOMPARE(first["final_bytes"].toInteger(), 1300);
        QCOMPARE(first["top_op"].toString(), QStringLiteral("weights"));
        QCOMPARE(second["trace_id"].toInteger(), ids[0]);
        QCOMPARE(second["peak_bytes"].toInteger(), 1500);
        QCOMPARE(second["peak_time_ns"].toInteger(), 10);
        QCOMPARE(second["final_bytes"].toInteger(), 1100);
        const QJsonObject im = o["imbalance"].toObject();
        QCOMPARE(im["ratio"].toDouble(), 1.2);
        QCOMPARE(im["spread_bytes"].toInteger(), 300);
        QCOMPARE(im["op"].toString(), QStringLiteral("activations"));
        QCOMPARE(im["op_delta_bytes"].toInteger(), 300);
    };
    const auto listed = runMemviz({"ranks", store, "--trace", id2 + "," + id0, "--json"});
    QVERIFY2(listed.exitCode == 0, listed.err.constData());
    check(QJsonDocument::fromJson(listed.out).object());
    const auto repeated = runMemviz({"ranks", store, "--trace", id2, "--trace", id0, "--json"});
    QVERIFY2(repeated.exitCode == 0, repeated.err.constData());
    check(QJsonDocument::fromJson(repeated.out).object());
    // Without --trace: all three.
    const auto all = runMemviz({"ranks", store, "--json"});
    QCOMPARE(QJsonDocument::fromJson(all.out).object()["ranks"].toArray().size(), 3);

    // A missing id is named (status 1); so is one given twice; --trace with two paths is a usage error.
    const qint64 missingId = std::max({ids[0], ids[1], ids[2]}) + 5;
    const auto missing = runMemviz({"ranks", store, "--trace", id0 + "," + QString::number(missingId)});
    QCOMPARE(missing.exitCode, 1);
    QVERIFY2(missing.err.contains(("no trace with id " + QString::number(missingId)).toUtf8()) && missing.err.contains(store.toUtf8()),
             missing.err.constData());
    const auto twice = runMemviz({"ranks", store, "--trace", id0 + "," + id0});
    QCOMPARE(twice.exitCode, 1);
    QVERIFY2(twice.err.contains("given twice"), twice.err.constData());
    const auto bad = runMemviz({"ranks", store, "--trace", "x"});
    QCOMPARE(bad.exitCode, 2);
    const auto two = runMemviz({"ranks", store, store, "--trace", id0});
    QCOMPARE(two.exitCode, 2);
    const auto one = runMemviz({"ranks", store, "--trace", id0});
    QCOMPARE(one.exitCode, 1);
    QVERIFY2(one.err.contains("at least two traces"), one.err.constData());
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

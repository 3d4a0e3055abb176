// SPDX-License-Identifier: MIT
// `memviz allocator-replay` and the OOMs of `memviz summary --json` for CUDA snapshots: the
// expectations come from the files themselves (the recorded segment events, the OOM entries the
// generator wrote) and from the identity reserved = requested + the gap's parts.
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTemporaryDir>
#include <QtTest>

#include "TestSupport.h"

using namespace memviz::test;

namespace {

void checkGapAddsUp(const QJsonObject& g) {
    const qint64 parts = g["requested"].toInteger() + g["rounding"].toInteger() + g["split_free_small"].toInteger() +
                         g["split_free_large"].toInteger() + g["pending_free"].toInteger() + g["cached_segments"].toInteger();
    QCOMPARE(parts, g["reserved"].toInteger());
    QVERIFY(g["largest_free_block"].toInteger() <= g["reserved"].toInteger());
}

QJsonObject replayJson(const QStringList& args) {
    const ProcessResult r = runMemviz(QStringList{"allocator-replay"} + args + QStringList{"--json"});
    if (r.exitCode != 0) qWarning("%s", r.err.constData());
    return QJsonDocument::fromJson(r.out).object();
}

} // namespace

class TestAllocatorReplayCli : public QObject {
    Q_OBJECT
private slots:
    // silmont2000's mem_snapshot starts from an empty allocator and reserves 9 segments; on a
    // card one byte smaller than its recorded peak, the request behind the last recorded
    // segment_alloc is the first that cannot be served.
    void cardOneByteShortFailsAtTheLastSegment() {
        MEMVIZ_REQUIRE_FIXTURE(file, "wild/silmont2000__assignment2-systems__mem_snapshot.pickle");
        const QJsonObject full = replayJson({file, "--steps"});
        const QJsonObject dev = full["devices"].toArray().first().toObject();
        const QJsonArray steps = dev["recorded"].toObject()["reserved_steps"].toArray();
        QCOMPARE(steps.size(), 9);
        const qint64 peak = dev["recorded"].toObject()["reserved_peak"].toInteger();
        QCOMPARE(peak, steps.last().toObject()["reserved"].toInteger());
        // The model acts at the request; the file records its segment_alloc just before it.
        const QJsonArray predicted = dev["predicted"].toObject()["reserved_steps"].toArray();
        QCOMPARE(predicted.size(), steps.size());
        for (qsizetype i = 0; i < steps.size(); ++i) {
            QCOMPARE(predicted[i].toObject()["entry"].toInteger(), steps[i].toObject()["request"].toInteger());
            QCOMPARE(predicted[i].toObject()["reserved"].toInteger(), steps[i].toObject()["reserved"].toInteger());
        }

        const QJsonObject shortCard = replayJson({file, "--card", QString::number(peak - 1), "--at", "20"});
        const QJsonObject d = shortCard["devices"].toArray().first().toObject();
        const QJsonObject card = d["card"].toObject();
        QVERIFY(card["fails"].toBool());
        QCOMPARE(card["entry"].toInteger(), steps.last().toObject()["request"].toInteger());
        QVERIFY(card["reserved"].toInteger() + card["segment_size"].toInteger() > peak - 1);
        checkGapAddsUp(card["gap"].toObject());
        checkGapAddsUp(d["gap"].toObject());

        const QJsonObject fits = replayJson({file, "--card", QString::number(peak)});
        const QJsonObject fitCard = fits["devices"].toArray().first().toObject()["card"].toObject();
        QVERIFY(!fitCard["fails"].toBool());
        QCOMPARE(fitCard["reserved_peak"].toInteger(), peak);
    }
    // The generator writes an oom entry every 120 steps of device 0 (40 GiB asked, 123 MiB + the
    // step free); summary --json lists both with the replay's gap.
    void summaryListsTheOoms() {
        QTemporaryDir dir;
        const ProcessResult made = runProcess(python(), {oracle("make_snapshots.py"), dir.path()});
        QCOMPARE(made.exitCode, 0);
        const ProcessResult r = runMemviz({"summary", dir.filePath("dict_protocol4.pickle"), "--json"});
        QCOMPARE(r.exitCode, 0);
        const QJsonArray ooms = QJsonDocument::fromJson(r.out).object()["ooms"].toArray();
        QCOMPARE(ooms.size(), 2);
        const qint64 MiB = 1 << 20;
        const qint64 steps[] = {119, 239};
        for (int i = 0; i < 2; ++i) {
            const QJsonObject o = ooms[i].toObject();
            QCOMPARE(o["device"].toString(), QStringLiteral("cuda:0"));
            QCOMPARE(o["bytes_requested"].toInteger(), 40 * 1024 * MiB);
            QCOMPARE(o["device_free"].toInteger(), 123 * MiB + steps[i]);
            checkGapAddsUp(o["reserved_gap"].toObject());
        }
    }
    void badUsage() {
        MEMVIZ_REQUIRE_FIXTURE(file, "wild/silmont2000__assignment2-systems__mem_snapshot.pickle");
        QCOMPARE(runMemviz({"allocator-replay", file, "--card", "lots"}).exitCode, 2);
        QCOMPARE(runMemviz({"allocator-replay", file, "--device", "cuda:7"}).exitCode, 2);
        QCOMPARE(runMemviz({"allocator-replay", file, "--at", "-5"}).exitCode, 2);
    }
};

QTEST_GUILESS_MAIN(TestAllocatorReplayCli)
#include "tst_allocator_replay_cli.moc"

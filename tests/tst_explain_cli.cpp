// SPDX-License-Identifier: MIT
// memviz explain end to end: the real binary on real messages (arguments, --file, stdin),
// text and JSON output against hand-converted numbers, and non-messages.
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QtTest>
#include <cmath>

#include "TestSupport.h"
#include "costmodel/CostModel.h"
#include "costmodel/Presets.h"

using namespace memviz::test;

namespace {

const QString kCuda1x = "RuntimeError: CUDA out of memory. Tried to allocate 20.00 MiB (GPU 0; 10.76 GiB total capacity; 9.78 "
                        "GiB already allocated; 17.69 MiB free; 9.83 GiB reserved in total by PyTorch)";
const QString kCpu = "RuntimeError: [enforce fail at alloc_cpu.cpp:75] err == 0. DefaultCPUAllocator: can't allocate memory: you "
                     "tried to allocate 78643200000 bytes. Error code 12 (Cannot allocate memory)";

qint64 b(double value, double unit) { return std::llround(value * unit); }
constexpr double MiB = 1048576.0, GiB = 1073741824.0;

} // namespace

class TestExplainCli : public QObject {
    Q_OBJECT
private slots:
    void textOutput();
    void jsonOutput();
    void messageFromFileAndStdin();
    void wordsNeedNoQuotes();
    void notAMessage();
    void usageErrors();
    void fixesRankedForAModel();
};

void TestExplainCli::textOutput() {
    const auto r = runMemviz({"explain", kCpu});
    QVERIFY2(r.exitCode == 0, r.err.constData());
    const QString out = QString::fromUtf8(r.out);
    QVERIFY(out.startsWith("CPU out of memory"));
    QVERIFY(out.contains("78,643,200,000 bytes (78.6 GB = 73.2 GiB)"));
    QVERIFY(out.contains("[100000, 3, 256, 256] float32"));
    QVERIFY(out.contains("Error code 12 is ENOMEM"));
    QVERIFY(out.contains("DataLoader"));
}

void TestExplainCli::jsonOutput() {
    const auto r = runMemviz({"explain", kCuda1x, "--json"});
    QVERIFY2(r.exitCode == 0, r.err.constData());
    const QJsonObject o = QJsonDocument::fromJson(r.out).object();
    QCOMPARE(o["recognized"].toBool(), true);
    QCOMPARE(o["form"].toString(), QStringLiteral("gpu-semicolons"));
    QCOMPARE(o["backend"].toString(), QStringLiteral("CUDA"));
    QCOMPARE(o["device"].toInt(), 0);
    QCOMPARE(o["request"].toObject()["bytes"].toInteger(), b(20, MiB));
    QCOMPARE(o["request"].toObject()["text"].toString(), QStringLiteral("20.00 MiB"));
    QCOMPARE(o["total"].toObject()["bytes"].toInteger(), b(10.76, GiB));
    QCOMPARE(o["free"].toObject()["bytes"].toInteger(), b(17.69, MiB));
    QCOMPARE(o["shortfall_bytes"].toInteger(), b(20, MiB) - b(17.69, MiB));
    QCOMPARE(o["tensor_range"].toString(), QStringLiteral("large-buffer"));
    QCOMPARE(o["tensor_low_bytes"].toInteger(), 1048577);
    QCOMPARE(o["tensor_high_bytes"].toInteger(), 10485248);
    QCOMPARE(o["tensor_also_low_bytes"].toInteger(), 18 * 1048576 + 1);
    QCOMPARE(o["tensor_also_high_bytes"].toInteger(), 20 * 1048576);
    // The shape guesses cover both readings, each shape's bytes inside one of the two ranges.
    int inFirst = 0, inSecond = 0;
    for (const QJsonValue v : o["shapes"].toArray()) {
        const qint64 bytes = v.toObject()["bytes"].toInteger();
        if (bytes >= 1048577 && bytes <= 10485248) ++inFirst;
        else if (bytes >= 18 * 1048576 + 1 && bytes <= 20 * 1048576) ++inSecond;
        else QFAIL(qPrintable(QStringLiteral("shape of %1 bytes is in neither range").arg(bytes)));
    }
    QVERIFY(inFirst > 0);
    QVERIFY(inSecond > 0);
    QCOMPARE(o["fragmentation_likely"].toBool(), true);
    QCOMPARE(o["fragmented_bytes"].toInteger(), b(9.83, GiB) - b(9.78, GiB));
    const QJsonArray fixes = o["fixes"].toArray();
    QVERIFY(!fixes.isEmpty());
    QCOMPARE(fixes.first().toObject()["id"].toString(), QStringLiteral("expandable-segments"));
    QVERIFY(!o["shapes"].toArray().isEmpty());
    QVERIFY(!o["explanation"].toArray().isEmpty());
}

void TestExplainCli::messageFromFileAndStdin() {
    QTemporaryDir dir;
    const QString log = writeFile(dir, "train.log",
                                  "epoch 1 loss 0.3\nTraceback (most recent call last):\n  File \"train.py\", line 9\n" +
                                      kCuda1x.toUtf8() + "\n");
    auto r = runMemviz({"explain", "--file", log, "--json"});
    QCOMPARE(r.exitCode, 0);
    QCOMPARE(QJsonDocument::fromJson(r.out).object()["request"].toObject()["bytes"].toInteger(), b(20, MiB));

    QProcess p;
    p.start(QStringLiteral(MEMVIZ_BINARY), {"explain", "-", "--json"});
    QVERIFY(p.waitForStarted());
    p.write(kCpu.toUtf8());
    p.closeWriteChannel();
    QVERIFY(p.waitForFinished());
    QCOMPARE(p.exitCode(), 0);
    QCOMPARE(QJsonDocument::fromJson(p.readAllStandardOutput()).object()["request"].toObject()["bytes"].toInteger(),
             78643200000LL);

    r = runMemviz({"explain", "--file", dir.filePath("missing.log")});
    QCOMPARE(r.exitCode, 1);
    QVERIFY(r.err.contains("missing.log"));
}

void TestExplainCli::wordsNeedNoQuotes() {
    const auto r = runMemviz({"explain", "DefaultCPUAllocator:", "not", "enough", "memory:", "you", "tried", "to", "allocate",
                              "717574400", "bytes.", "--json"});
    QCOMPARE(r.exitCode, 0);
    const QJsonObject o = QJsonDocument::fromJson(r.out).object();
    QCOMPARE(o["form"].toString(), QStringLiteral("cpu-not-enough-memory"));
    QCOMPARE(o["shortfall_bytes"].toInteger(), 717574400);
    bool found = false;
    for (const QJsonValue& s : o["shapes"].toArray())
        found |= s.toObject()["shape"].toArray() == QJsonArray{112121, 1, 40, 40} && s.toObject()["dtype"] == "float32";
    QVERIFY(found);
}

void TestExplainCli::notAMessage() {
    auto r = runMemviz({"explain", "my", "model", "is", "slow"});
    QCOMPARE(r.exitCode, 1); // bad input, but a helpful answer on stdout
    QVERIFY(r.out.contains("does not look like a PyTorch out-of-memory message"));
    QVERIFY(r.out.contains("DefaultCPUAllocator"));
    r = runMemviz({"explain", "Killed", "--json"});
    QCOMPARE(r.exitCode, 1);
    const QJsonObject o = QJsonDocument::fromJson(r.out).object();
    QCOMPARE(o["recognized"].toBool(), false);
    QVERIFY(o["explanation"].toArray().first().toString().contains("OOM killer"));
}

void TestExplainCli::usageErrors() {
    auto r = runMemviz({"explain"});
    QCOMPARE(r.exitCode, 2);
    QVERIFY(r.err.contains("usage"));
    r = runMemviz({"explain", "--bogus", "x"});
    QCOMPARE(r.exitCode, 2);
    r = runMemviz({"--help"});
    QVERIFY(r.out.contains("memviz explain"));
}

void TestExplainCli::fixesRankedForAModel() {
    const auto r = runMemviz({"explain", kCuda1x, "--model", "resnet18", "--batch", "64", "--json"});
    QVERIFY2(r.exitCode == 0, r.err.constData());
    const QJsonObject o = QJsonDocument::fromJson(r.out).object();
    QVERIFY(o["fixes_for"].toString().startsWith("ResNet-18, batch 64"));
    // The cost model's numbers, computed here: ResNet-18, batch 64, fp32, Adam, on CUDA (the message's device).
    using namespace memviz::costmodel;
    const ResolvedModel m = resolveModel(presetSpec("resnet18"));
    EstimateOptions base;
    base.batch = 64;
    base.device = DeviceKind::Cuda;
    base.timeline = false;
    const std::int64_t basePeak = estimate(m, base).peakBytes;
    QSet<QString> ids;
    qint64 previous = std::numeric_limits<qint64>::max();
    for (const QJsonValue& v : o["fixes"].toArray()) {
        const QJsonObject f = v.toObject();
        const QString id = f["id"].toString();
        ids << id;
        if (id == "smaller-batch") {
            EstimateOptions half = base;
            half.batch = 32;
            QCOMPARE(f["saved_bytes"].toInteger(), basePeak - estimate(m, half).peakBytes);
            QCOMPARE(f["lesson"].toString(), QStringLiteral("batch-size"));
        }
        if (id == "checkpointing") QCOMPARE(f["lesson"].toString(), QStringLiteral("checkpointing"));
        if (id == "lighter-optimizer") QCOMPARE(f["lesson"].toString(), QStringLiteral("optimizers"));
        // Ranked: savings fall, until the conditional no_grad fix at the end.
        if (id != "no-grad") {
            QVERIFY(f["saved_bytes"].toInteger() <= previous);
            previous = f["saved_bytes"].toInteger();
        }
        // 10.76 GiB card: "fits" compares the predicted peak with it.
        if (!f["peak_bytes"].isNull()) QCOMPARE(f["fits"].toBool(), f["peak_bytes"].toInteger() <= std::llround(10.76 * GiB));
    }
    for (const char* id :
         {"smaller-batch", "bf16", "mixed-precision", "checkpointing", "lighter-optimizer", "expandable-segments", "no-grad"})
        QVERIFY2(ids.contains(id), id);
    QCOMPARE(o["fixes"].toArray().last().toObject()["id"].toString(), QStringLiteral("no-grad"));

    auto bad = runMemviz({"explain", kCuda1x, "--batch", "8"});
    QCOMPARE(bad.exitCode, 2); // a knob without a model
    bad = runMemviz({"explain", kCuda1x, "--model", "nosuchmodel"});
    QCOMPARE(bad.exitCode, 2);
    QVERIFY(bad.err.contains("resnet50"));
    const auto text = runMemviz({"explain", kCpu, "--model", "mlp", "--batch", "256", "--optimizer", "sgd"});
    QCOMPARE(text.exitCode, 0);
    QVERIFY(text.out.contains("Fixes for MLP, batch 256, float32, SGD, most saving first:"));
}

QTEST_MAIN(TestExplainCli)
#include "tst_explain_cli.moc"

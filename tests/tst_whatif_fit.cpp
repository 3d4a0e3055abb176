// SPDX-License-Identifier: MIT
// The what-if panel's "Will it fit on GPUs" box shows the numbers `memviz estimate --config ...
// --device ...` prints for the same settings: the peak per GPU, the parts, the largest micro-batch
// and sequence and the ranked fixes (the command line's numbers are themselves checked against
// published counts and hand calculations in tst_estimate_cli and tst_fitplan).
#include <QElapsedTimer>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QScrollArea>
#include <QtTest>

#include "TestSupport.h"
#include "widgets/whatif/FitPlanBox.h"
#include "widgets/whatif/WhatIfPanel.h"

using namespace memviz;
using namespace memviz::test;

class TestWhatIfFit : public QObject {
    Q_OBJECT
private slots:
    void panelShowsTheCommandLinesNumbers();
    void inferenceIsTheCommandLinesKvCachePlan();
    void badConfigIsShown();
};

namespace {

// MEMVIZ_FIT_SHOW=SECONDS (looking at it under a display, e.g. xvfb-run + openbox + import): the
// panel is shown with the box scrolled into view for that long.
void showForLooking(WhatIfPanel& panel, FitPlanBox* box) {
    const int seconds = qEnvironmentVariableIntValue("MEMVIZ_FIT_SHOW");
    if (!seconds) return;
    box->waitForResult();
    panel.resize(1600, 1000);
    panel.show();
    for (QWidget* w = box->parentWidget(); w; w = w->parentWidget())
        if (auto* area = qobject_cast<QScrollArea*>(w)) area->ensureWidgetVisible(box, 0, 0);
    QTest::qWait(seconds * 1000);
}

// The box's parts at the peak and its ranked fixes (id and new peak each) are the command line's.
void samePartsAndFixes(const costmodel::FitAnswer& a, const QJsonObject& j) {
    const QJsonObject parts = j["breakdown"].toObject();
    for (int i = 0; i < costmodel::kPlanPartCount; ++i)
        QCOMPARE(qint64(a.plan.perDevice[static_cast<std::size_t>(i)]),
                 parts[costmodel::planPartKey(static_cast<costmodel::PlanPart>(i))].toInteger());
    const QJsonArray fixes = j["fixes"].toArray();
    QCOMPARE(qsizetype(a.fixes.size()), fixes.size());
    for (qsizetype i = 0; i < fixes.size(); ++i) {
        QCOMPARE(QString::fromStdString(a.fixes[static_cast<std::size_t>(i)].id), fixes[i].toObject()["id"].toString());
        QCOMPARE(qint64(a.fixes[static_cast<std::size_t>(i)].peakBytes), fixes[i].toObject()["peak_bytes_per_device"].toInteger());
    }
}

} // namespace

void TestWhatIfFit::panelShowsTheCommandLinesNumbers() {
    const QString config = QStringLiteral(MEMVIZ_TEST_DATA) + "/hf/llama-2-7b.json";
    WhatIfPanel panel;
    FitPlanBox* box = panel.fitPlanBox();
    QVERIFY(box);
    QVERIFY(box->openConfig(config));
    box->setSequence(1024);
    box->setMicroBatch(4);
    box->setLoraRank(16);
    box->setGpu("a100-40g");
    box->waitForResult();
    QVERIFY2(box->errorText().isEmpty(), qPrintable(box->errorText()));
    QVERIFY(box->answer());
    const auto& a = *box->answer();
    const ProcessResult r = runMemviz({"estimate", "--config", config, "--seq", "1024", "--batch", "4", "--lora-rank", "16",
                                       "--device", "a100-40g", "--json"});
    QVERIFY2(r.exitCode == 0, r.err.constData());
    const QJsonObject j = QJsonDocument::fromJson(r.out).object();
    QCOMPARE(qint64(a.plan.peakBytes), j["peak_bytes_per_device"].toInteger());
    QCOMPARE(a.plan.fits, j["fits"].toBool());
    QCOMPARE(qint64(a.largestMicroBatch), j["largest_micro_batch"].toInteger());
    QCOMPARE(qint64(a.largestSequence), j["largest_sequence"].toInteger());
    samePartsAndFixes(a, j);
    QVERIFY(box->resultText().contains("Peak per GPU"));
    // The family the config was read as and where the dtype comes from (the config: float16).
    QVERIFY2(box->notesText().contains("Family: llama"), qPrintable(box->notesText()));
    QVERIFY2(box->notesText().contains("float16 (torch_dtype)"), qPrintable(box->notesText()));
    // The box stays responsive: a recompute runs on a worker (the GUI thread only sets it off).
    QElapsedTimer t;
    t.start();
    box->setMicroBatch(8);
    QVERIFY2(t.elapsed() < 200, qPrintable(QString::number(t.elapsed())));
    box->waitForResult();
    QCOMPARE(box->planOptions().estimate.batch, 8);
    box->setMicroBatch(4);
    showForLooking(panel, box);
}

// Inference in the box is `memviz estimate --config … --seq CONTEXT-1 --kv-cache CONTEXT --tp GPUS`:
// the dtype from the config's torch_dtype (float16), the same peak, parts and ranked fixes
// (CPU offload and tensor parallel among them), on one GPU and split over two.
void TestWhatIfFit::inferenceIsTheCommandLinesKvCachePlan() {
    const QString config = QStringLiteral(MEMVIZ_TEST_DATA) + "/hf/llama-2-7b.json";
    WhatIfPanel panel;
    FitPlanBox* box = panel.fitPlanBox();
    QVERIFY(box->openConfig(config));
    box->setInference(true);
    box->setSequence(4096);
    box->setMicroBatch(1);
    box->setGpu("t4");
    for (const int gpus : {1, 2}) {
        box->setGpus(gpus, "ddp");
        box->waitForResult();
        QVERIFY2(box->errorText().isEmpty(), qPrintable(box->errorText()));
        const costmodel::PlanOptions o = box->planOptions();
        QVERIFY(!o.estimate.training);
        QCOMPARE(o.estimate.dtype, costmodel::DType::F16);
        QCOMPARE(o.tensorParallel, gpus);
        const auto& a = *box->answer();
        const ProcessResult r = runMemviz({"estimate", "--config", config, "--seq", "4095", "--kv-cache", "4096", "--batch", "1",
                                           "--tp", QString::number(gpus), "--device", "t4", "--json"});
        QVERIFY2(r.exitCode == 0, r.err.constData());
        const QJsonObject j = QJsonDocument::fromJson(r.out).object();
        QCOMPARE(j["mode"].toString(), QStringLiteral("inference"));
        QCOMPARE(qint64(a.plan.peakBytes), j["peak_bytes_per_device"].toInteger());
        QCOMPARE(a.plan.fits, j["fits"].toBool());
        QVERIFY(j["breakdown"].toObject()["kv_cache_bytes"].toInteger() > 0);
        samePartsAndFixes(a, j);
        if (gpus == 1) { // 21.3 GiB on a 15 GiB T4: offloading layers is among the changes
            QVERIFY2(box->fixesText().contains("CPU offload"), qPrintable(box->fixesText()));
            showForLooking(panel, box);
        }
    }
    // CPU offload on one GPU: 14 of the 32 layers on the CPU, as --offload-layers 14 plans it.
    box->setGpus(1, "ddp");
    box->setOffloadLayers(14);
    box->waitForResult();
    QVERIFY2(box->errorText().isEmpty(), qPrintable(box->errorText()));
    QCOMPARE(box->planOptions().offloadLayers, 14);
    {
        const ProcessResult r = runMemviz({"estimate", "--config", config, "--seq", "4095", "--kv-cache", "4096", "--batch", "1",
                                           "--offload-layers", "14", "--device", "t4", "--json"});
        QVERIFY2(r.exitCode == 0, r.err.constData());
        const QJsonObject j = QJsonDocument::fromJson(r.out).object();
        const auto& a = *box->answer();
        QCOMPARE(qint64(a.plan.peakBytes), j["peak_bytes_per_device"].toInteger());
        QCOMPARE(qint64(a.plan.offloadedLayers), j["offloaded_layers"].toInteger());
        QCOMPARE(qint64(a.plan.offloadCopyBytes), j["offload_copy_bytes_per_forward"].toInteger());
        samePartsAndFixes(a, j);
        QVERIFY2(box->resultText().contains("CPU offload: 14 layers"), qPrintable(box->resultText()));
    }
    box->setOffloadLayers(0);
    // Back to training: the dtype box keeps fp16 (now the user's choice), the GPUs shard again.
    box->setInference(false);
    box->waitForResult();
    QVERIFY(box->planOptions().estimate.training);
    QCOMPARE(box->planOptions().tensorParallel, 1);
}

void TestWhatIfFit::badConfigIsShown() {
    QTemporaryDir dir;
    const QString bad = writeFile(dir, "config.json", R"({"model_type":"llama","hidden_size":"big"})");
    FitPlanBox box;
    QVERIFY(!box.openConfig(bad));
    QVERIFY2(box.errorText().contains("'hidden_size': must be an integer"), qPrintable(box.errorText()));
    QVERIFY(box.resultText().contains("hidden_size"));
}

QTEST_MAIN(TestWhatIfFit)
#include "tst_whatif_fit.moc"

// SPDX-License-Identifier: MIT
// The cost model against real PyTorch for today's language models (issue 31): every
// configuration of tests/data/costmodel/measured_llm.json (bench/costmodel/measure.py with the
// GPT-2- and Llama-style blocks of bench/costmodel/llm_blocks.py, PyTorch 1.13 on CPU) predicted
// with --device cpu and the same knobs: sequence length, batch, dtype, LoRA rank and targets,
// frozen layers, checkpointing (none / per layer / selective), optimizer, and inference with and
// without a KV cache; with MEMVIZ_MEASURED_RELEASE=2.13 (ctest's *_2.13 run) the same grid
// measured under PyTorch 2.13 (measured_llm_2.13.json), predicted with --torch 2.x. The aims are
// asserted per mode: median |error| <= 3%, worst <= 8%, over a
// grid with at least 60 configurations of sequence length >= 512 with LoRA on.
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QtTest>
#include <algorithm>
#include <cmath>

#include "CostModelMeasured.h"
#include "TestSupport.h"
#include "costmodel/CostModel.h"
#include "costmodel/OptionNames.h"
#include "costmodel/SpecParser.h"

using namespace memviz::costmodel;
using memviz::test::median;

namespace {

struct Row : memviz::test::MeasuredRow {
    bool training = true;
    bool loraLong = false; // LoRA on and sequence length >= 512
};


} // namespace

class TestCostModelLlmValidation : public QObject {
    Q_OBJECT
private slots:
    void initTestCase();
    void gridCoversTheIssue();
    void everyConfigWithin8Percent();
    void errorDistributionMeetsTheAim();

private:
    std::vector<Row> rows_;
};

void TestCostModelLlmValidation::initTestCase() {
    const QByteArray text = memviz::test::readFile(memviz::test::measuredFile(QStringLiteral("measured_llm")));
    const QJsonObject doc = QJsonDocument::fromJson(text).object();
    const TorchVersion torch = memviz::test::measuredTorch(doc);
    qInfo("PyTorch %s (predicted as --torch %s)", qPrintable(doc["machine"].toObject()["torch"].toString()),
          torch == TorchVersion::V1_13 ? "1.13" : "2.x");
    const QJsonArray configs = doc["configs"].toArray();
    QVERIFY(!configs.isEmpty());
    for (const QJsonValue& v : configs) {
        const QJsonObject c = v.toObject();
        if (c["skipped"].toBool()) continue;
        const ModelSpec spec = memviz::test::measuredSpec(c);
        EstimateOptions o = memviz::test::measuredOptions(c, torch);
        // MEMVIZ_TIMELINE_OF=<id> prints that configuration's simulated timeline (live bytes after
        // every op) beside which the protocol's --trace file can be read
        const bool dump = qEnvironmentVariable("MEMVIZ_TIMELINE_OF") == c["id"].toString();
        o.timeline = dump;
        const Estimate e = estimate(spec, o);
        if (dump)
            for (const TimelineSample& t : e.timeline)
                qInfo("%s\t%s\t%lld", phaseName(t.phase), qPrintable(t.op), static_cast<long long>(t.bytes));
        QCOMPARE(qint64(e.parameterCount + e.adapterParameterCount), c["param_count"].toInteger());
        if (o.training) QCOMPARE(qint64(e.trainableParameterCount), c["trainable_count"].toInteger());
        Row r;
        r.id = c["id"].toString();
        r.training = o.training;
        r.loraLong = o.lora.rank > 0 && o.seqLen >= 512;
        r.measured = static_cast<double>(c["peak_bytes"].toInteger());
        r.predicted = static_cast<double>(e.peakBytes);
        r.accelerate = static_cast<double>(accelerateEstimate(e.parameterCount, o.dtype, o.training));
        r.measuredPhase = c["peak_phase"].toString();
        r.predictedPhase = phaseName(e.peakPhase);
        rows_.push_back(r);
    }
    qInfo("%-52s %10s %10s %8s %10s %9s", "config", "measured", "predicted", "error", "accelerate", "acc.err");
    for (const Row& r : rows_)
        qInfo("%-52s %10.2f %10.2f %+7.2f%% %10.2f %+8.1f%%", qPrintable(r.id), r.measured / 1048576, r.predicted / 1048576,
              r.error(), r.accelerate / 1048576, r.accelerateError());
}

void TestCostModelLlmValidation::gridCoversTheIssue() {
    const auto loraLong = std::count_if(rows_.begin(), rows_.end(), [](const Row& r) { return r.loraLong; });
    const auto inference = std::count_if(rows_.begin(), rows_.end(), [](const Row& r) { return !r.training; });
    qInfo("%d configurations: %d with LoRA and seq >= 512, %d inference", int(rows_.size()), int(loraLong), int(inference));
    QVERIFY(loraLong >= 60);
    QVERIFY(inference >= 10);
}

void TestCostModelLlmValidation::everyConfigWithin8Percent() {
    for (const Row& r : rows_)
        QVERIFY2(std::abs(r.error()) <= 8.0, qPrintable(QStringLiteral("%1: predicted %2 B, measured %3 B (%4%)")
                                                            .arg(r.id)
                                                            .arg(r.predicted, 0, 'f', 0)
                                                            .arg(r.measured, 0, 'f', 0)
                                                            .arg(r.error(), 0, 'f', 2)));
}

void TestCostModelLlmValidation::errorDistributionMeetsTheAim() {
    for (const bool training : {true, false}) {
        std::vector<double> errs, acc;
        for (const Row& r : rows_)
            if (r.training == training) {
                errs.push_back(std::abs(r.error()));
                acc.push_back(std::abs(r.accelerateError()));
            }
        QVERIFY(!errs.empty());
        qInfo("%s: %d configs, |error| median %.2f%%, worst %.2f%%; accelerate's rule: median %.1f%%, worst %.1f%%",
              training ? "training" : "inference", int(errs.size()), median(errs), *std::max_element(errs.begin(), errs.end()),
              median(acc), *std::max_element(acc.begin(), acc.end()));
        QVERIFY(median(errs) <= 3.0);
        QVERIFY(*std::max_element(errs.begin(), errs.end()) <= 8.0);
    }
}

QTEST_GUILESS_MAIN(TestCostModelLlmValidation)
#include "tst_costmodel_llm_validation.moc"

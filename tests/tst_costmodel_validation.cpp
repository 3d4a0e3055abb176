// SPDX-License-Identifier: MIT
// The cost model against real PyTorch: every configuration of tests/data/costmodel/measured.json
// (bench/costmodel/measure.py, PyTorch 1.13 on CPU) rebuilt from the same JSON spec and
// predicted with --device cpu; with MEMVIZ_MEASURED_RELEASE=2.13 (ctest's *_2.13 run) the same
// grid measured under PyTorch 2.13 (measured_2.13.json), predicted with --torch 2.x. Each
// prediction must be within +-15% of the measured peak; the aim (median <= 3%, worst <= 8%) is
// asserted too. accelerate's rule is printed beside.
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
    bool holdout = false;
};

} // namespace

class TestCostModelValidation : public QObject {
    Q_OBJECT
private slots:
    void initTestCase();
    void everyConfigWithin15Percent();
    void phasesAgree();
    void errorDistributionMeetsTheAim();

private:
    std::vector<Row> rows_;
};

void TestCostModelValidation::initTestCase() {
    const QByteArray text = memviz::test::readFile(memviz::test::measuredFile(QStringLiteral("measured")));
    const QJsonObject doc = QJsonDocument::fromJson(text).object();
    const TorchVersion torch = memviz::test::measuredTorch(doc);
    qInfo("PyTorch %s (predicted as --torch %s)", qPrintable(doc["machine"].toObject()["torch"].toString()),
          torch == TorchVersion::V1_13 ? "1.13" : "2.x");
    const QJsonArray configs = doc["configs"].toArray();
    QVERIFY(configs.size() >= 60);
    for (const QJsonValue& v : configs) {
        const QJsonObject c = v.toObject();
        if (c["skipped"].toBool()) continue;
        const ModelSpec spec = memviz::test::measuredSpec(c);
        const EstimateOptions o = memviz::test::measuredOptions(c, torch);
        const Estimate e = estimate(spec, o);
        QCOMPARE(qint64(e.parameterCount), c["param_count"].toInteger());
        Row r;
        r.id = c["id"].toString();
        r.holdout = c["holdout"].toBool();
        r.measured = static_cast<double>(c["peak_bytes"].toInteger());
        r.predicted = static_cast<double>(e.peakBytes);
        r.accelerate = static_cast<double>(accelerateEstimate(e.parameterCount, o.dtype, o.training));
        r.measuredPhase = c["peak_phase"].toString();
        r.predictedPhase = phaseName(e.peakPhase);
        rows_.push_back(r);
    }
    qInfo("%-44s %10s %10s %8s %10s %9s", "config", "measured", "predicted", "error", "accelerate", "acc.err");
    for (const Row& r : rows_)
        qInfo("%-44s %10.2f %10.2f %+7.2f%% %10.2f %+8.1f%%", qPrintable(r.id + (r.holdout ? " (holdout)" : "")),
              r.measured / 1048576, r.predicted / 1048576, r.error(), r.accelerate / 1048576, r.accelerateError());
}

void TestCostModelValidation::everyConfigWithin15Percent() {
    for (const Row& r : rows_)
        QVERIFY2(std::abs(r.error()) <= 15.0, qPrintable(QStringLiteral("%1: predicted %2 B, measured %3 B (%4%)")
                                                             .arg(r.id)
                                                             .arg(r.predicted, 0, 'f', 0)
                                                             .arg(r.measured, 0, 'f', 0)
                                                             .arg(r.error(), 0, 'f', 2)));
}

void TestCostModelValidation::phasesAgree() {
    int same = 0;
    for (const Row& r : rows_) same += r.measuredPhase == r.predictedPhase;
    qInfo("peak phase agrees in %d of %d configurations", same, int(rows_.size()));
    QCOMPARE(same, int(rows_.size()));
}

void TestCostModelValidation::errorDistributionMeetsTheAim() {
    for (const bool holdout : {false, true}) {
        std::vector<double> errs, acc;
        for (const Row& r : rows_)
            if (r.holdout == holdout) {
                errs.push_back(std::abs(r.error()));
                acc.push_back(std::abs(r.accelerateError()));
            }
        if (errs.empty()) continue;
        auto within = [&](double pct) { return std::count_if(errs.begin(), errs.end(), [&](double e) { return e <= pct; }); };
        qInfo("%s: %d configs, |error| median %.2f%%, worst %.2f%%, within 5/10/15%%: %d/%d/%d; accelerate's rule: median "
              "%.1f%%, worst %.1f%%",
              holdout ? "holdout" : "grid", int(errs.size()), median(errs), *std::max_element(errs.begin(), errs.end()),
              int(within(5)), int(within(10)), int(within(15)), median(acc), *std::max_element(acc.begin(), acc.end()));
        // The aim of issue 54 for both releases: median <= 3%, worst <= 8% (1.13 reaches 0.06% /
        // 0.32%, 2.13 0.18% / 7.96%: nn.TransformerEncoderLayer in bf16, docs/costmodel.md).
        QVERIFY(median(errs) <= 3.0);
        QVERIFY(*std::max_element(errs.begin(), errs.end()) <= 8.0);
    }
}

QTEST_GUILESS_MAIN(TestCostModelValidation)
#include "tst_costmodel_validation.moc"

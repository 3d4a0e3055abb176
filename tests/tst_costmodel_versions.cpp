// SPDX-License-Identifier: MIT
// The cost model against PyTorch 1.13 and 2.13 measured with one protocol (issue 54): the
// configurations of bench/costmodel/measure.py --grid versions (default, foreach and fused
// optimizers), measured under Debian's PyTorch 1.13 and the pinned PyTorch 2.13 into
// tests/data/costmodel/measured_versions_{1.13,2.13}.json. Each file is predicted with the
// release it names (--torch), and holds the aims of the CPU grid: median |error| <= 3%, worst
// <= 8%; 2.13 also has non-reentrant checkpointing (use_reentrant=False) and SDPA attention.
// Where the releases differ (foreach Adam and Adagrad keep fewer temporaries in 2.x), the
// difference the model predicts is the one measured.
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QtTest>

#include <cmath>
#include <map>

#include "CostModelMeasured.h"
#include "TestSupport.h"

using namespace memviz::costmodel;
using memviz::test::MeasuredRow;

namespace {
// Rows outside the aim, with the bound of |error| they reach (docs/costmodel.md, "PyTorch 1.13
// and 2.x"): checkpoint_sequential with use_reentrant=False is predicted as the reentrant one,
// which keeps more during the backward (over, the safe side).
const std::map<QString, double> kKnownGaps = {
    {QStringLiteral("2.13 cnn-bn-b128-fp32-sgd-ckpt4nr"), 19.0},
};
} // namespace

class TestCostModelVersions : public QObject {
    Q_OBJECT
    struct File {
        TorchVersion torch;
        std::vector<MeasuredRow> rows;
        std::map<QString, const MeasuredRow*> byId;
    };
    std::map<QString, File> files_; // "1.13", "2.13"

private slots:
    void initTestCase();
    void eachReleaseMeetsTheAim();
    void releasesDifferAsMeasured();
};

void TestCostModelVersions::initTestCase() {
    for (const QString& release : {QStringLiteral("1.13"), QStringLiteral("2.13")}) {
        const QByteArray text =
            memviz::test::readFile(QStringLiteral(MEMVIZ_TEST_DATA) + "/costmodel/measured_versions_" + release + ".json");
        const QJsonObject doc = QJsonDocument::fromJson(text).object();
        QVERIFY2(doc.contains("configs"), qPrintable(release));
        File& f = files_[release];
        f.torch = memviz::test::measuredTorch(doc);
        QCOMPARE(f.torch, release == "1.13" ? TorchVersion::V1_13 : TorchVersion::V2);
        for (const QJsonValue v : doc["configs"].toArray()) {
            const QJsonObject c = v.toObject();
            if (c["skipped"].toBool()) continue; // fused optimizers on the CPU: 2.x only
            MeasuredRow r;
            r.id = c["id"].toString();
            r.measured = static_cast<double>(c["peak_bytes"].toInteger());
            r.predicted = static_cast<double>(
                estimate(memviz::test::measuredSpec(c), memviz::test::measuredOptions(c, f.torch)).peakBytes);
            f.rows.push_back(r);
        }
        for (const MeasuredRow& r : f.rows) f.byId[r.id] = &r;
    }
    QCOMPARE(files_["1.13"].rows.size(), std::size_t(10)); // fused optimizers, SDPA and most non-reentrant rows need 2.x
    QCOMPARE(files_["2.13"].rows.size(), std::size_t(25));
}

void TestCostModelVersions::eachReleaseMeetsTheAim() {
    for (const auto& [release, f] : files_) {
        std::vector<double> errs;
        for (const MeasuredRow& r : f.rows) {
            qInfo("%-5s %-40s measured %8.2f MiB  predicted %8.2f MiB  %+6.2f%%", qPrintable(release), qPrintable(r.id),
                  r.measured / 1048576, r.predicted / 1048576, r.error());
            const auto gap = kKnownGaps.find(release + " " + r.id);
            if (gap == kKnownGaps.end()) {
                errs.push_back(std::abs(r.error()));
                continue;
            }
            QVERIFY2(r.error() > 0 && r.error() <= gap->second, qPrintable(r.id)); // over, within its bound
        }
        const double worst = *std::max_element(errs.begin(), errs.end());
        qInfo("PyTorch %s: %d configs, |error| median %.2f%%, worst %.2f%%", qPrintable(release), int(errs.size()),
              memviz::test::median(errs), worst);
        QVERIFY2(memviz::test::median(errs) <= 3.0, qPrintable(release));
        QVERIFY2(worst <= 8.0, qPrintable(release));
    }
}

// Within a release, every MLP configuration against the default Adam (for-loop on the CPU) of
// the same model and batch: what each optimizer implementation adds or saves, without the
// release's own fixed costs. foreach
// Adam keeps `denom` beside the sqrt list in 1.13 (+40 MiB for this MLP) and adds eps in place
// in 2.x (-4 MiB: one parameter-sized list against the for-loop's largest pair); foreach
// Adagrad keeps three lists in 1.13 and two in 2.x. Measured and predicted differences agree
// within 1 MiB.
void TestCostModelVersions::releasesDifferAsMeasured() {
    int compared = 0;
    for (const auto& [release, f] : files_) {
        const MeasuredRow* base = f.byId.at("mlp-b128-fp32-adam");
        for (const MeasuredRow& r : f.rows) {
            if (!r.id.startsWith("mlp-") || r.id.contains("ckpt") || &r == base) continue;
            const double measured = (r.measured - base->measured) / 1048576, predicted = (r.predicted - base->predicted) / 1048576;
            qInfo("%-5s %-34s - default Adam: measured %+7.2f MiB, predicted %+7.2f MiB", qPrintable(release), qPrintable(r.id),
                  measured, predicted);
            QVERIFY2(std::abs(measured - predicted) <= 1.0, qPrintable(release + " " + r.id));
            ++compared;
        }
    }
    QCOMPARE(compared, 6 + 8); // 1.13: no fused; 2.13: all eight
    // and the releases differ where the model says they do: foreach Adam, 1.13 against 2.13
    const double old = files_["1.13"].byId.at("mlp-b128-fp32-adam_foreach")->measured - files_["1.13"].byId.at("mlp-b128-fp32-adam")->measured;
    const double now = files_["2.13"].byId.at("mlp-b128-fp32-adam_foreach")->measured - files_["2.13"].byId.at("mlp-b128-fp32-adam")->measured;
    QVERIFY2(old - now > 40.0 * 1048576, "foreach Adam keeps one parameter set of temporaries less in 2.13");
}

QTEST_GUILESS_MAIN(TestCostModelVersions)
#include "tst_costmodel_versions.moc"

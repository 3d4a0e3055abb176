// SPDX-License-Identifier: MIT
// `memviz estimate --config` against the real Hugging Face models of every model_type the family
// tables read (issue 54, item 5): bench/costmodel/hf_measure.py built each one with transformers'
// from_config from its config cut to fit the CPU (tests/data/hf/cut/, the very files read here)
// and measured, under PyTorch 2.13 and measure.py's protocol, a training step with AdamW, the
// same with LoRA through peft and inference with the model's own KV cache
// (tests/data/costmodel/measured_hf_2.13.json). Each run is estimated by the real binary with the
// same knobs and compared with the measured peak, per mode: the aim of the CPU grid (median
// |error| <= 3%, worst <= 8%) where it is reached, the bound reached where it is not; the
// families still outside the aim are listed with their bound here and in docs/costmodel.md
// ("Families measured").
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QtTest>

#include <cmath>
#include <map>

#include "CostModelMeasured.h"
#include "TestSupport.h"

using namespace memviz::test;

namespace {

struct Aim {
    double median, worst; // |error| in percent over the mode's runs outside kKnownGaps
};

// Per mode: the bounds every run not listed in kKnownGaps holds.
const std::map<QString, Aim> kAims = {
    {QStringLiteral("train"), {3.0, 8.0}},
    {QStringLiteral("lora"), {3.0, 8.0}},
    {QStringLiteral("infer"), {3.0, 8.0}},
};

// Runs outside the aim: the bound of |error| reached, rounded up (docs/costmodel.md, "Families
// measured", says what each misses).
const std::map<QString, double> kKnownGaps = {
    {QStringLiteral("jamba-v0.1-lora"), 10.0},
    {QStringLiteral("vit-base-patch16-224-infer"), 10.0},
    {QStringLiteral("vit-base-patch16-224-lora"), 10.0},
};

// Runs the real library cannot make, with the reason its error gives: peft refuses LoRA on
// Mamba's out_proj and conv1d, which target_modules="all-linear" names.
const std::map<QString, QString> kNotRunnable = {
    {QStringLiteral("mamba-130m-lora"), QStringLiteral("incompatible with Mamba-based models")},
};

} // namespace

class TestHfMeasured : public QObject {
    Q_OBJECT
    std::vector<MeasuredRow> rows_;
    std::map<QString, QString> modeOf_;
    int notRunnable_ = 0;

private slots:
    void initTestCase();
    void everyModelTypeMeasured();
    void eachModeWithinItsBound();
};

void TestHfMeasured::initTestCase() {
    const QByteArray text = readFile(QStringLiteral(MEMVIZ_TEST_DATA) + "/costmodel/measured_hf_2.13.json");
    const QJsonObject doc = QJsonDocument::fromJson(text).object();
    QVERIFY(doc.contains("configs"));
    QVERIFY2(doc["machine"].toObject()["torch"].toString().startsWith("2.13"), "measured under PyTorch 2.13");
    for (const QJsonValue v : doc["configs"].toArray()) {
        const QJsonObject c = v.toObject();
        if (c["skipped"].toBool()) {
            const auto known = kNotRunnable.find(c["id"].toString());
            QVERIFY2(known != kNotRunnable.end() && c["reason"].toString().contains(known->second),
                     qPrintable(c["id"].toString() + ": " + c["reason"].toString()));
            ++notRunnable_;
            continue;
        }
        const QString mode = c["mode"].toString();
        QStringList args{"estimate",
                         "--config",
                         QStringLiteral(MEMVIZ_TEST_DATA) + "/" + c["config"].toString(),
                         "--seq",
                         QString::number(c["seq"].toInt()),
                         "--batch",
                         QString::number(c["batch"].toInt()),
                         "--dtype",
                         "fp32",
                         "--device",
                         "cpu",
                         "--torch",
                         "2.x",
                         "--json"};
        if (mode == "infer") {
            args << "--inference";
            // Encoder-decoders too: their self- and cross-attention caches are modelled (FitPlanExtras.cpp).
            if (c["kv_cache"].toInt() > 0)
                args << "--kv-cache" << QString::number(c["kv_cache"].toInt());
        } else {
            args << "--optimizer" << c["optimizer"].toString();
            if (mode == "lora") args << "--lora-rank" << QString::number(c["lora"].toInt()) << "--lora-targets" << c["lora_targets"].toString();
        }
        const ProcessResult r = runMemviz(args);
        QVERIFY2(r.exitCode == 0, qPrintable(c["id"].toString() + ": " + QString::fromUtf8(r.err)));
        const QJsonObject j = QJsonDocument::fromJson(r.out).object();
        MeasuredRow row;
        row.id = c["id"].toString();
        row.measured = static_cast<double>(c["peak_bytes"].toInteger());
        row.predicted = static_cast<double>(j["peak_bytes_per_device"].toInteger());
        row.measuredPhase = c["peak_phase"].toString();
        row.predictedPhase = j["peak_phase"].toString();
        QVERIFY2(row.predicted > 0, qPrintable(row.id));
        rows_.push_back(row);
        modeOf_[row.id] = mode;
    }
}

// Every model_type of the family tables has its three runs (tests/data/hf/SOURCES.md lists 42).
void TestHfMeasured::everyModelTypeMeasured() {
    QCOMPARE(rows_.size() + std::size_t(notRunnable_), std::size_t(42 * 3));
    QCOMPARE(notRunnable_, int(kNotRunnable.size()));
    for (const auto& [id, bound] : kKnownGaps) QVERIFY2(modeOf_.count(id), qPrintable(id + ": no such run"));
}

void TestHfMeasured::eachModeWithinItsBound() {
    for (const auto& [mode, aim] : kAims) {
        std::vector<double> errs;
        for (const MeasuredRow& r : rows_) {
            if (modeOf_[r.id] != mode) continue;
            const double e = r.error();
            const auto gap = kKnownGaps.find(r.id);
            qInfo("%-6s %-34s measured %8.2f MiB (%-9s) predicted %8.2f MiB (%-9s) %+7.2f%%%s", qPrintable(mode),
                  qPrintable(r.id), r.measured / 1048576, qPrintable(r.measuredPhase), r.predicted / 1048576,
                  qPrintable(r.predictedPhase), e, gap != kKnownGaps.end() ? "  (known gap)" : "");
            if (gap != kKnownGaps.end()) {
                QVERIFY2(std::abs(e) <= gap->second, qPrintable(r.id + QStringLiteral(": %1% beyond its bound %2%").arg(e).arg(gap->second)));
                continue;
            }
            QVERIFY2(std::abs(e) <= aim.worst, qPrintable(r.id + QStringLiteral(": %1%").arg(e)));
            errs.push_back(std::abs(e));
        }
        QVERIFY2(!errs.empty(), qPrintable(mode));
        qInfo("%s: %d runs within the aim, |error| median %.2f%%, worst %.2f%%", qPrintable(mode), int(errs.size()),
              median(errs), *std::max_element(errs.begin(), errs.end()));
        QVERIFY2(median(errs) <= aim.median, qPrintable(mode));
    }
}

QTEST_GUILESS_MAIN(TestHfMeasured)
#include "tst_hf_measured.moc"

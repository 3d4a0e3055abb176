// SPDX-License-Identifier: MIT
// Model replay of published CUDA snapshots (issue 53, docs/costmodel.md "Model replay"): each
// replay spec of bench/snapshot_replay/specs/ was written from the public code that recorded a
// snapshot; the cost model predicts its allocated bytes per phase, and recorded.tsv holds what
// the snapshot recorded (bench/snapshot_replay/extract_recorded.py, from the files of
// ../shared/fixtures). No PyTorch and no Python: the committed specs and TSV are the input.
// Aims: peak allocated median |error| <= 3%, worst <= 10%; reserved peak (the caching
// allocator's, the steps before the recorded one simulated through it) median <= 5%, worst
// <= 10%; the rows outside are listed below with the bound they reach and why (the doc
// explains each).
#include <QDir>
#include <QTemporaryDir>
#include <QtTest>

#include <algorithm>
#include <cmath>
#include <map>

#include "TestSupport.h"
#include "costmodel/SnapshotReplay.h"
#include "costmodel/SpecParser.h"

using namespace memviz::costmodel;

namespace {
const QString kDir = QStringLiteral(MEMVIZ_SOURCE_DIR) + "/bench/snapshot_replay";

// "spec file name / phase" -> the bound of |error| in percent it reaches (docs/costmodel.md,
// "Model replay", "Misses").
const std::map<QString, double> kKnownMisses = {
    // Recorded with --autocast true (a command-line flag the repository does not record; the
    // spec follows the script's default, false): bf16 scores and activations.
    {QStringLiteral("wedsonlin-medium-512-training.json forward_end"), 20.0},
    {QStringLiteral("wedsonlin-medium-512-training.json backward_peak"), 20.0},
    {QStringLiteral("wedsonlin-medium-512-training.json peak"), 20.0},
    {QStringLiteral("wedsonlin-medium-1024-training.json forward_end"), 31.0},
    {QStringLiteral("wedsonlin-medium-1024-training.json backward_peak"), 30.0},
    {QStringLiteral("wedsonlin-medium-1024-training.json peak"), 30.0},
    {QStringLiteral("wedsonlin-medium-512-training.json reserved_peak"), 25.0},
    {QStringLiteral("wedsonlin-medium-1024-training.json reserved_peak"), 30.0},
};

struct Recorded {
    std::map<QString, std::int64_t> phase; // column -> bytes
};

std::map<QString, Recorded> readRecorded() {
    std::map<QString, Recorded> rows;
    const QStringList lines = QString::fromUtf8(memviz::test::readFile(kDir + "/recorded.tsv")).split('\n', Qt::SkipEmptyParts);
    if (lines.isEmpty()) return rows;
    const QStringList header = lines.first().split('\t');
    for (qsizetype i = 1; i < lines.size(); ++i) {
        const QStringList cells = lines[i].split('\t');
        if (cells.size() != header.size()) continue;
        Recorded r;
        for (qsizetype c = 1; c < cells.size(); ++c) r.phase[header[c]] = cells[c].toLongLong();
        rows[cells[0]] = r;
    }
    return rows;
}

double median(std::vector<double> v) {
    std::sort(v.begin(), v.end());
    const std::size_t n = v.size();
    return n == 0 ? 0 : n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}
} // namespace

class TestSnapshotModelReplay : public QObject {
    Q_OBJECT
private slots:
    void specsComeFromAtLeastFiveRepositories();
    void predictionsMeetTheAimOrTheirKnownBound();
    void stepsBeforeReportOnlyTheLastStep();
    void graphForwardOnlyStopsAfterTheForward();
    void expandedMaskKeepsAFullSizeBoolPerLayer();
    void badSpecNamesTheFileAndTheField();
};

void TestSnapshotModelReplay::specsComeFromAtLeastFiveRepositories() {
    const QStringList specs = QDir(kDir + "/specs").entryList({"*.json"}, QDir::Files);
    QVERIFY2(specs.size() >= 16, qPrintable(QString::number(specs.size())));
    std::map<std::string, int> repos;
    const std::map<QString, Recorded> recorded = readRecorded();
    for (const QString& name : specs) {
        const ReplaySpec r = readReplaySpec((kDir + "/specs/" + name).toStdString());
        ++repos[r.repository];
        QCOMPARE(r.commit.size(), std::size_t(40)); // a full commit hash
        QVERIFY2(!r.source.empty(), qPrintable(name));
        QVERIFY2(!r.compare.empty(), qPrintable(name));
        QVERIFY2(recorded.count(QString::fromStdString(r.snapshot)), qPrintable(name + ": not in recorded.tsv"));
    }
    QVERIFY2(repos.size() >= 5, qPrintable(QString::number(repos.size())));
}

void TestSnapshotModelReplay::predictionsMeetTheAimOrTheirKnownBound() {
    const std::map<QString, Recorded> recorded = readRecorded();
    std::vector<double> peakErrors, reservedErrors;
    int known = 0;
    for (const QString& name : QDir(kDir + "/specs").entryList({"*.json"}, QDir::Files)) {
        const ReplaySpec r = readReplaySpec((kDir + "/specs/" + name).toStdString());
        const Estimate e = estimate(r.model, r.options);
        const PhaseAllocated p = phaseAllocated(e);
        const Recorded& rec = recorded.at(QString::fromStdString(r.snapshot));
        std::vector<std::string> phases = r.compare;
        phases.push_back("reserved_peak");
        for (const std::string& phase : phases) {
            const auto truth = static_cast<double>(rec.phase.at(QString::fromStdString(phase)));
            QVERIFY2(truth > 0, qPrintable(name + " " + QString::fromStdString(phase)));
            // on CUDA the estimate's peak is the caching allocator's reserved peak (+ the context)
            const std::int64_t predicted =
                phase == "reserved_peak" ? e.peakBytes - r.options.cudaContextBytes : phaseValue(p, phase);
            const double err = 100.0 * (static_cast<double>(predicted) - truth) / truth;
            const QString key = name + " " + QString::fromStdString(phase);
            qInfo("%-60s recorded %10.1f MiB  predicted %10.1f MiB  %+7.2f%%", qPrintable(key), truth / 1048576,
                  static_cast<double>(predicted) / 1048576, err);
            const auto miss = kKnownMisses.find(key);
            if (miss != kKnownMisses.end()) {
                ++known;
                QVERIFY2(std::abs(err) <= miss->second, qPrintable(key + QString(": %1%").arg(err)));
                continue;
            }
            QVERIFY2(std::abs(err) <= 10.0, qPrintable(key + QString(": %1%").arg(err)));
            if (phase == "peak") peakErrors.push_back(std::abs(err));
            if (phase == "reserved_peak") reservedErrors.push_back(std::abs(err));
        }
    }
    QCOMPARE(known, static_cast<int>(kKnownMisses.size())); // every listed miss is still compared
    QVERIFY(peakErrors.size() >= 10);
    const double med = median(peakErrors);
    qInfo("peak allocated outside the known misses: %zu specs, median |error| %.2f%%", peakErrors.size(), med);
    QVERIFY2(med <= 3.0, qPrintable(QString::number(med)));
    QVERIFY(reservedErrors.size() >= 10);
    const double reservedMed = median(reservedErrors);
    qInfo("reserved peak outside the known misses: %zu specs, median |error| %.2f%%", reservedErrors.size(), reservedMed);
    QVERIFY2(reservedMed <= 5.0, qPrintable(QString::number(reservedMed)));
}

// The warm-up steps run through the same allocator, but the timeline is the reported step's:
// with zero_grad(set_to_none) after each step and the output deleted, the reported step starts
// from the steady state the single-step estimate makes up front (same ops, same allocated
// bytes within the lazily made optimizer state's order), while its reserved peak counts the
// warm-up's cached segments.
void TestSnapshotModelReplay::stepsBeforeReportOnlyTheLastStep() {
    ReplaySpec r = readReplaySpec((kDir + "/specs/wedsonlin-medium-128-training.json").toStdString());
    QCOMPARE(r.options.stepsBefore, 5);
    const Estimate warm = estimate(r.model, r.options);
    r.options.stepsBefore = 0;
    const Estimate single = estimate(r.model, r.options);
    QCOMPARE(warm.timeline.size(), single.timeline.size());
    QVERIFY(!warm.marks.empty());
    QCOMPARE(warm.marks.front().name, std::string("step start"));
    QCOMPARE(warm.marks.front().sample, 0);
    const PhaseAllocated a = phaseAllocated(warm), b = phaseAllocated(single);
    QVERIFY2(std::abs(static_cast<double>(a.peak - b.peak)) <= 0.01 * static_cast<double>(b.peak),
             qPrintable(QString("%1 vs %2").arg(a.peak).arg(b.peak)));
    QVERIFY(warm.peakBytes > 0 && single.peakBytes > 0);
}

// `logits = model(x)` with autograd on and nothing after it: no loss, backward or step; the
// graph keeps more than a no_grad forward (whose activations go layer by layer), and the first
// step has no gradients or optimizer state before it.
void TestSnapshotModelReplay::graphForwardOnlyStopsAfterTheForward() {
    ReplaySpec r = readReplaySpec((kDir + "/specs/kkaitlyn111-2.7b-128-forward.json").toStdString());
    QVERIFY(r.options.graphForwardOnly);
    QCOMPARE(r.options.step, 1);
    const PhaseAllocated graph = phaseAllocated(estimate(r.model, r.options));
    QCOMPARE(graph.backwardPeak, std::int64_t{0});
    QCOMPARE(graph.stepPeak, std::int64_t{0});
    QCOMPARE(graph.peak, graph.forwardEnd);
    r.options.graphForwardOnly = false;
    r.options.training = false; // the same forward under no_grad
    const PhaseAllocated noGrad = phaseAllocated(estimate(r.model, r.options));
    // the graph keeps at least the 32 layers' saved B x H x S x S scores (4*32*128*128*4 B each)
    QVERIFY2(graph.peak - noGrad.peak > 32 * std::int64_t{4 * 32 * 128 * 128 * 4},
             qPrintable(QString("%1 vs %2").arg(graph.peak).arg(noGrad.peak)));
}

// masked_fill(mask == False, -1e9) on a mask expanded to [B, H, S, T]: the comparison's result
// is a full-size bool, which MaskedFillBackward0 keeps: B*H*S*T bytes per layer alive at the
// forward's end (4*32*128*128 = 2 MiB a layer, 32 layers) where torch.where keeps S x T.
void TestSnapshotModelReplay::expandedMaskKeepsAFullSizeBoolPerLayer() {
    ReplaySpec r = readReplaySpec((kDir + "/specs/kkaitlyn111-2.7b-128-forward.json").toStdString());
    const PhaseAllocated expanded = phaseAllocated(estimate(r.model, r.options));
    int layers = 0;
    for (Layer& l : r.model.layers)
        if (l.expandedMask) {
            l.expandedMask = false;
            ++layers;
        }
    QCOMPARE(layers, 32);
    const PhaseAllocated plain = phaseAllocated(estimate(r.model, r.options));
    const std::int64_t perLayer = 4 * 32 * 128 * 128, small = 128 * 128;
    QCOMPARE(expanded.forwardEnd - plain.forwardEnd, layers * (perLayer - small)); // instead of where's S x T mask
}

void TestSnapshotModelReplay::badSpecNamesTheFileAndTheField() {
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    const QByteArray good = memviz::test::readFile(kDir + "/specs/wedsonlin-medium-128-training.json");
    QVERIFY(!good.isEmpty());
    const auto errorOf = [&](const QString& name, const QByteArray& text) -> QString {
        const QString path = memviz::test::writeFile(dir, name, text);
        try {
            readReplaySpec(path.toStdString());
        } catch (const SpecError& e) {
            return QString::fromStdString(e.what());
        }
        return {};
    };
    QByteArray noCommit = good;
    noCommit.replace("\"commit\"", "\"commitx\"");
    QString e = errorOf("no-commit.json", noCommit);
    QVERIFY2(e.contains("no-commit.json") && e.contains("commitx"), qPrintable(e));

    QByteArray badBatch = good;
    badBatch.replace("\"batch\": 4", "\"batch\": \"four\"");
    e = errorOf("bad-batch.json", badBatch);
    QVERIFY2(e.contains("bad-batch.json") && e.contains("options.batch"), qPrintable(e));

    QByteArray badSteps = good;
    badSteps.replace("\"steps_before\": 5", "\"steps_before\": -1");
    e = errorOf("bad-steps.json", badSteps);
    QVERIFY2(e.contains("bad-steps.json") && e.contains("options.steps_before"), qPrintable(e));

    QByteArray badPhase = good;
    badPhase.replace("\"step_peak\"", "\"optimizer_peak\"");
    e = errorOf("bad-phase.json", badPhase);
    QVERIFY2(e.contains("bad-phase.json") && e.contains("compare"), qPrintable(e));

    QByteArray badLayer = good;
    badLayer.replace("\"manual_silu\"", "\"manual_gelu\"");
    e = errorOf("bad-layer.json", badLayer);
    QVERIFY2(e.contains("bad-layer.json") && e.contains("manual_gelu"), qPrintable(e));

    e = errorOf("missing.json", "{\"snapshot\": \"x\"}");
    QVERIFY2(e.contains("missing.json") && e.contains("repository"), qPrintable(e));
}

QTEST_GUILESS_MAIN(TestSnapshotModelReplay)
#include "tst_snapshot_model_replay.moc"

// SPDX-License-Identifier: MIT
// The model lessons' numbers against the cost model itself (every table cell is one estimate
// with the lesson's options) and against hand calculations: float formats from their bits,
// checkpoint_sequential's segments, optimizer state bytes, output and gradient sizes.
#include <QtTest>
#include <cmath>
#include <limits>

#include "costmodel/Presets.h"
#include "costmodel/SpecParser.h"
#include "workshop/CheckpointPlan.h"
#include "workshop/FloatFormats.h"
#include "workshop/FreeingSavings.h"
#include "workshop/LessonSweeps.h"
#include "workshop/ModelFixes.h"

using namespace memviz::costmodel;
using namespace memviz::workshop;

namespace {

// x [B, 1000] -> linear 1000 -> relu -> linear 10, cross-entropy:
// 1000 * 1000 + 1000 + 1000 * 10 + 10 = 1,011,010 parameters.
const char* const kTwoLayer = R"({"name": "two-layer",
 "input": {"shape": [1000], "dtype": "float32"}, "target": {"shape": [], "dtype": "int64"},
 "loss": "cross_entropy",
 "layers": [{"type": "linear", "out_features": 1000}, {"type": "relu"}, {"type": "linear", "out_features": 10}]})";
constexpr std::int64_t kTwoLayerParams = 1011010;

EstimateOptions options(std::int64_t batch, OptimizerKind opt = OptimizerKind::Adam) {
    EstimateOptions o;
    o.batch = batch;
    o.optimizer = opt;
    o.timeline = false;
    return o;
}

std::int64_t peak(const ResolvedModel& m, EstimateOptions o) {
    o.timeline = false;
    return estimate(m, o).peakBytes;
}

} // namespace

class TestWorkshopModel : public QObject {
    Q_OBJECT
private slots:
    void floatFormatsFromTheirBits();
    void checkpointSequentialSegments();
    void batchSweepIsTheCostModel();
    void batchSweepSplitsWhatStaysFromTheGradients();
    void dtypeRows();
    void optimizerRows();
    void checkpointSweep();
    void ampSweep();
    void freeingSavings();
    void fixesAreRankedEstimates();
};

void TestWorkshopModel::floatFormatsFromTheirBits() {
    const FloatFormat* f32 = findFloatFormat("float32");
    const FloatFormat* f64 = findFloatFormat("float64");
    const FloatFormat* f16 = findFloatFormat("float16");
    const FloatFormat* bf16 = findFloatFormat("bfloat16");
    QVERIFY(f32 && f64 && f16 && bf16);
    // Against the C++ library's own numbers for float and double.
    QCOMPARE(f32->epsilon(), double(std::numeric_limits<float>::epsilon()));
    QCOMPARE(f32->maxFinite(), double(std::numeric_limits<float>::max()));
    QCOMPARE(f32->minNormal(), double(std::numeric_limits<float>::min()));
    QCOMPARE(f64->epsilon(), std::numeric_limits<double>::epsilon());
    QCOMPARE(f64->maxFinite(), std::numeric_limits<double>::max());
    // float16 by hand: eps 2^-10, max (2 - 2^-10) * 2^15 = 65504, smallest normal 2^-14.
    QCOMPARE(f16->epsilon(), 0.0009765625);
    QCOMPARE(f16->maxFinite(), 65504.0);
    QCOMPARE(f16->minNormal(), 1.0 / 16384.0);
    // bfloat16: float32's range with 7 mantissa bits: eps 2^-7, max (2 - 2^-7) * 2^127.
    QCOMPARE(bf16->epsilon(), 0.0078125);
    QCOMPARE(bf16->maxFinite(), (2.0 - 1.0 / 128.0) * std::ldexp(1.0, 127));
    QCOMPARE(bf16->bytes(), 2);
    QCOMPARE(f32->bits(), 32);
    QVERIFY(std::fabs(f32->decimalDigits() - 24 * std::log10(2.0)) < 1e-12); // ~7.2
    QVERIFY(!findFloatFormat("float8"));
}

void TestWorkshopModel::checkpointSequentialSegments() {
    // n = 10, K = 3: segments of 10 // 3 = 3 layers, the last takes the rest: 3, 3, 4;
    // the first two are recomputed: 6 layers.
    QCOMPARE(checkpointSegmentSize(10, 3), 3);
    QCOMPARE(checkpointSegmentLayers(10, 3), (std::vector<int>{3, 3, 4}));
    QCOMPARE(recomputedLayers(10, 3), 6);
    QCOMPARE(recomputedLayers(16, 4), 12);
    QCOMPARE(recomputedLayers(16, 1), 0);
    QCOMPARE(recomputedLayers(16, 16), 15);
    QCOMPARE(checkpointSegmentLayers(5, 1), (std::vector<int>{5}));
    // round(sqrt(n)): 16 -> 4, 10 -> 3 (3.16), 13 -> 4 (3.61), 2 -> 1 (1.41).
    QCOMPARE(sqrtSegments(16), 4);
    QCOMPARE(sqrtSegments(10), 3);
    QCOMPARE(sqrtSegments(13), 4);
    QCOMPARE(sqrtSegments(2), 1);
    QCOMPARE(sqrtSegments(0), 1);
}

void TestWorkshopModel::batchSweepIsTheCostModel() {
    const ResolvedModel m = resolveModel(parseModelSpec(kTwoLayer));
    QCOMPARE(batchSteps(10), (std::vector<std::int64_t>{1, 2, 4, 8, 10}));
    QCOMPARE(batchSteps(8), (std::vector<std::int64_t>{1, 2, 4, 8}));
    const auto rows = batchSweep(m, options(1), {1, 8, 100});
    QCOMPARE(rows.size(), std::size_t(3));
    for (const Footprint& f : rows) {
        QCOMPARE(f.peakBytes, peak(m, options(f.batch)));
        std::int64_t sum = 0;
        for (std::int64_t b : f.breakdown) sum += b;
        QCOMPARE(sum, f.peakBytes); // the categories add up to the peak
    }
    // Weights do not grow with the batch; activations do.
    QCOMPARE(rows[0].at(Category::Parameters), rows[2].at(Category::Parameters));
    QVERIFY(rows[2].batchBytes() > rows[0].batchBytes());
}

void TestWorkshopModel::batchSweepSplitsWhatStaysFromTheGradients() {
    // Lesson 2 on its default model (issue 19: its "does not grow" column shrank from 382.66 to
    // 300.50 MiB as the batch grew, because it counted the gradients alive at the peak).
    // torchvision's ResNet-50: 25,557,032 parameters = 102,228,128 B in fp32; Adam keeps two
    // moments per parameter = 204,456,256 B; 53 BatchNorm layers over 26,560 channels keep a
    // running mean and variance (2 * 26,560 * 4 = 212,480 B) and an int64 step count (424 B);
    // PyTorch 1.13's Adam also keeps its step as a float32 tensor per parameter tensor (161:
    // 53 convolutions, 53 BatchNorm weights and biases, the linear weight and bias) = 644 B.
    const ResolvedModel m = resolveModel(presetSpec("resnet50"));
    constexpr std::int64_t kParams = 25'557'032 * 4;
    constexpr std::int64_t kAdam = 2 * kParams + 161 * 4;
    constexpr std::int64_t kStays = kParams + kAdam + 212'480 + 424; // 306,897,932 B
    std::optional<std::int64_t> gradsBefore;
    for (const Footprint& f : batchSweep(m, options(1), {1, 4, 32})) {
        QCOMPARE(f.parameterBytes, kParams);
        QCOMPARE(f.at(Category::OptimizerState), kAdam);
        QCOMPARE(f.persistentBytes(), kStays); // the same at every batch
        // The peak is in the backward pass (measured with PyTorch 1.13 too, docs/workshop.md):
        // zero_grad(set_to_none=True) freed the gradients and backward makes them last layer
        // first, so a larger batch peaks earlier and sees fewer of them.
        QCOMPARE(f.peakPhase, Phase::Backward);
        const std::int64_t grads = f.at(Category::Gradients);
        QVERIFY(grads > 0 && grads < kParams);
        if (gradsBefore) QVERIFY2(grads < *gradsBefore, qPrintable(QString::number(grads)));
        gradsBefore = grads;
        QCOMPARE(f.modelStateBytes(), kStays + grads);
    }
}

void TestWorkshopModel::dtypeRows() {
    const ResolvedModel m = resolveModel(parseModelSpec(kTwoLayer));
    const auto rows = dtypeComparison(m, options(32));
    QCOMPARE(rows.size(), std::size_t(6));
    for (const DTypeRow& r : rows) {
        EstimateOptions o = options(32);
        o.dtype = r.dtype;
        o.amp = r.amp;
        o.training = false;
        QCOMPARE(r.inferencePeakBytes, peak(m, o));
        if (r.training) {
            o.training = true;
            QCOMPARE(r.peakBytes, peak(m, o));
        }
    }
    const auto row = [&](const char* id) {
        return *std::find_if(rows.begin(), rows.end(), [&](const DTypeRow& r) { return r.id == id; });
    };
    QCOMPARE(row("fp32").parameterBytes, 4 * kTwoLayerParams);
    QCOMPARE(row("bf16").parameterBytes, 2 * kTwoLayerParams);
    QCOMPARE(row("fp64").parameterBytes, 8 * kTwoLayerParams);
    QCOMPARE(row("amp").parameterBytes, 4 * kTwoLayerParams); // autocast keeps fp32 weights
    QCOMPARE(row("int8").parameterBytes, kTwoLayerParams);
    QVERIFY(!row("int8").training);
}

void TestWorkshopModel::optimizerRows() {
    const ResolvedModel m = resolveModel(parseModelSpec(kTwoLayer));
    EstimateOptions base = options(16);
    base.lbfgsHistory = 10;
    const auto rows = optimizerComparison(m, base);
    QCOMPARE(rows.size(), std::size_t(7));
    for (const OptimizerRow& r : rows) {
        EstimateOptions o = base;
        o.optimizer = r.kind;
        QCOMPARE(r.footprint.peakBytes, peak(m, o));
    }
    const auto row = [&](OptimizerKind k) {
        return *std::find_if(rows.begin(), rows.end(), [&](const OptimizerRow& r) { return r.kind == k; });
    };
    // Adam: 2 fp32 states per parameter = 2 * 1,011,010 * 4 = 8,088,080 B; 4 + 4 + 8 = 16 B per parameter.
    QCOMPARE(row(OptimizerKind::Adam).stateBytes, qint64(8088080));
    QCOMPARE(row(OptimizerKind::Adam).bytesPerParameter, 16.0);
    QCOMPARE(row(OptimizerKind::Sgd).stateBytes, qint64(0));
    QCOMPARE(row(OptimizerKind::Sgd).bytesPerParameter, 8.0);
    QCOMPARE(row(OptimizerKind::Momentum).stateBytes, qint64(4044040));
    // LBFGS with history 10: 2 + 2 * 10 = 22 states: 4 * (2 + 22) = 96 B per parameter.
    QCOMPARE(row(OptimizerKind::Lbfgs).bytesPerParameter, 96.0);
    QCOMPARE(row(OptimizerKind::Lbfgs).stateBytes, qint64(22) * kTwoLayerParams * 4);
    // The optimizer state the cost model holds at the peak, for Adam: the 8,088,080 B of the two
    // moments plus a 0-d float32 `step` tensor per parameter tensor (4 tensors * 4 B).
    QCOMPARE(row(OptimizerKind::Adam).footprint.at(Category::OptimizerState), qint64(8088080 + 4 * 4));
}

void TestWorkshopModel::checkpointSweep() {
    const ResolvedModel m = resolveModel(presetSpec("mlp"));
    const int n = m.topLevelLayerCount();
    const auto rows = memviz::workshop::checkpointSweep(m, options(64));
    QCOMPARE(int(rows.size()), n);
    QCOMPARE(rows.front().footprint.peakBytes, peak(m, options(64))); // K = 1: no checkpointing
    for (const CheckpointRow& r : rows) {
        QCOMPARE(r.recomputedLayers, (r.segments - 1) * (n / r.segments));
        EstimateOptions o = options(64);
        o.checkpoint = {CheckpointMode::Segments, r.segments};
        QCOMPARE(r.footprint.peakBytes, peak(m, o));
    }
    EstimateOptions sqrt = options(64);
    sqrt.checkpoint.mode = CheckpointMode::Sqrt;
    QCOMPARE(rows[std::size_t(sqrtSegments(n) - 1)].footprint.peakBytes, peak(m, sqrt));
    const CheckpointRow* best = lowestPeak(rows);
    QVERIFY(best);
    for (const CheckpointRow& r : rows) QVERIFY(best->footprint.peakBytes <= r.footprint.peakBytes);
}

void TestWorkshopModel::ampSweep() {
    const ResolvedModel m = resolveModel(presetSpec("resnet18"));
    const auto rows = memviz::workshop::ampSweep(m, options(1), {1, 64});
    for (const AmpRow& r : rows) {
        EstimateOptions o = options(r.batch);
        QCOMPARE(r.fp32.peakBytes, peak(m, o));
        o.amp = true;
        QCOMPARE(r.amp.peakBytes, peak(m, o));
        QCOMPARE(r.savedBytes(), r.fp32.peakBytes - r.amp.peakBytes);
    }
    // AMP saves a larger share of a large batch than of a small one (weights stay fp32).
    QVERIFY(rows[1].savedShare() > rows[0].savedShare());
}

void TestWorkshopModel::freeingSavings() {
    const ResolvedModel m = resolveModel(parseModelSpec(kTwoLayer));
    const FreeingSavings s = memviz::workshop::freeingSavings(m, options(100));
    QCOMPARE(s.peakBytes, peak(m, options(100)));
    QCOMPARE(s.outputBytes, qint64(100 * 10 * 4));  // logits [100, 10] fp32
    QCOMPARE(s.gradientBytes, 4 * kTwoLayerParams); // every .grad: 4,044,040 B
    QVERIFY(s.delSavedBytes >= 0 && s.delSavedBytes <= s.outputBytes);
    // With Adam at batch 100 the peak is Adam's step, when every gradient exists anyway:
    // set_to_none saves nothing at the peak.
    QCOMPARE(estimate(m, options(100)).peakPhase, Phase::Optimizer);
    QCOMPARE(s.setToNoneSavedBytes, qint64(0));
    // With SGD and a large batch the peak is in the forward/backward pass: zeroed gradients
    // would add to it (at most all of them).
    const FreeingSavings sgd = memviz::workshop::freeingSavings(m, options(4000, OptimizerKind::Sgd));
    QVERIFY(estimate(m, options(4000, OptimizerKind::Sgd)).peakPhase != Phase::Optimizer);
    QVERIFY(sgd.setToNoneSavedBytes > 0 && sgd.setToNoneSavedBytes <= sgd.gradientBytes);
    QCOMPARE(s.keptOutputPeakBytes, s.peakBytes + s.delSavedBytes);
    QCOMPARE(s.zeroedGradsPeakBytes, s.peakBytes + s.setToNoneSavedBytes);
    // A forward with grad keeps at least the hidden activation [100, 1000] fp32 = 400,000 B.
    QVERIFY(s.evalGraphBytes >= 400000);
    QCOMPARE(s.evalNoGradPeakBytes, [&] {
        EstimateOptions o = options(100);
        o.training = false;
        return peak(m, o);
    }());
    QVERIFY(s.evalWithGradPeakBytes > s.evalNoGradPeakBytes);
    QCOMPARE(s.noGradSavedBytes, s.evalWithGradPeakBytes - s.evalNoGradPeakBytes);
    QCOMPARE(s.keptLossesBytes(10), 10 * s.evalGraphBytes);
    QCOMPARE(modelOutputBytes(m, options(7)), qint64(7 * 10 * 4));
}

void TestWorkshopModel::fixesAreRankedEstimates() {
    const ResolvedModel m = resolveModel(presetSpec("resnet18"));
    const EstimateOptions base = options(32);
    const ModelFixes f = modelFixes(m, base);
    QCOMPARE(f.basePeakBytes, peak(m, base));
    QVERIFY(f.fixes.size() >= 5);
    for (std::size_t i = 0; i < f.fixes.size(); ++i) {
        const ModelFix& fix = f.fixes[i];
        QCOMPARE(fix.peakBytes, peak(m, fix.options));
        QCOMPARE(fix.savedBytes, f.basePeakBytes - fix.peakBytes);
        if (i) QVERIFY(f.fixes[i - 1].savedBytes >= fix.savedBytes);
        QVERIFY(!fix.lesson.empty());
    }
    const auto find = [&](const char* id) {
        return std::find_if(f.fixes.begin(), f.fixes.end(), [&](const ModelFix& x) { return x.id == id; });
    };
    QCOMPARE(find("smaller-batch")->options.batch, qint64(16));
    QCOMPARE(find("lighter-optimizer")->options.optimizer, OptimizerKind::Momentum);
    QCOMPARE(find("checkpointing")->options.checkpoint.mode, CheckpointMode::Sqrt);
    QVERIFY(find("no-grad") != f.fixes.end());
}

QTEST_APPLESS_MAIN(TestWorkshopModel)
#include "tst_workshop_model.moc"

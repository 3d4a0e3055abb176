// SPDX-License-Identifier: MIT
// The cost model's formulas and semantics against independent numbers: published parameter
// counts, hand calculations written out below, PyTorch's allocator constants, spec errors.
#include <QtTest>
#include <stdexcept>

#include "TestSupport.h"
#include "costmodel/CostModel.h"
#include "costmodel/CudaCachingAllocator.h"
#include "costmodel/OptionNames.h"
#include "costmodel/Presets.h"
#include "costmodel/SpecParser.h"

using namespace memviz::costmodel;

namespace {

constexpr std::int64_t MiB = 1 << 20;

std::int64_t at(const Estimate& e, Category c) { return e.breakdown[static_cast<std::size_t>(c)]; }
std::int64_t rawSum(const Estimate& e) {
    std::int64_t s = 0;
    for (int c = 0; c < kCategoryCount; ++c)
        if (c != static_cast<int>(Category::Overhead)) s += e.breakdown[static_cast<std::size_t>(c)];
    return s;
}

// x [B, 1000] -> linear 1000 -> relu -> linear 10, cross-entropy.
const char* const kTwoLayer = R"({"name": "two-layer",
 "input": {"shape": [1000], "dtype": "float32"}, "target": {"shape": [], "dtype": "int64"},
 "loss": "cross_entropy",
 "layers": [{"type": "linear", "out_features": 1000}, {"type": "relu"}, {"type": "linear", "out_features": 10}]})";

QByteArray specWithLayer(const QByteArray& layer) {
    return R"({"name": "t", "input": {"shape": [3, 8, 8], "dtype": "float32"}, "target": {"shape": [], "dtype": "int64"},
 "loss": "cross_entropy", "layers": [{"type": "conv2d", "out_channels": 4, "kernel_size": 3}, )" +
           layer + R"(, {"type": "flatten"}, {"type": "linear", "out_features": 10}]})";
}

EstimateOptions training(std::int64_t batch, OptimizerKind opt, int step = 2) {
    EstimateOptions o;
    o.batch = batch;
    o.optimizer = opt;
    o.step = step;
    return o;
}

} // namespace

class TestCostModel : public QObject {
    Q_OBJECT
private slots:
    void presetParameterCounts_data();
    void presetParameterCounts();
    void benchSpecsMatchTorchParameterCounts();
    void specErrorsNameTheProblem_data();
    void specErrorsNameTheProblem();
    void printedSpecParsesBack();
    void twoLayerTrainingPeakByHand();
    void twoLayerInferencePeakByHand();
    void adamStepPeakByHand();
    void optimizerStateSizes_data();
    void optimizerStateSizes();
    void lbfgsHistoryGrowsWithSteps();
    void cachingAllocatorRounding_data();
    void cachingAllocatorRounding();
    void cachingAllocatorReusesAndSplits();
    void cudaPeakIsReservedMemory();
    void ampKeepsFp32Weights();
    void largestBatchIsTheBoundary();
    void knobsSave();
    void checkpointSegments();
    void tokenModelsCheckpointAfterTheEmbedding();
    void optionWordsAndSizes();
    void impossibleOptionsThrow();
    void languageModelParametersByHand();
    void languageModelStateByHand();
    void kvCacheByHand();
    void languageModelKnobsOrder();
};

void TestCostModel::presetParameterCounts_data() {
    QTest::addColumn<QString>("preset");
    QTest::addColumn<qint64>("expected");
    // Published counts (torchvision docs, Hugging Face model cards / num_parameters()).
    QTest::newRow("resnet18") << "resnet18" << qint64(11'689'512);
    QTest::newRow("resnet50") << "resnet50" << qint64(25'557'032);
    QTest::newRow("vgg16") << "vgg16" << qint64(138'357'544);
    QTest::newRow("vit_b_16") << "vit-b16" << qint64(86'567'656);
    QTest::newRow("gpt2 (tied)") << "gpt2" << qint64(124'439'808);
    QTest::newRow("gpt2-medium") << "gpt2-medium" << qint64(354'823'168);
    QTest::newRow("llama-2-7b") << "llama2-7b" << qint64(6'738'415'616);
    // BertModel 109,482,240 + a 768 -> 2 classification head (768*2 + 2).
    QTest::newRow("bert-base") << "bert-base" << qint64(109'482'240 + 768 * 2 + 2);
    // Seed article CNN by hand: conv 3*32*9+32, conv 32*64*9+64, fc 64*12*12*500+500, out 500*10+10.
    QTest::newRow("small-cnn") << "small-cnn" << qint64(896 + 18'496 + 4'608'500 + 5'010);
    // Large3DCNN by hand: stem 3*32*49 + bn 64; five stages of two 3x3 convs and BNs; fc 512*2+2.
    std::int64_t big = 3 * 32 * 49 + 2 * 32, in = 32;
    for (std::int64_t c : {64, 128, 256, 512, 512}) {
        big += in * c * 9 + 2 * c + c * c * 9 + 2 * c;
        in = c;
    }
    QTest::newRow("large3dcnn") << "large3dcnn" << qint64(big + 512 * 2 + 2);
}

void TestCostModel::presetParameterCounts() {
    QFETCH(QString, preset);
    QFETCH(qint64, expected);
    QCOMPARE(qint64(resolveModel(presetSpec(preset.toStdString())).parameterCount()), expected);
}

void TestCostModel::benchSpecsMatchTorchParameterCounts() {
    // param_count in the measured dataset is sum(p.numel()) of the real torch.nn model.
    const QJsonObject doc =
        QJsonDocument::fromJson(memviz::test::readFile(QStringLiteral(MEMVIZ_TEST_DATA) + "/costmodel/measured.json")).object();
    QSet<QString> seen;
    for (const QJsonValue& v : doc["configs"].toArray()) {
        const QJsonObject c = v.toObject();
        if (c["skipped"].toBool() || seen.contains(c["spec"].toString())) continue;
        seen.insert(c["spec"].toString());
        const ModelSpec spec = readModelSpecFile(
            (QStringLiteral(MEMVIZ_SOURCE_DIR) + "/bench/costmodel/specs/" + c["spec"].toString()).toStdString());
        QCOMPARE(qint64(resolveModel(spec).parameterCount()), c["param_count"].toInteger());
    }
    QVERIFY(seen.size() >= 5);
}

void TestCostModel::specErrorsNameTheProblem_data() {
    QTest::addColumn<QByteArray>("json");
    QTest::addColumn<QString>("expected");
    QTest::newRow("unknown type") << specWithLayer(R"({"type": "conv3d"})") << "layers[1]: unknown layer type 'conv3d'";
    QTest::newRow("unknown field") << specWithLayer(R"({"type": "relu", "inplace": true})")
                                   << "unknown field(s) ['inplace'] for layer type 'relu'";
    QTest::newRow("missing field") << specWithLayer(R"({"type": "linear"})") << "missing field(s) ['out_features']";
    QTest::newRow("bad bool") << specWithLayer(R"({"type": "linear", "out_features": 3, "bias": "yes"})")
                              << "for field 'bias' (expected bool)";
    QTest::newRow("bad p") << specWithLayer(R"({"type": "dropout", "p": 1.5})") << "bad value 1.5 for field 'p'";
    QTest::newRow("nested") << specWithLayer(R"({"type": "residual", "layers": [{"type": "relu", "foo": 1}]})")
                            << "layers[1].layers[0]: unknown field(s) ['foo']";
    QTest::newRow("residual shapes")
        << specWithLayer(R"({"type": "residual", "layers": [{"type": "conv2d", "out_channels": 8, "kernel_size": 1}]})")
        << "residual branches disagree";
    QTest::newRow("conv on vector")
        << QByteArray(R"({"name": "t", "input": {"shape": [10], "dtype": "float32"}, "target": {"shape": [], "dtype": "int64"},
        "loss": "cross_entropy", "layers": [{"type": "conv2d", "out_channels": 4, "kernel_size": 3}]})")
        << "layers[0]: 'conv2d' expects a per-sample input of rank 3";
    QTest::newRow("top level")
        << QByteArray(R"({"name": "t", "input": {"shape": [3], "dtype": "float32"}, "target": {"shape": [], "dtype": "int64"},
        "loss": "cross_entropy", "layers": [], "extra": 1})")
        << "unknown top-level field(s) ['extra']";
    QTest::newRow("loss")
        << QByteArray(R"({"name": "t", "input": {"shape": [3], "dtype": "float32"}, "target": {"shape": [], "dtype": "int64"},
        "loss": "hinge", "layers": [{"type": "linear", "out_features": 2}]})")
        << "unknown loss \"hinge\"";
    QTest::newRow("target")
        << QByteArray(R"({"name": "t", "input": {"shape": [3], "dtype": "float32"}, "target": {"shape": [5], "dtype": "int64"},
        "loss": "cross_entropy", "layers": [{"type": "linear", "out_features": 2}]})")
        << "cross_entropy: target shape [5] must be the output shape [2]";
    QTest::newRow("integer input")
        << QByteArray(R"({"name": "t", "input": {"shape": [3], "dtype": "int64"}, "target": {"shape": [], "dtype": "int64"},
        "loss": "cross_entropy", "layers": [{"type": "linear", "out_features": 2}]})")
        << "'linear' needs a float input, got int64";
    QTest::newRow("invalid json") << QByteArray(R"({"name": "t", )") << "invalid JSON";
}

void TestCostModel::specErrorsNameTheProblem() {
    QFETCH(QByteArray, json);
    QFETCH(QString, expected);
    try {
        parseModelSpec(json.toStdString(), "m.json");
        QFAIL("accepted");
    } catch (const SpecError& e) {
        const QString message = QString::fromUtf8(e.what());
        QVERIFY2(message.startsWith("m.json: "), qPrintable(message));
        QVERIFY2(message.contains(expected), qPrintable(message));
    }
}

void TestCostModel::printedSpecParsesBack() {
    for (const PresetInfo& p : presets()) {
        const ModelSpec spec = presetSpec(p.id);
        const ModelSpec again = parseModelSpec(modelSpecToJson(spec), p.id);
        QCOMPARE(resolveModel(again).parameterCount(), resolveModel(spec).parameterCount());
        QCOMPARE(again.layers.size(), spec.layers.size());
    }
    const ModelSpec mlp = presetSpec("mlp");
    EstimateOptions o = training(64, OptimizerKind::Adam);
    QCOMPARE(estimate(parseModelSpec(modelSpecToJson(mlp)), o).peakBytes, estimate(mlp, o).peakBytes);
}

void TestCostModel::twoLayerTrainingPeakByHand() {
    // Batch 100, SGD, step 2. Parameters: 1000*1000 + 1000 + 1000*10 + 10 = 1,011,010 fp32.
    const std::int64_t P = 4 * (1000 * 1000 + 1000 + 1000 * 10 + 10);
    const std::int64_t x = 4 * 100 * 1000, y = 8 * 100;
    // The peak: linear 1's weight gradient (4,000,000 B) and then its bias gradient (4,000 B)
    // are computed while the other layer's gradients (40,040 B), relu's input gradient
    // (400,000 B), the batch, `loss` and the implicit ones_like(loss) (4 B each) are alive.
    const std::int64_t expected = P + 4 * (1000 * 10 + 10) + x + y + 400'000 + 4'000'000 + 4'000 + 4 + 4;
    const Estimate e = estimate(parseModelSpec(kTwoLayer), training(100, OptimizerKind::Sgd));
    QCOMPARE(rawSum(e), expected);
    QCOMPARE(at(e, Category::Parameters), P);
    QCOMPARE(at(e, Category::Input), x + y);
    QCOMPARE(e.peakPhase, Phase::Backward);
    QVERIFY(e.peakBytes > expected && e.peakBytes < expected + MiB); // + chunk headers and runtime
    QCOMPARE(e.peakBytes, rawSum(e) + at(e, Category::Overhead));
    // Before zero_grad the previous gradients are alive: params + grads + batch.
    QCOMPARE(e.marks.front().name, std::string("step start"));
    QVERIFY(e.marks.front().bytes >= 2 * P + x + y);
}

void TestCostModel::twoLayerInferencePeakByHand() {
    // no_grad: nothing is saved; at relu both its input and output are alive (Sequential keeps
    // the previous output until the next layer returns): P + x + 2 * 400,000.
    EstimateOptions o;
    o.batch = 100;
    o.training = false;
    const Estimate e = estimate(parseModelSpec(kTwoLayer), o);
    const std::int64_t P = 4 * 1'011'010;
    QCOMPARE(rawSum(e), P + 400'000 + 800'000);
    QCOMPARE(e.peakOp, std::string("aten.relu"));
    QCOMPARE(at(e, Category::Gradients), 0);
}

void TestCostModel::adamStepPeakByHand() {
    // Adam, step 2: state 2P + four scalar `step` tensors (4 B each); for the first weight the
    // for-loop computes exp_avg_sq.sqrt() and its division (2 x 4,000,000 B) at once.
    const std::int64_t P = 4 * 1'011'010;
    const Estimate e = estimate(parseModelSpec(kTwoLayer), training(100, OptimizerKind::Adam));
    QCOMPARE(e.peakPhase, Phase::Optimizer);
    QCOMPARE(at(e, Category::OptimizerState), 2 * P + 4 * 4);
    QCOMPARE(rawSum(e), P + P + 2 * P + 16 + 400'000 + 800 + 2 * 4'000'000);
}

void TestCostModel::optimizerStateSizes_data() {
    QTest::addColumn<QString>("optimizer");
    QTest::addColumn<qint64>("stateBytes");
    const std::int64_t P = 4 * 1'011'010;
    // zeros_like(param) per buffer; Adam/Adagrad add a float32 step tensor per parameter.
    QTest::newRow("sgd") << "sgd" << qint64(0);
    QTest::newRow("momentum") << "momentum" << qint64(P);
    QTest::newRow("adam") << "adam" << qint64(2 * P + 16);
    QTest::newRow("adamw") << "adamw" << qint64(2 * P + 16);
    QTest::newRow("adagrad") << "adagrad" << qint64(P + 16);
    QTest::newRow("rmsprop") << "rmsprop" << qint64(P);
}

void TestCostModel::optimizerStateSizes() {
    QFETCH(QString, optimizer);
    QFETCH(qint64, stateBytes);
    const Estimate e = estimate(parseModelSpec(kTwoLayer), training(100, parseOptimizer(optimizer.toStdString())));
    QCOMPARE(qint64(at(e, Category::OptimizerState)), stateBytes);
}

void TestCostModel::lbfgsHistoryGrowsWithSteps() {
    // Flat vectors of P: at the peak of step k (the new direction d), LBFGS holds d, prev_flat_grad,
    // min(k-1, H) (y, s) pairs and the new d, plus flat_grad and q: (5 + 2 min(k-1, H)) P beside
    // the parameters, their gradients and the batch. (With a full history the moment after s
    // and before the oldest pair is dropped has the same size.)
    const std::int64_t P = 4 * 1'011'010;
    const ModelSpec spec = parseModelSpec(kTwoLayer);
    for (int step : {2, 3, 4, 8}) {
        EstimateOptions o = training(100, OptimizerKind::Lbfgs, step);
        o.lbfgsHistory = 3;
        const Estimate e = estimate(spec, o);
        QCOMPARE(e.peakPhase, Phase::Optimizer);
        QCOMPARE(at(e, Category::OptimizerState) + at(e, Category::Temporaries), (5 + 2 * std::min(step - 1, 3)) * P);
        QCOMPARE(rawSum(e), 2 * P + (5 + 2 * std::min(step - 1, 3)) * P + 4 * 100 * 1000 + 8 * 100);
    }
    EstimateOptions steady = training(100, OptimizerKind::Lbfgs, 0);
    steady.lbfgsHistory = 3;
    QCOMPARE(estimate(spec, steady).step, 5); // the history is full from step H + 2 on
    QCOMPARE(stateElementsPerParameter(OptimizerKind::Lbfgs, 3), 8.0);
}

void TestCostModel::cachingAllocatorRounding_data() {
    QTest::addColumn<qint64>("request");
    QTest::addColumn<qint64>("rounded");
    QTest::addColumn<qint64>("segment");
    // c10/cuda/CUDACachingAllocator.cpp: kMinBlockSize 512, kSmallSize 1 MiB, kSmallBuffer 2 MiB,
    // kLargeBuffer 20 MiB, kMinLargeAlloc 10 MiB, kRoundLarge 2 MiB.
    QTest::newRow("1 B") << qint64(1) << qint64(512) << qint64(2 * MiB);
    QTest::newRow("512 B") << qint64(512) << qint64(512) << qint64(2 * MiB);
    QTest::newRow("513 B") << qint64(513) << qint64(1024) << qint64(2 * MiB);
    QTest::newRow("1 MiB") << qint64(MiB) << qint64(MiB) << qint64(2 * MiB);
    QTest::newRow("1 MiB + 1") << qint64(MiB + 1) << qint64(MiB + 512) << qint64(20 * MiB);
    QTest::newRow("10 MiB - 512") << qint64(10 * MiB - 512) << qint64(10 * MiB - 512) << qint64(20 * MiB);
    QTest::newRow("10 MiB") << qint64(10 * MiB) << qint64(10 * MiB) << qint64(10 * MiB);
    QTest::newRow("10 MiB + 1") << qint64(10 * MiB + 1) << qint64(10 * MiB + 512) << qint64(12 * MiB);
}

void TestCostModel::cachingAllocatorRounding() {
    QFETCH(qint64, request);
    QFETCH(qint64, rounded);
    QFETCH(qint64, segment);
    QCOMPARE(qint64(CudaCachingAllocator::roundSize(request)), rounded);
    QCOMPARE(qint64(CudaCachingAllocator::segmentSize(rounded)), segment);
}

void TestCostModel::cachingAllocatorReusesAndSplits() {
    CudaCachingAllocator a;
    const int s1 = a.allocate(600'000), s2 = a.allocate(600'000); // both in one 2 MiB segment
    QCOMPARE(a.reserved(), 2 * MiB);
    const int big = a.allocate(5 * MiB); // a 20 MiB segment, split: 15 MiB stay free
    QCOMPARE(a.reserved(), 22 * MiB);
    const int rest = a.allocate(15 * MiB); // served from the free remainder
    QCOMPARE(a.reserved(), 22 * MiB);
    a.free(big);
    a.free(rest); // merged back into one 20 MiB block
    const int whole = a.allocate(18 * MiB);
    QCOMPARE(a.reserved(), 22 * MiB);
    QCOMPARE(a.allocated(), 18 * MiB + 2 * 600'064);
    a.free(whole);
    a.free(s1);
    a.free(s2);
    QCOMPARE(a.allocated(), 0);
    a.allocate(30 * MiB); // nothing cached is that large: a new 30 MiB segment
    QCOMPARE(a.reserved(), 52 * MiB);
}

void TestCostModel::cudaPeakIsReservedMemory() {
    EstimateOptions o = training(64, OptimizerKind::Adam);
    o.device = DeviceKind::Cuda;
    const ModelSpec spec = presetSpec("mlp");
    const Estimate e = estimate(spec, o);
    QCOMPARE(e.peakBytes % (2 * MiB), 0); // reserved memory is made of 2 MiB multiples
    QVERIFY(e.peakBytes >= rawSum(e));
    o.cudaContextBytes = 500 * MiB;
    QCOMPARE(estimate(spec, o).peakBytes, e.peakBytes + 500 * MiB);
}

void TestCostModel::ampKeepsFp32Weights() {
    const ModelSpec spec = presetSpec("mlp");
    EstimateOptions o = training(2048, OptimizerKind::Sgd);
    const Estimate fp32 = estimate(spec, o);
    o.amp = true;
    const Estimate amp = estimate(spec, o);
    QCOMPARE(amp.parameterBytes, 4 * amp.parameterCount); // fp32 master weights
    QCOMPARE(at(amp, Category::Parameters), at(fp32, Category::Parameters));
    QVERIFY(amp.peakBytes < fp32.peakBytes); // half-precision activations at batch 2048
    o.amp = false;
    o.dtype = DType::BF16;
    QCOMPARE(estimate(spec, o).parameterBytes, 2 * fp32.parameterCount);
}

void TestCostModel::largestBatchIsTheBoundary() {
    const ResolvedModel model = resolveModel(presetSpec("small-cnn"));
    EstimateOptions o = training(1, OptimizerKind::Adam);
    o.batch = 37;
    const std::int64_t limit = estimate(model, o).peakBytes;
    const std::int64_t best = largestBatchThatFits(model, o, limit);
    QVERIFY(best >= 37);
    o.batch = best;
    QVERIFY(estimate(model, o).peakBytes <= limit);
    o.batch = best + 1;
    QVERIFY(estimate(model, o).peakBytes > limit);
    QCOMPARE(largestBatchThatFits(model, o, 1000), 0); // not even the parameters fit
}

void TestCostModel::knobsSave() {
    const ResolvedModel model = resolveModel(presetSpec("resnet18"));
    const std::vector<KnobSaving> s = knobSavings(model, training(32, OptimizerKind::Adam));
    QStringList knobs;
    for (const KnobSaving& k : s) {
        knobs << QString::fromStdString(k.knob);
        QVERIFY2(k.savedBytes > 0, k.knob.c_str()); // every one of them helps ResNet-18 at batch 32
    }
    QCOMPARE(knobs, QStringList({"batch/2", "bf16", "amp", "sgd", "checkpoint sqrt", "inference"}));
}

void TestCostModel::checkpointSegments() {
    const ResolvedModel model = resolveModel(presetSpec("mlp")); // 9 top-level layers
    QCOMPARE(checkpointSegmentsFor(model, {CheckpointMode::Sqrt, 0}), 3);
    QCOMPARE(checkpointSegmentsFor(model, {CheckpointMode::Segments, 20}), 9);
    QCOMPARE(checkpointSegmentsFor(model, {}), 0);
    EstimateOptions o = training(512, OptimizerKind::Sgd);
    o.checkpoint = {CheckpointMode::Segments, 2};
    const Estimate e = estimate(model, o);
    QCOMPARE(e.checkpointSegments, 2);
    // forward_end drops: the checkpointed segment keeps only its input
    o.checkpoint = {};
    QVERIFY(e.marks[1].bytes < estimate(model, o).marks[1].bytes);
}

void TestCostModel::tokenModelsCheckpointAfterTheEmbedding() {
    // transformer-tok.json: embedding + 2 encoder layers + layernorm + head. Checkpointed, every
    // parameter still gets its gradient: after backward the heap holds parameters + gradients.
    const ModelSpec spec = readModelSpecFile(
        QStringLiteral(MEMVIZ_SOURCE_DIR "/bench/costmodel/specs/transformer-tok.json").toStdString());
    const std::int64_t P = 4 * resolveModel(spec).parameterCount();
    EstimateOptions o = training(4, OptimizerKind::Sgd);
    o.checkpoint = {CheckpointMode::Segments, 2};
    const Estimate e = estimate(spec, o);
    QCOMPARE(e.marks[2].name, std::string("backward end"));
    QVERIFY(e.marks[2].bytes >= 2 * P);
    QCOMPARE(e.warnings.size(), std::size_t(1));
    QVERIFY(e.warnings[0].find("embedding") != std::string::npos);
    o.checkpoint = {};
    QVERIFY(e.marks[1].bytes < estimate(spec, o).marks[1].bytes); // less kept at the end of forward
}

void TestCostModel::optionWordsAndSizes() {
    QCOMPARE(parseByteSize("1024"), 1024);
    QCOMPARE(parseByteSize("16GiB"), 16 * 1024 * MiB);
    QCOMPARE(parseByteSize("16G"), 16 * 1024 * MiB);
    QCOMPARE(parseByteSize("80GB"), std::int64_t(80'000'000'000));
    QCOMPARE(parseByteSize("1.5 MiB"), 3 * MiB / 2);
    QVERIFY_THROWS_EXCEPTION(std::invalid_argument, parseByteSize("lots"));
    QVERIFY_THROWS_EXCEPTION(std::invalid_argument, parseByteSize("3 parsecs"));
    QCOMPARE(parseDType("bfloat16"), DType::BF16);
    QCOMPARE(parseOptimizer("AdamW"), OptimizerKind::AdamW);
    QCOMPARE(parseCheckpoint("sqrt").mode, CheckpointMode::Sqrt);
    QCOMPARE(parseCheckpoint("4").segments, 4);
    QCOMPARE(parseCheckpoint("none").mode, CheckpointMode::None);
    QVERIFY_THROWS_EXCEPTION(std::invalid_argument, parseCheckpoint("x"));
    QVERIFY_THROWS_EXCEPTION(std::invalid_argument, parseOptimizer("lion"));
}

void TestCostModel::impossibleOptionsThrow() {
    const ModelSpec spec = presetSpec("mlp");
    EstimateOptions o;
    o.dtype = DType::I8;
    QVERIFY_THROWS_EXCEPTION(std::invalid_argument, estimate(spec, o));
    o.training = false;
    QVERIFY(estimate(spec, o).parameterBytes == resolveModel(spec).parameterCount()); // 1 byte each
    o.batch = 0;
    QVERIFY_THROWS_EXCEPTION(std::invalid_argument, estimate(spec, o));
    QVERIFY_THROWS_EXCEPTION(SpecError, presetSpec("alexnet"));
}

namespace {
// A Llama-style decoder: vocab 100, E = 32, 4 heads of 8 dims with 2 KV heads (GQA), F = 48.
const char* const kTinyLlama = R"({"name": "tiny-llama",
 "input": {"shape": [16], "dtype": "int64"}, "target": {"shape": [16], "dtype": "int64"}, "loss": "cross_entropy",
 "layers": [{"type": "embedding", "num_embeddings": 100, "embedding_dim": 32},
            {"type": "llama_decoder_layer", "d_model": 32, "nhead": 4, "dim_feedforward": 48, "num_key_value_heads": 2},
            {"type": "rmsnorm"}, {"type": "linear", "out_features": 100, "bias": false}]})";
} // namespace

void TestCostModel::languageModelParametersByHand() {
    const ModelSpec spec = parseModelSpec(kTinyLlama, "tiny");
    // embedding 100*32; q, o 32*32; k, v (2 heads * 8) * 32; gate, up 48*32; down 32*48;
    // two RMSNorm weights 32; final norm 32; head 100*32.
    const std::int64_t block = 2 * 32 * 32 + 2 * 16 * 32 + 3 * 48 * 32 + 2 * 32;
    const std::int64_t total = 100 * 32 + block + 32 + 100 * 32;
    EstimateOptions o;
    o.batch = 2;
    o.timeline = false;
    QCOMPARE(estimate(spec, o).parameterCount, total);
    // LoRA r=4 on the attention projections: A is r x in, B out x r:
    // q, o: 4*32 + 32*4 each; k, v: 4*32 + 16*4 each.
    o.lora.rank = 4;
    const Estimate lora = estimate(spec, o);
    const std::int64_t adapters = 2 * (4 * 32 + 32 * 4) + 2 * (4 * 32 + 16 * 4);
    QCOMPARE(lora.adapterParameterCount, adapters);
    QCOMPARE(lora.trainableParameterCount, adapters);
    QCOMPARE(at(lora, Category::Gradients) <= 4 * adapters + 64 * 16, true); // only the adapters' grads (+ chunk headers)
    o.lora.targets = LoraTargets::All; // + gate, up (4*32 + 48*4), down (4*48 + 32*4)
    QCOMPARE(estimate(spec, o).adapterParameterCount, adapters + 2 * (4 * 32 + 48 * 4) + (4 * 48 + 32 * 4));
    // Frozen layers: the embedding and the block (2 top-level layers) get no gradients.
    o.lora.rank = 0;
    o.frozenLayers = 2;
    QCOMPARE(estimate(spec, o).trainableParameterCount, std::int64_t{32 + 100 * 32});
    // NF4 storage of the block's linear weights (inference): per weight n/2 bytes + an absmax
    // byte per 64 + 8 bytes per 256 absmax; the rest in fp32.
    EstimateOptions inf;
    inf.training = false;
    inf.timeline = false;
    inf.weights = WeightFormat::Nf4;
    auto nf4 = [](std::int64_t n) { return n / 2 + (n + 63) / 64 + 8 * (((n + 63) / 64 + 255) / 256); };
    const std::int64_t q = nf4(32 * 32), kv = nf4(16 * 32), mlp = nf4(48 * 32);
    const std::int64_t fp = 4 * (100 * 32 + 2 * 32 + 32 + 100 * 32);
    QCOMPARE(estimate(spec, inf).parameterBytes, fp + 2 * q + 2 * kv + 3 * mlp);
    inf.weights = WeightFormat::Int8; // n bytes + a fp32 scale per output row
    QCOMPARE(estimate(spec, inf).parameterBytes,
             fp + 2 * (32 * 32 + 4 * 32) + 2 * (16 * 32 + 4 * 16) + 2 * (48 * 32 + 4 * 48) + (32 * 48 + 4 * 32));
}

void TestCostModel::languageModelStateByHand() {
    const ModelSpec spec = parseModelSpec(kTinyLlama, "tiny");
    EstimateOptions o;
    o.batch = 1;
    o.timeline = false;
    // 8-bit Adam: matrices of >= 4096 elements keep two uint8 states + a fp32 absmax per 256;
    // smaller tensors two fp32 states; plus a fp32 `step` per parameter. Here only the embedding
    // and the head (3200 elements) ... are below 4096 too: every tensor keeps fp32 states.
    o.optimizer = OptimizerKind::Adam8bit;
    const Estimate a8 = estimate(spec, o);
    o.optimizer = OptimizerKind::Adam;
    const Estimate adam = estimate(spec, o);
    QCOMPARE(at(a8, Category::OptimizerState), at(adam, Category::OptimizerState));
    // A bigger vocabulary: embedding and head of 5000 x 32 = 160,000 elements go 8-bit:
    // 2 * 160000 bytes + 2 * 625 absmax * 4 bytes instead of 2 * 4 * 160000.
    ModelSpec big = spec;
    big.layers[0].numEmbeddings = 5000;
    big.layers[3].outFeatures = 5000;
    o.optimizer = OptimizerKind::Adam;
    const std::int64_t adamState = at(estimate(big, o), Category::OptimizerState);
    o.optimizer = OptimizerKind::Adam8bit;
    const std::int64_t eightBit = at(estimate(big, o), Category::OptimizerState);
    const std::int64_t saved = 2 * (2 * 4 * 160000 - (2 * 160000 + 2 * 625 * 4)); // two such tensors
    QVERIFY2(std::abs((adamState - eightBit) - saved) < 64 * 1024, qPrintable(QString::number(adamState - eightBit)));
    // Adafactor: a matrix keeps a fp32 row [rows] and column [cols] vector, a vector its own size.
    o.optimizer = OptimizerKind::Adafactor;
    const Estimate af = estimate(spec, o);
    const std::int64_t elems = (100 + 32) + (32 + 32) * 2 + (16 + 32) * 2 + (48 + 32) * 2 + (32 + 48) + 32 * 3 + (100 + 32);
    QVERIFY(at(af, Category::OptimizerState) >= 4 * elems);
    QVERIFY(at(af, Category::OptimizerState) <= 4 * elems + 64 * 40); // + chunk headers
}

void TestCostModel::kvCacheByHand() {
    const ModelSpec spec = parseModelSpec(kTinyLlama, "tiny");
    EstimateOptions o;
    o.training = false;
    o.batch = 3;
    o.timeline = false;
    o.kvCacheTokens = 40;
    o.kvBlockTokens = 16; // 48 tokens: K and V of [3, 2 heads, 48, 8] fp32 for the one block
    const Estimate e = estimate(spec, o);
    QCOMPARE(at(e, Category::KvCache), std::int64_t{2} * 3 * 2 * 48 * 8 * 4);
    QCOMPARE(e.peakBytes, rawSum(e) + at(e, Category::Overhead));
    o.kvCacheTokens = 16; // the 16-token prompt and one more do not fit
    QVERIFY_THROWS_EXCEPTION(std::invalid_argument, estimate(spec, o));
    o.kvCacheTokens = 0;
    o.seqLen = 64; // a longer prompt: more activations
    EstimateOptions shortPrompt = o;
    shortPrompt.seqLen = 0;
    QVERIFY(estimate(spec, o).peakBytes > estimate(spec, shortPrompt).peakBytes);
}

void TestCostModel::languageModelKnobsOrder() {
    // Against the eager, un-checkpointed LoRA run at 256 tokens: flash attention and selective
    // recomputation drop the B*H*S^2 tensors; per-layer checkpointing keeps only block inputs.
    // Three blocks, so that the other blocks' saved tensors are alive at the backward peak.
    ModelSpec spec = parseModelSpec(kTinyLlama, "tiny");
    spec.layers.insert(spec.layers.begin() + 1, 2, spec.layers[1]);
    EstimateOptions o;
    o.batch = 4;
    o.seqLen = 256;
    o.timeline = false;
    o.lora.rank = 8;
    const std::int64_t eager = estimate(spec, o).peakBytes;
    EstimateOptions flash = o;
    flash.attention = AttentionKind::Flash;
    EstimateOptions selective = o;
    selective.checkpoint.mode = CheckpointMode::Selective;
    EstimateOptions perLayer = o;
    perLayer.checkpoint.mode = CheckpointMode::PerLayer;
    // the probabilities alone: 4 * 4 heads * 256^2 * 4 bytes = 4 MiB per block
    QVERIFY(eager - estimate(spec, flash).peakBytes > 4 * MiB);
    QVERIFY(eager - estimate(spec, selective).peakBytes > 4 * MiB);
    QVERIFY(estimate(spec, perLayer).peakBytes < eager);
    EstimateOptions bad = o;
    bad.seqLen = 256;
    const QByteArray cnnText = specWithLayer(R"({"type": "relu"})");
    const ModelSpec cnn = parseModelSpec(std::string_view(cnnText.constData(), static_cast<std::size_t>(cnnText.size())), "cnn");
    QVERIFY_THROWS_EXCEPTION(std::invalid_argument, estimate(cnn, bad)); // --seq on a CNN
}

QTEST_GUILESS_MAIN(TestCostModel)
#include "tst_costmodel.moc"

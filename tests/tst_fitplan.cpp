// SPDX-License-Identifier: MIT
// "Will it fit": Hugging Face config.json and safetensors headers read into exact parameter
// counts, the GPU catalog, sharding, gradient accumulation and the ranked fixes. Expectations
// are the published parameter counts and index total_size values (tests/data/hf: configs with
// the published values, header-only safetensors files written by make_headers.py, which checks
// each against the published number), the ZeRO paper's worked example, DeepSpeed's printed
// estimator output, and hand calculations written here.
#include <QtTest>
#include <cstring>

#include "TestSupport.h"
#include "costmodel/FitPlan.h"
#include "costmodel/GpuCatalog.h"
#include "costmodel/HfConfig.h"
#include "costmodel/Presets.h"
#include "costmodel/Safetensors.h"
#include "costmodel/Sharding.h"

using namespace memviz::costmodel;

namespace {

std::string hf(const char* name) { return std::string(MEMVIZ_TEST_DATA) + "/hf/" + name; }

// The message of the exception `f` throws ("" when it throws none).
template <typename E, typename F>
std::string errorOf(F&& f) {
    try {
        f();
    } catch (const E& e) {
        return e.what();
    }
    return {};
}

std::string header(const std::string& json, std::int64_t declaredLength = -1) {
    const std::uint64_t n = declaredLength >= 0 ? static_cast<std::uint64_t>(declaredLength) : json.size();
    std::string s(8, '\0');
    for (int i = 0; i < 8; ++i) s[static_cast<std::size_t>(i)] = static_cast<char>((n >> (8 * i)) & 0xff);
    return s + json;
}

SafetensorsCount readHeader(const std::string& bytes) {
    return readSafetensorsHeader(bytes, static_cast<std::int64_t>(bytes.size()), "t.safetensors");
}

constexpr std::int64_t GiB = std::int64_t{1} << 30;

} // namespace

class TestFitPlan : public QObject {
    Q_OBJECT
private slots:
    void configCountsArePublished_data();
    void configCountsArePublished();
    void shardedIndexAddsUpToTotalSize();
    void badConfigsNameTheKey_data();
    void badConfigsNameTheKey();
    void hostileHeadersAreRefused_data();
    void hostileHeadersAreRefused();
    void configsBecomeSpecs();
    void gpuCatalogAndUserFile();
    void zeroPaperWorkedExample();
    void deepSpeedEstimatorsByHand();
    void shardingAccumulationAndContext();
    void largestBatchAndSequence();
    void fixesAreRanked();
    void cpuOffloadByHand();
    void encoderDecoderCachesByHand();
    void weightsAreTheExactCount();
    void peersOmitActivations();
};

void TestFitPlan::configCountsArePublished_data() {
    QTest::addColumn<QString>("name");
    QTest::addColumn<qint64>("published");
    QTest::addColumn<QString>("safetensors");
    // Published counts (sources in tests/data/hf/make_headers.py).
    QTest::newRow("gpt2") << "gpt2" << qint64(124'439'808) << "gpt2.safetensors";
    QTest::newRow("llama-2-7b") << "llama-2-7b" << qint64(6'738'415'616) << "llama-2-7b/model.safetensors.index.json";
    QTest::newRow("mistral-7b") << "mistral-7b" << qint64(7'241'732'096) << "mistral-7b.safetensors";
    QTest::newRow("mixtral-8x7b") << "mixtral-8x7b" << qint64(46'702'792'704) << "mixtral-8x7b/model.safetensors.index.json";
    QTest::newRow("qwen2-7b") << "qwen2-7b" << qint64(7'615'616'512) << "qwen2-7b.safetensors";
    QTest::newRow("qwen2-0.5b") << "qwen2-0.5b" << qint64(494'032'768) << "qwen2-0.5b.safetensors";
    QTest::newRow("bert-base") << "bert-base-uncased" << qint64(109'482'240) << "bert-base-uncased.safetensors";
    QTest::newRow("vit-b16") << "vit-base-patch16-224" << qint64(86'567'656) << "vit-base-patch16-224.safetensors";
    QTest::newRow("t5-small") << "t5-small" << qint64(60'506'624) << "t5-small.safetensors";
}

void TestFitPlan::configCountsArePublished() {
    QFETCH(QString, name);
    QFETCH(qint64, published);
    QFETCH(QString, safetensors);
    const HfModel m = readHfConfigFile(hf((name + ".json").toUtf8().constData()));
    QCOMPARE(m.parameterCount, published);
    const SafetensorsCount c = readSafetensors(hf(safetensors.toUtf8().constData()));
    QCOMPARE(c.parameterCount, published);
    QCOMPARE(c.parameterCount, m.parameterCount);
    QVERIFY(!c.dataPresent); // header-only files: the reader never needed the data
    std::int64_t byDtype = 0;
    for (const auto& [dtype, elements] : c.elementsByDtype) byDtype += elements;
    QCOMPARE(byDtype, c.elements);
}

void TestFitPlan::shardedIndexAddsUpToTotalSize() {
    // Llama-2-7B's published index: total_size 13,476,839,424 = 2 x 6,738,415,616 fp16
    // parameters + 32 layers x 64 fp32 rotary inv_freq elements x 4 bytes.
    const SafetensorsCount c = readSafetensors(hf("llama-2-7b/model.safetensors.index.json"));
    QCOMPARE(c.declaredTotalSize, qint64(13'476'839'424));
    QCOMPARE(c.dataBytes, qint64(2) * 6'738'415'616 + 32 * 64 * 4);
    QCOMPARE(c.bufferElements, qint64(32 * 64));
    QCOMPARE(c.elementsByDtype.at("F32"), qint64(32 * 64));
    QCOMPARE(c.elementsByDtype.at("F16"), qint64(6'738'415'616));
    QCOMPARE(c.shardsRead, 2);
    QCOMPARE(c.largestTensorElements, qint64(32000) * 4096);
    // Mixtral: 93,405,585,408 bytes of bf16 over three shards.
    const SafetensorsCount x = readSafetensors(hf("mixtral-8x7b/model.safetensors.index.json"));
    QCOMPARE(x.declaredTotalSize, qint64(93'405'585'408));
    QCOMPARE(x.dataBytes, x.declaredTotalSize);
    QVERIFY(x.warnings.empty() || x.warnings.front().find("total_size") == std::string::npos);
    // An index whose shards are not beside it: a warning, no counts.
    const SafetensorsCount alone = readSafetensorsIndex(R"({"metadata":{"total_size":8},"weight_map":{"a":"s1.safetensors"}})",
                                                        "i.json", "/nonexistent-folder");
    QCOMPARE(alone.shardsMissing, 1);
    QCOMPARE(alone.parameterCount, qint64(0));
    QVERIFY(!alone.warnings.empty());
    // The index and a shard header that disagree.
    QTemporaryDir dir;
    memviz::test::writeFile(dir, "s1.safetensors",
                            QByteArray::fromStdString(header(R"({"b":{"dtype":"F32","shape":[2],"data_offsets":[0,8]}})")));
    const std::string e = errorOf<SafetensorsError>([&] {
        readSafetensorsIndex(R"({"weight_map":{"a":"s1.safetensors"}})", "i.json", dir.path().toStdString());
    });
    QVERIFY2(e.find("'weight_map.a'") != std::string::npos && e.find("lacks it") != std::string::npos, e.c_str());
    QVERIFY(errorOf<SafetensorsError>([&] {
                readSafetensorsIndex(R"({"weight_map":{"a":"../etc/passwd"}})", "i.json", dir.path().toStdString());
            }).find("not a file name") != std::string::npos);
}

void TestFitPlan::badConfigsNameTheKey_data() {
    QTest::addColumn<QString>("json");
    QTest::addColumn<QString>("expected");
    QTest::newRow("not json") << R"({"model_type": "llama",)" << "invalid JSON";
    QTest::newRow("not an object") << "[1]" << "must be a JSON object";
    QTest::newRow("no model_type") << R"({"hidden_size": 8})" << "'model_type': missing";
    // A family no table knows is read as a generic decoder when it can be (tst_hf_families); without
    // the common keys it is refused, naming the first one missing.
    QTest::newRow("unknown family") << R"({"model_type": "rwkv"})" << "'model_type': 'rwkv' is not a known family";
    const QString llama = R"({"model_type":"llama","hidden_size":%1,"num_hidden_layers":2,"num_attention_heads":%2,)"
                          R"("intermediate_size":16,"vocab_size":%3%4})";
    QTest::newRow("missing key") << R"({"model_type":"llama","hidden_size":8})" << "'num_hidden_layers': missing";
    QTest::newRow("wrong type") << llama.arg("\"4096\"", "2", "10", "") << "'hidden_size': must be an integer, got \"4096\"";
    QTest::newRow("fraction") << llama.arg("8.5", "2", "10", "") << "'hidden_size': must be an integer, got 8.5";
    QTest::newRow("zero") << llama.arg("0", "2", "10", "") << "'hidden_size': must be at least 1, got 0";
    QTest::newRow("negative") << llama.arg("8", "2", "-3", "") << "'vocab_size': must be at least 1, got -3";
    QTest::newRow("absurd") << llama.arg("8", "2", "1e30", "") << "'vocab_size': 1e+30 is absurd (more than 2^48)";
    QTest::newRow("huge int") << llama.arg("8", "2", "18446744073709551615", "")
                              << "'vocab_size': 18446744073709551615 is absurd";
    QTest::newRow("overflow") << llama.arg("200000000000", "2", "200000000000", "")
                              << "gives a weight of more than 2^48 elements";
    QTest::newRow("heads") << llama.arg("10", "3", "10", "") << "'num_attention_heads': 3 does not divide hidden_size 10";
    QTest::newRow("kv heads") << llama.arg("8", "4", "10", R"(,"num_key_value_heads":3)")
                              << "'num_key_value_heads': 3 does not divide num_attention_heads 4";
    QTest::newRow("bool") << llama.arg("8", "2", "10", R"(,"tie_word_embeddings":"yes")")
                          << "'tie_word_embeddings': must be true or false";
    QTest::newRow("experts") << R"({"model_type":"mixtral","hidden_size":8,"num_hidden_layers":1,"num_attention_heads":2,)"
                                R"("intermediate_size":8,"vocab_size":10,"num_local_experts":2,"num_experts_per_tok":3})"
                             << "'num_experts_per_tok': 3 is more than num_local_experts 2";
    QTest::newRow("t5 ff") << R"({"model_type":"t5","d_model":8,"num_layers":1,"num_heads":2,"d_kv":4,"d_ff":8,)"
                              R"("vocab_size":10,"feed_forward_proj":"swish"})"
                           << "'feed_forward_proj': 'swish' is not one of";
    QTest::newRow("vit patch") << R"({"model_type":"vit","hidden_size":8,"num_hidden_layers":1,"num_attention_heads":2,)"
                                  R"("intermediate_size":8,"image_size":30,"patch_size":16})"
                               << "'patch_size': 16 does not divide image_size 30";
}

void TestFitPlan::badConfigsNameTheKey() {
    QFETCH(QString, json);
    QFETCH(QString, expected);
    const std::string e = errorOf<HfConfigError>([&] { readHfConfig(json.toStdString(), "config.json"); });
    QVERIFY2(!e.empty(), "accepted");
    QVERIFY2(QString::fromStdString(e).startsWith("config.json"), e.c_str());
    QVERIFY2(QString::fromStdString(e).contains(expected), e.c_str());
}

void TestFitPlan::hostileHeadersAreRefused_data() {
    QTest::addColumn<QByteArray>("bytes");
    QTest::addColumn<QString>("expected");
    const auto h = [](const std::string& json, std::int64_t n = -1) { return QByteArray::fromStdString(header(json, n)); };
    QTest::newRow("short") << QByteArray("abc") << "byte 0: the file has 3 bytes, fewer than the 8-byte header length";
    QTest::newRow("past the end") << h("{}", 1000) << "byte 0: the header length 1000 runs past the end of the file (10 bytes)";
    QTest::newRow("over 100 MB") << h("{}", 200'000'000) << "over the 100 MB limit";
    QTest::newRow("huge length") << h("{}", std::int64_t{1} << 62) << "over the 100 MB limit";
    QTest::newRow("bad json") << h(R"({"a": )") << "invalid JSON";
    QTest::newRow("array") << h("[]") << "byte 8: the header must be a JSON object";
    QTest::newRow("no dtype") << h(R"({"w":{"shape":[1],"data_offsets":[0,4]}})") << "tensor 'w': 'dtype' is missing";
    QTest::newRow("bad dtype") << h(R"({"w":{"dtype":"F33","shape":[1],"data_offsets":[0,4]}})") << "unknown dtype 'F33'";
    QTest::newRow("negative dim") << h(R"({"w":{"dtype":"F32","shape":[-1],"data_offsets":[0,4]}})")
                                  << "tensor 'w': shape[0] must be a non-negative integer, got -1";
    QTest::newRow("float dim") << h(R"({"w":{"dtype":"F32","shape":[1.5],"data_offsets":[0,4]}})") << "shape[0] must be";
    QTest::newRow("overflow") << h(R"({"w":{"dtype":"F32","shape":[4294967296,4294967296],"data_offsets":[0,4]}})")
                              << "tensor 'w': shape [4294967296,4294967296] has more than 2^48 elements";
    QTest::newRow("huge dim") << h(R"({"w":{"dtype":"F32","shape":[18446744073709551615],"data_offsets":[0,4]}})")
                              << "too large";
    QTest::newRow("offsets size") << h(R"({"w":{"dtype":"F32","shape":[2],"data_offsets":[0,4]}})")
                                  << "tensor 'w': data_offsets [0, 4] hold 4 bytes, but F32 [2] needs 8";
    QTest::newRow("reversed") << h(R"({"w":{"dtype":"F32","shape":[1],"data_offsets":[8,4]}})") << "end before they begin";
    QTest::newRow("three offsets") << h(R"({"w":{"dtype":"F32","shape":[1],"data_offsets":[0,4,8]}})") << "[begin, end]";
    QTest::newRow("overlap") << h(R"({"a":{"dtype":"F32","shape":[2],"data_offsets":[0,8]},)"
                                  R"("b":{"dtype":"F32","shape":[2],"data_offsets":[4,12]}})")
                             << "tensor 'b': data_offsets begin at 4, expected 8 (where 'a' ends): the tensors overlap";
    QTest::newRow("hole") << h(R"({"a":{"dtype":"F32","shape":[1],"data_offsets":[0,4]},)"
                               R"("b":{"dtype":"F32","shape":[1],"data_offsets":[8,12]}})")
                          << "a hole in the data";
    QTest::newRow("not from 0") << h(R"({"a":{"dtype":"F32","shape":[1],"data_offsets":[4,8]}})") << "(the first tensor)";
    QTest::newRow("twice") << h(R"({"a":{"dtype":"F32","shape":[1],"data_offsets":[0,4]},)"
                                R"("a":{"dtype":"F32","shape":[1],"data_offsets":[4,8]}})")
                           << "tensor 'a' appears twice";
    QTest::newRow("metadata") << h(R"({"__metadata__":{"format":1}})") << "'__metadata__.format' must be a string";
}

void TestFitPlan::hostileHeadersAreRefused() {
    QFETCH(QByteArray, bytes);
    QFETCH(QString, expected);
    const std::string e = errorOf<SafetensorsError>([&] { readHeader(bytes.toStdString()); });
    QVERIFY2(!e.empty(), "accepted");
    QVERIFY2(QString::fromStdString(e).startsWith("t.safetensors"), e.c_str());
    QVERIFY2(QString::fromStdString(e).contains(expected), e.c_str());
}

void TestFitPlan::configsBecomeSpecs() {
    // GPT-2's config gives the same model as the gpt2 preset (124,439,808 parameters).
    const HfModel g = readHfConfigFile(hf("gpt2.json"));
    const FitModel gm = fitModelFromHf(g, 1024);
    const ResolvedModel r = resolveModel(gm.spec);
    QCOMPARE(r.parameterCount(), qint64(124'439'808));
    QCOMPARE(gm.sequence(), qint64(1024));
    // GPT-2 has 1024 positions: 2048 tokens are refused, naming the limit.
    QVERIFY(errorOf<HfConfigError>([&] { gm.at(2048, nullptr); }).find("1024 positions") != std::string::npos);
    // Llama-2-7B (no GQA): the spec's count is the published one.
    const FitModel lm = fitModelFromHf(readHfConfigFile(hf("llama-2-7b.json")), 512);
    QCOMPARE(resolveModel(lm.spec).parameterCount(), qint64(6'738'415'616));
    // Mistral (8 KV heads of 32) and Mixtral (8 experts, 2 per token): the simulated model has
    // the published counts too.
    QCOMPARE(resolveModel(fitModelFromHf(readHfConfigFile(hf("mistral-7b.json")), 512).spec).parameterCount(),
             qint64(7'241'732'096));
    QCOMPARE(resolveModel(fitModelFromHf(readHfConfigFile(hf("mixtral-8x7b.json")), 512).spec).parameterCount(),
             qint64(46'702'792'704));
    // Qwen2's q/k/v biases are simulated: the spec has the published counts, without a warning
    // (Qwen2.5-7B: 28 layers with 3584 + 2 x 512 bias elements each; Qwen2-0.5B, tied embeddings).
    const FitModel qm = fitModelFromHf(readHfConfigFile(hf("qwen2-7b.json")), 512);
    for (const std::string& w : qm.hf->warnings) QVERIFY2(w.find("bias") == std::string::npos, w.c_str());
    QCOMPARE(resolveModel(qm.spec).parameterCount(), qint64(7'615'616'512));
    QCOMPARE(resolveModel(fitModelFromHf(readHfConfigFile(hf("qwen2-0.5b.json")), 512).spec).parameterCount(),
             qint64(494'032'768));
    // A head_dim other than hidden / heads (Mistral-Nemo-Base-2407: hidden 5120, 32 heads of 128, 8 KV
    // heads, 40 layers, intermediate 14336, vocabulary 131072, untied). By hand: q and o 2 x 5120 x
    // 4096 = 41,943,040, k and v 2 x 5120 x 1024 = 10,485,760, MLP 3 x 5120 x 14336 = 220,200,960,
    // norms 10,240: 272,640,000 a layer, x 40 = 10,905,600,000; embedding and lm_head 2 x 131072 x
    // 5120 = 1,342,177,280; final norm 5120: 12,247,782,400 (the published 12.2B).
    const HfModel nemo = readHfConfig(R"({"model_type": "mistral", "hidden_size": 5120, "num_hidden_layers": 40,
        "num_attention_heads": 32, "num_key_value_heads": 8, "head_dim": 128, "intermediate_size": 14336,
        "vocab_size": 131072, "max_position_embeddings": 1024000, "tie_word_embeddings": false})", "nemo.json");
    QCOMPARE(nemo.parameterCount, qint64(12'247'782'400));
    const FitModel nm = fitModelFromHf(nemo, 256);
    QCOMPARE(resolveModel(nm.spec).parameterCount(), qint64(12'247'782'400));
    for (const std::string& w : nm.hf->warnings) QVERIFY2(w.find("head_dim") == std::string::npos, w.c_str());
    // T5 says what it approximates.
    const FitModel tm = fitModelFromHf(readHfConfigFile(hf("t5-small.json")), 512);
    QVERIFY(!tm.hf->warnings.empty() && tm.hf->warnings.back().find("encoder-decoder") != std::string::npos);
    // ViT: its own image input; the spec's count is the published 86,567,656.
    const FitModel vm = fitModelFromHf(readHfConfigFile(hf("vit-base-patch16-224.json")), 512);
    QCOMPARE(vm.sequence(), qint64(0));
    PlanOptions vo;
    vo.estimate.batch = 2;
    QCOMPARE(planStep(vm, vo).sequence, qint64(0)); // planned on its image
    QCOMPARE(largestSequence(vm, vo), qint64(-1));
    QCOMPARE(resolveModel(vm.spec).parameterCount(), qint64(86'567'656));
}

void TestFitPlan::gpuCatalogAndUserFile() {
    GpuCatalog c = GpuCatalog::builtin();
    QVERIFY(c.find("a100-80g"));
    QCOMPARE(c.find("A100 80GB")->memoryBytes, qint64(80) * GiB); // 81920 MiB
    QCOMPARE(c.find("t4")->memoryBytes, qint64(15360) * 1024 * 1024);
    QVERIFY(c.find("h200") && c.find("mi300x") && c.find("l40s") && c.find("rtx-4090") && c.find("a10g") && c.find("l4"));
    QVERIFY(!c.find("a100"));
    for (std::size_t i = 1; i < c.gpus().size(); ++i) QVERIFY(c.gpus()[i - 1].memoryBytes <= c.gpus()[i].memoryBytes);
    // A user file overrides the T4's context and adds a GPU.
    c.merge(R"({"gpus":[{"id":"t4","cuda_context":"300MiB"},{"id":"My GPU","name":"lab card","memory":"12GiB"}]})", "mine.json");
    QCOMPARE(c.find("t4")->contextBytes, qint64(300) * 1024 * 1024);
    QCOMPARE(c.find("t4")->memoryBytes, qint64(15360) * 1024 * 1024);
    QCOMPARE(c.find("my-gpu")->memoryBytes, qint64(12) * GiB);
    QCOMPARE(c.gpus().front().id, std::string("my-gpu"));
    const auto bad = [&](const char* json) { return errorOf<GpuCatalogError>([&] { c.merge(json, "mine.json"); }); };
    QVERIFY(bad(R"({"gpus":[{"id":"x"}]})").find("gpus[0]: 'memory' is missing") != std::string::npos);
    QVERIFY(bad(R"({"gpus":[{"id":"x","memory":"lots"}]})").find("gpus[0]: 'memory'") != std::string::npos);
    QVERIFY(bad(R"({"gpus":[{"id":"x","memory":1,"colour":"red"}]})").find("unknown key 'colour'") != std::string::npos);
    QVERIFY(bad(R"({"gpu":[]})").find("'gpus' is missing") != std::string::npos);
}

void TestFitPlan::zeroPaperWorkedExample() {
    // Rajbhandari et al. 2020, Figure 1: Ψ = 7.5B, N = 64, K = 12: 120 GB, 31.4 GB, 16.6 GB, 1.9 GB.
    const std::int64_t psi = 7'500'000'000;
    QCOMPARE(zeroPaperModelStateBytes(psi, 12, ShardStrategy::Ddp, 64), qint64(120'000'000'000));
    QCOMPARE(zeroPaperModelStateBytes(psi, 12, ShardStrategy::Zero1, 64), qint64(30'000'000'000 + 1'406'250'000));
    QCOMPARE(zeroPaperModelStateBytes(psi, 12, ShardStrategy::Zero2, 64), qint64(15'000'000'000 + 1'640'625'000));
    QCOMPARE(zeroPaperModelStateBytes(psi, 12, ShardStrategy::Zero3, 64), qint64(1'875'000'000));
    QCOMPARE(zeroPaperModelStateBytes(psi, 12, ShardStrategy::Fsdp, 64), qint64(1'875'000'000));
}

void TestFitPlan::deepSpeedEstimatorsByHand() {
    // DeepSpeed's estimate_zero3_model_states_mem_needs_all_live on t5-small prints (1 GPU):
    //   "SW: Model with 60M total params, 16M largest layer params."
    //   0.06GB per GPU (offload_param=cpu), 0.17GB (offload_optimizer=cpu), 1.08GB (no offload).
    // t5-small: 60,506,624 parameters; its largest module the shared embedding, 32128 x 512.
    const std::int64_t p = readHfConfigFile(hf("t5-small.json")).parameterCount;
    const std::int64_t largest = 32128 * 512;
    QCOMPARE(p, qint64(60'506'624));
    // By hand: 4 x 16,449,536 = 65,798,144; + 2P = 186,811,392; + 18P = 1,154,917,376.
    QCOMPARE(deepSpeedZero3GpuBytes(p, largest, 1, true, true), qint64(65'798'144));
    QCOMPARE(deepSpeedZero3GpuBytes(p, largest, 1, true, false), qint64(186'811'392));
    QCOMPARE(deepSpeedZero3GpuBytes(p, largest, 1, false, false), qint64(1'154'917'376));
    const auto gb = [](std::int64_t b) { return QString::number(static_cast<double>(b) / GiB, 'f', 2); };
    QCOMPARE(gb(deepSpeedZero3GpuBytes(p, largest, 1, true, true)), QStringLiteral("0.06"));
    QCOMPARE(gb(deepSpeedZero3GpuBytes(p, largest, 1, true, false)), QStringLiteral("0.17"));
    QCOMPARE(gb(deepSpeedZero3GpuBytes(p, largest, 1, false, false)), QStringLiteral("1.08"));
    // ZeRO-2 without offload on 8 GPUs: 4P + 16P/8 = 6P; offloaded: 2P.
    QCOMPARE(deepSpeedZero2GpuBytes(6'738'415'616, 8, false), qint64(6) * 6'738'415'616);
    QCOMPARE(deepSpeedZero2GpuBytes(6'738'415'616, 8, true), qint64(2) * 6'738'415'616);
    // Against the ZeRO paper's accounting (K = 12): DeepSpeed's ZeRO-3 adds 2 bytes per
    // parameter (its fp32 gradient partition, 4 bytes instead of the fp16 2) and the largest
    // layer's fp16 parameters and gradients (2 bytes each); its ZeRO-2 keeps the fp16 gradients
    // whole (2P) and shards 16 bytes per parameter (fp32 master, momentum, variance, gradient)
    // where the paper shards 14 (fp16 gradient + K = 12): 4P + 16P/N - (2P + 14P/N) = 2P + 2P/N.
    const std::int64_t psi = 6'738'415'616;
    QCOMPARE(deepSpeedZero3GpuBytes(psi, largest, 8, false, false) - zeroPaperModelStateBytes(psi, 12, ShardStrategy::Zero3, 8),
             qint64(4 * largest + 2 * psi / 8));
    QCOMPARE(deepSpeedZero2GpuBytes(psi, 8, false) - zeroPaperModelStateBytes(psi, 12, ShardStrategy::Zero2, 8),
             qint64(2 * psi + 2 * psi / 8));
}

void TestFitPlan::shardingAccumulationAndContext() {
    // GPT-2 (124,439,808 fp32 parameters, no buffers) on the CPU model, so bytes are exact.
    const FitModel m = fitModelFromSpec(presetSpec("gpt2"));
    PlanOptions o;
    o.estimate.batch = 1;
    o.sequence = 128;
    const std::int64_t weights = 124'439'808LL * 4;
    const Plan one = planStep(m, o);
    QCOMPARE(one.perDevice[0], weights);
    std::int64_t sum = 0;
    for (std::int64_t v : one.perDevice) sum += v;
    QCOMPARE(sum, one.peakBytes);
    // ZeRO-3 over 4: a quarter of the weights per device, plus the gathered unit.
    o.devices = 4;
    o.shard = ShardStrategy::Zero3;
    const Plan z3 = planStep(m, o);
    QCOMPARE(z3.perDevice[0], weights / 4);
    QVERIFY(z3.perDevice[static_cast<int>(PlanPart::GatheredLayers)] > 0);
    QVERIFY(z3.peakBytes < one.peakBytes);
    // DDP: full model states and a second copy of every gradient in the buckets.
    o.shard = ShardStrategy::Ddp;
    const Plan ddp = planStep(m, o);
    QCOMPARE(ddp.perDevice[0], weights);
    QCOMPARE(ddp.perDevice[static_cast<int>(PlanPart::GradientBuckets)], weights);
    QCOMPARE(ddp.effectiveBatch, qint64(4));
    QVERIFY(errorOf<std::invalid_argument>([&] {
                PlanOptions n = o;
                n.shard = ShardStrategy::None;
                planStep(m, n);
            }).find("several GPUs") != std::string::npos);
    // Gradient accumulation: every gradient is alive at the peak (all 124,439,808 x 4 bytes).
    PlanOptions a;
    a.estimate.batch = 1;
    a.sequence = 128;
    a.gradAccumulation = 4;
    const Plan acc = planStep(m, a);
    QCOMPARE(acc.perDevice[1], weights);
    QVERIFY(acc.peakBytes >= one.peakBytes);
    QCOMPARE(acc.effectiveBatch, qint64(4));
    // The CUDA context is its own part.
    a.contextBytes = 500LL << 20;
    QCOMPARE(planStep(m, a).perDevice[static_cast<int>(PlanPart::CudaContext)], qint64(500) << 20);
    QCOMPARE(planStep(m, a).peakBytes, acc.peakBytes + (500LL << 20));
}

void TestFitPlan::largestBatchAndSequence() {
    const FitModel m = fitModelFromHf(readHfConfigFile(hf("gpt2.json")), 512);
    PlanOptions o;
    o.estimate.device = DeviceKind::Cuda;
    o.estimate.dtype = DType::BF16;
    o.memoryBytes = 8 * GiB;
    o.contextBytes = 500LL << 20;
    const std::int64_t b = largestMicroBatch(m, o);
    QVERIFY(b > 1);
    o.estimate.batch = b;
    QVERIFY(planStep(m, o).peakBytes <= o.memoryBytes);
    o.estimate.batch = b + 1;
    QVERIFY(planStep(m, o).peakBytes > o.memoryBytes);
    o.estimate.batch = 4;
    const std::int64_t s = largestSequence(m, o);
    QVERIFY(s >= 1 && s <= 1024);
    if (s < 1024) {
        o.sequence = s + 1;
        QVERIFY(planStep(m, o).peakBytes > o.memoryBytes);
    }
    o.sequence = s;
    QVERIFY(planStep(m, o).peakBytes <= o.memoryBytes);
}

void TestFitPlan::fixesAreRanked() {
    // Llama-2-7B in fp32 with Adam on one A100 80GB: 16 bytes per parameter alone is 108 GB.
    const FitModel m = fitModelFromHf(readHfConfigFile(hf("llama-2-7b.json")), 512);
    const GpuCatalog c = GpuCatalog::builtin();
    PlanOptions o;
    o.estimate.device = DeviceKind::Cuda;
    o.estimate.batch = 4;
    o.memoryBytes = c.find("a100-80g")->memoryBytes;
    o.contextBytes = c.find("a100-80g")->contextBytes;
    o.gpu = "a100-80g";
    QVERIFY(!planStep(m, o).fits);
    const std::vector<Fix> fixes = rankedFixes(m, o, c);
    QVERIFY(!fixes.empty());
    bool seenUnfit = false;
    for (const Fix& f : fixes) {
        // Each fix's peak is the plan of its options, and the fitting ones come first.
        const Plan p = planStep(m, f.options);
        QCOMPARE(f.peakBytes, p.peakBytes);
        QCOMPARE(f.fits, p.peakBytes <= f.options.memoryBytes);
        if (!f.fits) seenUnfit = true;
        else QVERIFY2(!seenUnfit, f.id.c_str());
    }
    QVERIFY(fixes.front().fits);
    // Every change offered fits or lowers the peak (flash attention, 60 MiB higher for
    // Mistral-7B at 2,048 tokens on this GPU, was offered as a step towards fitting).
    const Plan base = planStep(m, o);
    for (const Fix& f : fixes) QVERIFY2(f.fits || f.peakBytes < base.peakBytes, f.id.c_str());
    {
        const FitModel mistral = fitModelFromHf(readHfConfigFile(hf("mistral-7b.json")), 2048);
        PlanOptions one = o;
        one.estimate.batch = 1;
        // The case exists with PyTorch 1.13's foreach AdamW (two lists of temporaries hold the
        // peak in the optimizer step); with 2.x's one list the peak moves to where flash helps.
        one.estimate.torch = TorchVersion::V1_13;
        const Plan mistralBase = planStep(mistral, one);
        PlanOptions flash = one;
        flash.estimate.attention = AttentionKind::Flash;
        QVERIFY(!mistralBase.fits);
        QVERIFY(planStep(mistral, flash).peakBytes >= mistralBase.peakBytes); // the case this guards
        for (const Fix& f : rankedFixes(mistral, one, c))
            QVERIFY2(f.fits || f.peakBytes < mistralBase.peakBytes, f.id.c_str());
    }
    // Gradient accumulation cannot help: the model states do not fit (no grad-accum fix fits).
    for (const Fix& f : fixes)
        if (f.id == "grad-accum") QVERIFY(!f.fits);
    // A bigger single GPU: none of the catalog's (MI300X, 192 GiB) holds 16 bytes x 6.7B + activations? It does:
    // 6,738,415,616 x 16 = 107.8 GB < 192 GiB; the suggestion is the smallest that fits.
    for (const Fix& f : fixes)
        if (f.id == "gpu" && f.fits) {
            for (const GpuInfo& g : c.gpus())
                if (g.memoryBytes > o.memoryBytes && g.memoryBytes < f.options.memoryBytes) {
                    PlanOptions smaller = o;
                    smaller.memoryBytes = g.memoryBytes;
                    QVERIFY2(!planStep(m, smaller).fits, g.id.c_str());
                }
        }
    // A step that fits needs no fixes.
    o.estimate.dtype = DType::BF16;
    o.estimate.batch = 1;
    o.memoryBytes = 1024 * GiB;
    QVERIFY(rankedFixes(m, o, c).empty());
}

void TestFitPlan::cpuOffloadByHand() {
    // Llama-2-7B in fp16 (h 4096, MLP 11008, 32 layers): one decoder layer is 4 x 4096^2 + 3 x 4096 x
    // 11008 + 2 x 4096 = 202,383,360 parameters, 404,766,720 bytes. Offloading k layers (accelerate's
    // device_map="auto") keeps 32 - k on the GPU plus one in flight: k - 1 layers' bytes fewer; every
    // forward copies the k layers' weights; the KV cache stays whole on the GPU.
    const FitModel m = fitModelFromHf(readHfConfigFile(hf("llama-2-7b.json")), 512);
    const std::int64_t layer = 404'766'720;
    PlanOptions o;
    o.estimate.device = DeviceKind::Cuda;
    o.estimate.training = false;
    o.estimate.dtype = DType::F16;
    o.estimate.kvCacheTokens = 513;
    const Plan base = planStep(m, o);
    QCOMPARE(base.perDevice[0], std::int64_t{6'738'415'616} * 2);
    for (std::int64_t k : {1, 10, 32}) {
        PlanOptions off = o;
        off.offloadLayers = k;
        const Plan p = planStep(m, off);
        QCOMPARE(p.perDevice[0], base.perDevice[0] - (k - 1) * layer);
        QCOMPARE(p.offloadCopyBytes, k * layer);
        QCOMPARE(p.perDevice[6], base.perDevice[6]);
        QCOMPARE(p.peakBytes, base.peakBytes - (k - 1) * layer);
    }
    // The fix: the fewest layers on the CPU that fit in 12 GiB, less than the 12.55 GiB of weights
    // (one fewer does not fit).
    o.memoryBytes = 12 * GiB;
    QVERIFY(base.peakBytes > o.memoryBytes);
    const std::int64_t n = fewestOffloadedLayersThatFit(m, o);
    QVERIFY(n > 1 && n <= 32);
    PlanOptions fewer = o;
    fewer.offloadLayers = n - 1;
    QVERIFY(planStep(m, fewer).peakBytes > o.memoryBytes);
    fewer.offloadLayers = n;
    QVERIFY(planStep(m, fewer).peakBytes <= o.memoryBytes);
    bool offered = false;
    for (const Fix& f : rankedFixes(m, o, GpuCatalog::builtin()))
        if (f.id == "offload") offered = f.options.offloadLayers == n && f.fits;
    QVERIFY(offered);
    // Training's offload (ZeRO-Offload of the optimizer state) is not modelled.
    PlanOptions train = fewer;
    train.estimate.training = true;
    train.estimate.kvCacheTokens = 0;
    QVERIFY(errorOf<std::invalid_argument>([&] { planStep(m, train); }).find("inference only") != std::string::npos);
}

void TestFitPlan::encoderDecoderCachesByHand() {
    // t5-small (6 decoder layers, 8 heads of d_kv 64) decoding 131 tokens over a 128-token source at
    // batch 2 in fp32: per decoder layer the self-attention K and V of 131 tokens and the cross-attention
    // K and V of 128: 6 x 2 x 512 x 4 x 2 x (131 + 128) = 12,730,368 bytes; the encoder output held,
    // 2 x 128 x 512 x 4 = 524,288. The weights are the checkpoint's 60,506,624 parameters (cross-
    // attention included) x 4 bytes.
    const FitModel m = fitModelFromHf(readHfConfigFile(hf("t5-small.json")), 128);
    PlanOptions o;
    o.estimate.training = false;
    o.estimate.batch = 2;
    o.estimate.kvBlockTokens = 1;
    const Plan forward = planStep(m, o);
    o.estimate.kvCacheTokens = 131;
    const Plan decoding = planStep(m, o);
    QCOMPARE(decoding.perDevice[0], std::int64_t{60'506'624} * 4);
    QCOMPARE(decoding.perDevice[6], std::int64_t{12'730'368});
    QCOMPARE(decoding.peakBytes - forward.peakBytes, std::int64_t{12'730'368 + 524'288});
    o.fp8KvCache = true; // one byte per element
    QCOMPARE(planStep(m, o).perDevice[6], std::int64_t{12'730'368} / 4);
}

void TestFitPlan::weightsAreTheExactCount() {
    // Every config of tests/data/hf: the planned step's weights (fp32 inference) are the checkpoint's
    // exact parameter count x 4 bytes, whatever block the family is simulated on; where the simulated
    // layers hold more (DeBERTa's 2-class head) the
    // surplus is said in a warning naming its size; the simulation never holds fewer.
    QDir dir(QString::fromStdString(hf("")));
    int checked = 0;
    for (const QString& file : dir.entryList({"*.json"}, QDir::Files)) {
        if (file == "transformers_counts.json") continue;
        const HfModel hm = readHfConfigFile(hf(file.toUtf8().constData()));
        const FitModel m = fitModelFromHf(hm, 16);
        PlanOptions o;
        o.estimate.training = false;
        o.estimate.dtype = DType::F32;
        o.sequence = m.sequence() ? 16 : 0;
        const Plan p = planStep(m, o);
        const std::int64_t weights = p.perDevice[0] - m.spec.bufferBytes; // GPTBigCode's mask buffer is held beside them
        const std::int64_t surplus = weights / 4 - hm.parameterCount;
        bool said = false;
        for (const std::string& w : m.hf->warnings)
            said = said || w.find(std::to_string(surplus) + " parameters more than the checkpoint") != std::string::npos;
        // (a surplus under 0.1 %, such as a second norm per layer where the family shares one, goes unsaid)
        QVERIFY2(weights % 4 == 0 && surplus >= 0 && (said || surplus * 1000 <= hm.parameterCount), qPrintable(file));
        ++checked;
    }
    QVERIFY(checked >= 47);
}

void TestFitPlan::peersOmitActivations() {
    // bf16 weights and AdamW (bf16 states), sequence 2048, micro-batch 1, one A100 80GB: the model
    // states are 2 + 2 + 4 bytes per parameter, accelerate's "training with Adam" rule (4 x the
    // bf16 weights); memviz adds the activations, temporaries, allocator reserve and context.
    // The rows printed are docs/costmodel.md's "Peers side by side".
    const GpuCatalog c = GpuCatalog::builtin();
    for (const char* name : {"gpt2", "llama-2-7b", "mistral-7b", "qwen2-7b"}) {
        const HfModel hm = readHfConfigFile(hf((std::string(name) + ".json").c_str()));
        const FitModel m = fitModelFromHf(hm, std::min<std::int64_t>(2048, hm.maxPositions));
        PlanOptions o;
        o.estimate.device = DeviceKind::Cuda;
        o.estimate.dtype = DType::BF16;
        o.estimate.optimizer = OptimizerKind::AdamW;
        o.sequence = m.sequence();
        o.memoryBytes = c.find("a100-80g")->memoryBytes;
        o.contextBytes = c.find("a100-80g")->contextBytes;
        const Plan p = planStep(m, o);
        PlanOptions ck = o;
        ck.estimate.checkpoint = {CheckpointMode::PerLayer, 0};
        ck.estimate.attention = AttentionKind::Flash;
        const Plan pc = planStep(m, ck);
        PlanOptions lo = o;
        lo.estimate.lora = {16, LoraTargets::All};
        const Plan pl = planStep(m, lo);
        const std::int64_t params = p.step.parameterCount;
        const std::int64_t accelerate = accelerateEstimate(params, DType::BF16, true);
        QCOMPARE(accelerate, 8 * params);
        // Weights and AdamW's two states: 6 bytes a parameter (the rotary caches and the scalar
        // step tensors aside); gradients at the peak at most 2 (with set_to_none, a forward peak has none).
        const std::int64_t states = p.perDevice[0] + p.perDevice[2];
        QVERIFY2(std::abs(static_cast<double>(states) / static_cast<double>(6 * params) - 1) < 0.01, name);
        QVERIFY(p.perDevice[1] <= 2 * params);
        QVERIFY(p.peakBytes > accelerate);
        QVERIFY(pc.peakBytes < p.peakBytes);
        QVERIFY(pl.peakBytes < p.peakBytes);
        const auto g = [](std::int64_t b) { return QString::number(static_cast<double>(b) / GiB, 'f', 1); };
        qInfo("| %s | %s | %s | %s | %s | %s | %s | %s |", name, qPrintable(QString::number(hm.parameterCount)),
              qPrintable(g(accelerate)), qPrintable(g(deepSpeedZero2GpuBytes(hm.parameterCount, 1, false))),
              qPrintable(g(deepSpeedZero3GpuBytes(hm.parameterCount, hm.largestLayerParameters, 1, false, false))),
              qPrintable(g(p.peakBytes)), qPrintable(g(pc.peakBytes)), qPrintable(g(pl.peakBytes)));
    }
}

QTEST_GUILESS_MAIN(TestFitPlan)
#include "tst_fitplan.moc"

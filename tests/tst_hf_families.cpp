// SPDX-License-Identifier: MIT
// The model_type tables of the config reader (model/costmodel/HfFamilies.cpp): every config in
// tests/data/hf, written with the values of a published checkpoint, counted exactly as that
// checkpoint's architecture. The expectations are in tests/data/hf/transformers_counts.json,
// counted by Hugging Face transformers itself on the meta device
// (bench/costmodel/hf_param_counts.py; tests/data/hf/SOURCES.md gives each config's source and
// the published totals that agree); the generic decoder and the dtype rules by hand here.
#include <QtTest>

#include <cmath>
#include <set>

#include "costmodel/HfConfig.h"
#include "costmodel/Safetensors.h"

using namespace memviz::costmodel;

namespace {

QString dataDir() { return QStringLiteral(MEMVIZ_TEST_DATA) + "/hf/"; }

QJsonObject countsFile() {
    QFile f(dataDir() + "transformers_counts.json");
    if (!f.open(QIODevice::ReadOnly)) return {};
    return QJsonDocument::fromJson(f.readAll()).object();
}

// Published bytes of the stored tensors (slot publishedIndexTotals)
struct IndexTotal {
    const char* name;
    qint64 totalBytes;
    int bytesPerElement;
};
const IndexTotal kIndexTotals[] = {
    {"llama-3.1-8b", 16'060'522'496, 2},      // bf16
    {"phi-2", 5'559'367'680, 2},              // fp16
    {"qwen3-30b-a3b", 61'064'245'248, 2},     // bf16
    {"phi-3-mini-4k", 7'642'159'104, 2},      // bf16, 195 tensors in 2 shards
    {"deepseek-v2-lite", 31'412'968'448, 2},  // bf16
    {"gemma-2-2b", 10'457'367'552, 4},        // google/gemma-2-2b stores float32
    {"gemma-2-2b", 5'228'683'776, 2},         // google/gemma-2-2b-it's index, same architecture, bf16
    {"qwen1.5-moe-a2.7b", 28'631'568'384, 2}, // Qwen1.5-MoE-A2.7B-Chat's index, same architecture, bf16
    {"jamba-v0.1", 103'140'646'656, 2},       // AI21-Jamba-1.5-Mini's index (quoted), same architecture, bf16
    {"granite-3.1-1b-a400m-instruct", 5'338'513'408, 4}, // F32
};

// Published parameter counts (slot publishedParameterCounts)
struct PublishedCount {
    const char* name;
    qint64 parameters;
};
const PublishedCount kPublishedCounts[] = {
    {"phi-3-mini-4k", 3'821'079'552},           // HF API safetensors {"BF16": 3821079552}
    {"olmo-2-7b", 7'298'617'344},               // HF API safetensors {"F32": 7298617344}, revision 7df9a825
    {"whisper-tiny", 37'760'640},               // HF API safetensors {"F32": 37760640}; keras whisper_tiny_multi
    {"bloom-560m", 559'214'592},                // keras bloom_560m_multi
    {"deberta-v3-base", 183'831'552},           // keras deberta_v3_base_en
    {"distilbert-base-uncased", 66'362'880},    // keras distil_bert_base_en_uncased
    {"gemma-2b", 2'506'172'416},                // keras gemma_2b_en
    {"gemma-2-2b", 2'614'341'888},              // keras gemma2_2b_en
    {"gemma-3-1b", 999'885'952},                // keras gemma3_1b
    {"pythia-160m", 85'056'000 + 2 * 50'304 * 768}, // paper Table 1 non-embedding + untied embedding and unembedding
    // tiiuae/falcon-7b's published safetensors count holds lm_head.weight (vocabulary x hidden) although it is
    // tied to the word embeddings, counted once by transformers and memviz.
    {"falcon-7b", 7'217'189'760 - 65'024 * 4'544},
    {"falcon-7b-refinedwebmodel", 7'217'189'760 - 65'024 * 4'544},
    // HF API safetensors totals as recorded by llmfit (AlexsJones/llmfit a3e0eb27, hf_models.json parameters_raw)
    {"bart-base", 139'420'416},                 // facebook/bart-base
    {"starcoder2-3b", 3'030'371'328},           // bigcode/starcoder2-3b
    {"mamba-130m", 129'135'360},                // state-spaces/mamba-130m-hf
    {"jamba-v0.1", 51'570'323'328},             // ai21labs/AI21-Jamba-Mini-1.5, same architecture
    {"stablelm-2-1.6b", 1'644'515'328},         // stabilityai/stablelm-2-1_6b-chat, same architecture
    {"opt-125m", 125'239'296},                  // peft-internal-testing/opt-125m, a copy of facebook/opt-125m
    {"clip-vit-base-patch32", 151'277'313},     // keras-cv clip-vit-base-patch32 preset (keras-cv 3c545402)
    {"siglip-base-patch16-224", 203'155'970},   // HF safetensors count, quoted
    {"aya-23-8b", 8'028'033'024},               // CohereLabs/aya-23-8B
    {"gpt-bigcode-santacoder", 1'124'886'528},  // bigcode/gpt_bigcode-santacoder
    // Qwen/Qwen3-0.6B (also in HBX814/AmazonMLChallenge 8f86b166's table of HF API safetensors.total): the
    // checkpoint stores lm_head.weight although it is tied to the word embeddings, counted once by memviz.
    {"qwen3-0.6b", 751'632'384 - 151'936 * 1'024},
    // HF API safetensors.total as recorded in HBX814/AmazonMLChallenge 8f86b166 (and llmfit)
    {"granite-3.3-8b-instruct", 8'170'864'640}, // ibm-granite/granite-3.3-8b-instruct
    // FacebookAI/xlm-roberta-base: the XLMRobertaForMaskedLM checkpoint holds the pooler and the LM head
    // (dense, LayerNorm, bias; decoder tied), no position_ids.
    {"xlm-roberta-base", 278'885'778 - (768 * 768 + 768 + 2 * 768 + 250'002)},
    // FacebookAI/roberta-base's safetensors {"F32": 124697433, "I64": 514} (huggingface.js 00d37b2d test): the
    // RobertaForMaskedLM checkpoint has no pooler and holds the LM head (dense, LayerNorm, bias; decoder tied);
    // the I64 tensor is the position_ids buffer.
    {"roberta-base", 124'697'433 - (768 * 768 + 768 + 2 * 768 + 50'265) + (768 * 768 + 768)},
    // EleutherAI/gpt-j-6b's pytorch_model.bin (revision 47e16930) summed tensor by tensor: 285 parameter
    // tensors (its 56 mask buffers apart). The model card's 6,053,381,344 is mesh-transformer-jax's count of
    // the 8-way sharded training parameters (replicated norms and biases; SOURCES.md).
    {"gpt-j-6b", 6'050'882'784},
};

template <typename F>
std::string errorOf(F&& f) {
    try {
        f();
    } catch (const HfConfigError& e) {
        return e.what();
    }
    return {};
}

} // namespace

class TestHfFamilies : public QObject {
    Q_OBJECT
private slots:
    void countsMatchTransformers_data();
    void countsMatchTransformers();
    void publishedIndexTotals();
    void publishedParameterCounts();
    void everyModelTypeHasAPublishedFigure();
    void quantizedCheckpoints();
    void quantizationByHand();
    void atLeast35ModelTypes();
    void genericDecoder();
    void unknownWithoutCommonKeys();
    void torchDtypeIsRead();
    void knobsOfSomeFamilies();
};

void TestHfFamilies::countsMatchTransformers_data() {
    QTest::addColumn<QString>("name");
    QTest::addColumn<qint64>("expected");
    const QJsonObject counts = countsFile()["counts"].toObject();
    QVERIFY(counts.size() >= 40);
    for (auto it = counts.begin(); it != counts.end(); ++it)
        QTest::newRow(it.key().toUtf8().constData()) << it.key() << it.value().toObject()["parameters"].toInteger();
}

void TestHfFamilies::countsMatchTransformers() {
    QFETCH(QString, name);
    QFETCH(qint64, expected);
    const HfModel m = readHfConfigFile((dataDir() + name + ".json").toStdString());
    QCOMPARE(qint64(m.parameterCount), expected);
    QVERIFY(!m.generic);
    QVERIFY(m.largestLayerParameters > 0 && m.largestLayerParameters < m.parameterCount);
}

void TestHfFamilies::publishedIndexTotals() {
    // Published bytes of the stored tensors (tests/data/hf/SOURCES.md, last column): the checkpoint's
    // model.safetensors.index.json metadata.total_size, or for a single-file checkpoint the sum of its
    // tensors. Each of these stores exactly the parameters memviz counts (no buffers, a tied head once),
    // so total / bytes per stored element is the parameter count.
    for (const auto& p : kIndexTotals) {
        QCOMPARE(p.totalBytes % p.bytesPerElement, qint64(0));
        const HfModel m = readHfConfigFile((dataDir() + p.name + ".json").toStdString());
        QCOMPARE(qint64(m.parameterCount), p.totalBytes / p.bytesPerElement);
    }
    // tiiuae/falcon-40b (bf16): its index counts lm_head.weight (vocabulary x hidden) although it is tied to the
    // word embeddings, counted once by transformers and memviz.
    QCOMPARE(qint64(readHfConfigFile((dataDir() + "falcon-40b-refinedweb.json").toStdString()).parameterCount),
             83'671'941'120 / 2 - 65'024 * 8'192);
}

void TestHfFamilies::publishedParameterCounts() {
    // Parameter counts published for the checkpoint (tests/data/hf/SOURCES.md, last column): the Hugging
    // Face model API's safetensors count (the model page's "Model size": every stored tensor's
    // elements), keras-hub's preset metadata "params" (keras-team/keras-hub 71453d08, the Kaggle
    // checkpoint converted from the same weights; only presets laid out with the same tensors), keras-cv's CLIP
    // preset metadata, and Pythia's paper. "Same architecture" rows take a sibling checkpoint whose tensors have
    // the same shapes (SOURCES.md says which).
    for (const auto& p : kPublishedCounts)
        QCOMPARE(qint64(readHfConfigFile((dataDir() + p.name + ".json").toStdString()).parameterCount), p.parameters);

    // deepseek-ai/DeepSeek-V3's published safetensors count by dtype: BF16 3,918,786,560, F8_E4M3
    // 680,571,043,840, F32 41,555,600 (total 684,531,386,000). The F32 tensors are the FP8 weights' 128x128
    // block scales (weight_scale_inv) and the routers' e_score_correction_bias, buffers to transformers; the
    // BF16 and FP8 ones also hold the multi-token-prediction layer 61, which transformers does not load:
    // one MoE layer plus its own embedding and head, eh_proj (2h -> h) and three norms.
    const qint64 h = 7168, vocab = 129'280;
    const qint64 attention = h * 1536 + 1536 + 1536 * 128 * 192 + h * (512 + 64) + 512 + 512 * 128 * (128 + 128) + 128 * 128 * h;
    const qint64 moeLayer = attention + 2 * h + (256 + 1) * 3 * h * 2048 + 256 * h;
    const qint64 mtpLayer = moeLayer + 2 * vocab * h + 2 * h * h + 3 * h;
    QCOMPARE(qint64(readHfConfigFile((dataDir() + "deepseek-v3.json").toStdString()).parameterCount),
             3'918'786'560 + 680'571'043'840 - mtpLayer);
    // Counted as serving engines load it (--with-mtp): the BF16 and FP8 tensors of the checkpoint exactly.
    const HfModel withMtp = withMtpLayers(readHfConfigFile((dataDir() + "deepseek-v3.json").toStdString()));
    QCOMPARE(qint64(withMtp.mtpParameters), mtpLayer);
    QCOMPARE(qint64(withMtp.parameterCount), 3'918'786'560 + 680'571'043'840);
    QCOMPARE(qint64(withMtpLayers(withMtp).parameterCount), 3'918'786'560 + 680'571'043'840); // counted once
}

void TestHfFamilies::everyModelTypeHasAPublishedFigure() {
    // Every model_type of tests/data/hf is held to at least one published figure of a real checkpoint
    // (the two tables above, falcon-40b's index and DeepSeek-V3's dtype counts), not only to transformers.
    std::set<std::string> checked, all;
    auto typeOf = [](const std::string& name) { return readHfConfigFile((dataDir() + QString::fromStdString(name) + ".json").toStdString()).modelType; };
    for (const auto& p : kIndexTotals) checked.insert(typeOf(p.name));
    for (const auto& p : kPublishedCounts) checked.insert(typeOf(p.name));
    for (const char* name : {"falcon-40b-refinedweb", "deepseek-v3"}) checked.insert(typeOf(name));
    // The published safetensors headers (shapes) of tests/data/hf, also read by tst_fitplan
    for (const char* name : {"gpt2", "llama-2-7b", "mistral-7b", "mixtral-8x7b", "qwen2-7b", "bert-base-uncased",
                             "vit-base-patch16-224", "t5-small"}) {
        const QString header = QDir(dataDir() + name).exists() ? dataDir() + name + "/model.safetensors.index.json"
                                                               : dataDir() + name + ".safetensors";
        const HfModel m = readHfConfigFile((dataDir() + name + ".json").toStdString());
        QCOMPARE(qint64(readSafetensors(header.toStdString()).parameterCount), qint64(m.parameterCount));
        checked.insert(m.modelType);
    }
    const QJsonObject counts = countsFile()["counts"].toObject();
    for (auto it = counts.begin(); it != counts.end(); ++it) all.insert(typeOf(it.key().toStdString()));
    std::string missing;
    for (const std::string& t : all)
        if (!checked.count(t)) missing += " " + t;
    QVERIFY2(missing.empty(), ("model types without a published figure:" + missing).c_str());
    QVERIFY(all.size() >= 35);
}

void TestHfFamilies::quantizedCheckpoints() {
    // Published sizes of GPTQ and AWQ checkpoints (tests/data/hf/quantized/published_sizes.json:
    // the READMEs' "Size" column, GB with two decimals) against the bytes memviz works out from
    // the architecture and quantization_config: within 0.5%.
    QFile f(dataDir() + "quantized/published_sizes.json");
    QVERIFY(f.open(QIODevice::ReadOnly));
    const QJsonArray rows = QJsonDocument::fromJson(f.readAll()).object()["checkpoints"].toArray();
    QVERIFY(rows.size() >= 6);
    for (const QJsonValue& v : rows) {
        const QJsonObject r = v.toObject();
        const HfModel m = readHfConfigFile((dataDir() + "quantized/" + r["config"].toString()).toStdString());
        const double published = r["published_gb"].toDouble() * 1e9;
        const double error = std::abs(static_cast<double>(m.quantizedWeightBytes) - published) / published;
        QVERIFY2(error < 0.005, qPrintable(r["config"].toString() + ": " + QString::number(m.quantizedWeightBytes) + " bytes against " +
                                           QString::number(published, 'f', 0) + " published"));
    }
}

void TestHfFamilies::quantizationByHand() {
    // One layer, hidden 128, 2 heads, MLP 256, vocabulary 10: q, k, v, o 128x128, gate/up 128->256,
    // down 256->128; the rest (embeddings, 2 norms + final norm, head) in 16 bits.
    const QString shape = R"({"model_type": "llama", "hidden_size": 128, "num_hidden_layers": 1, "num_attention_heads": 2,
        "intermediate_size": 256, "vocab_size": 10, "quantization_config": %1})";
    const std::int64_t rest = 2 * (10 * 128 + 3 * 128 + 10 * 128);
    const auto bytes = [&](const char* q) { return readHfConfig(shape.arg(q).toStdString(), "c.json").quantizedWeightBytes; };
    // bitsandbytes 8-bit: one byte per weight and an fp32 scale per output row.
    const std::int64_t rows8 = 4 * 128 + 2 * 256 + 128;
    const std::int64_t weights = 4 * 128 * 128 + 3 * 128 * 256;
    QCOMPARE(qint64(bytes(R"({"quant_method": "bitsandbytes", "load_in_8bit": true})")), qint64(weights + 4 * rows8 + rest));
    // 4-bit NF4 with double quantization: half a byte per weight, per 64 weights a uint8 absmax,
    // per 256 blocks an fp32 one, a 256-entry fp32 map and the 16-entry NF4 map per layer.
    std::int64_t nf4 = 0;
    for (std::int64_t n : {128 * 128, 128 * 128, 128 * 128, 128 * 128, 128 * 256, 128 * 256, 256 * 128}) {
        const std::int64_t blocks = n / 64;
        nf4 += n / 2 + blocks + (blocks + 255) / 256 * 4 + 256 * 4 + 16 * 4;
    }
    QCOMPARE(qint64(bytes(R"({"quant_method": "bitsandbytes", "load_in_4bit": true, "bnb_4bit_quant_type": "nf4",
        "bnb_4bit_use_double_quant": true})")), qint64(nf4 + rest));
    // FP8 with 128x128 block scales (DeepSeek-V3): a byte per weight, an fp32 per block.
    const std::int64_t fp8blocks = 4 * 1 + 2 * 2 + 2;
    QCOMPARE(qint64(bytes(R"({"quant_method": "fp8", "weight_block_size": [128, 128]})")), qint64(weights + 4 * fp8blocks + rest));
    // A method not modelled: a warning, no bytes.
    const HfModel other = readHfConfig(shape.arg(R"({"quant_method": "hqq"})").toStdString(), "c.json");
    QCOMPARE(qint64(other.quantizedWeightBytes), qint64(0));
    QVERIFY(!other.warnings.empty());
}

void TestHfFamilies::atLeast35ModelTypes() {
    // Every table row has a config here, and the configs cover at least 35 model_types.
    std::set<std::string> seen;
    const QJsonObject counts = countsFile()["counts"].toObject();
    for (auto it = counts.begin(); it != counts.end(); ++it)
        seen.insert(readHfConfigFile((dataDir() + it.key() + ".json").toStdString()).modelType);
    QVERIFY2(seen.size() >= 35, std::to_string(seen.size()).c_str());
    for (const std::string& t : hfModelTypes()) QVERIFY2(seen.count(t), t.c_str());
}

void TestHfFamilies::genericDecoder() {
    // A model_type no table knows, with the common keys: a Llama-style decoder. By hand:
    // embeddings 1000 x 64; per layer q 64x64, k and v 64x32 each (2 kv heads of 16), o 64x64,
    // gated MLP 3 x 64 x 128, two RMSNorms 2 x 64; final norm 64; untied head 1000 x 64.
    const std::string json = R"({"model_type": "made_up_lm", "hidden_size": 64, "num_hidden_layers": 3,
        "num_attention_heads": 4, "num_key_value_heads": 2, "intermediate_size": 128, "vocab_size": 1000,
        "torch_dtype": "bfloat16"})";
    const HfModel m = readHfConfig(json, "config.json");
    const std::int64_t layer = 64 * 64 + 2 * 64 * 32 + 64 * 64 + 3 * 64 * 128 + 2 * 64;
    QCOMPARE(qint64(m.parameterCount), qint64(1000 * 64 + 3 * layer + 64 + 1000 * 64));
    QVERIFY(m.generic);
    QCOMPARE(m.warnings.size(), std::size_t(1));
    QVERIFY(m.warnings[0].find("made_up_lm") != std::string::npos);
    QVERIFY(m.warnings[0].find("generic decoder") != std::string::npos);
    // Tied, with GPT-2's spellings (n_embd, n_layer, n_head): no head matrix.
    const HfModel t = readHfConfig(R"({"model_type": "x", "n_embd": 64, "n_layer": 1, "n_head": 4, "intermediate_size": 128,
        "vocab_size": 10, "tie_word_embeddings": true})", "c.json");
    QCOMPARE(qint64(t.parameterCount), qint64(10 * 64 + (4 * 64 * 64 + 3 * 64 * 128 + 2 * 64) + 64));
    std::vector<std::string> w;
    const ModelSpec s = hfModelSpec(m, 32, w);
    QVERIFY(!s.layers.empty());
}

void TestHfFamilies::unknownWithoutCommonKeys() {
    const std::string e = errorOf([] { readHfConfig(R"({"model_type": "weird", "vocab_size": 10})", "config.json"); });
    QVERIFY2(e.find("'model_type': 'weird' is not a known family") != std::string::npos, e.c_str());
    QVERIFY2(e.find("hidden_size") != std::string::npos, e.c_str());
}

void TestHfFamilies::torchDtypeIsRead() {
    QCOMPARE(readHfConfigFile((dataDir() + "llama-3.1-8b.json").toStdString()).torchDtype, std::string("bfloat16"));
    QCOMPARE(readHfConfigFile((dataDir() + "gpt2.json").toStdString()).torchDtype, std::string());
    QCOMPARE(readHfConfig(R"({"model_type": "llama", "hidden_size": 8, "num_hidden_layers": 1, "num_attention_heads": 2,
        "intermediate_size": 8, "vocab_size": 4, "dtype": "float16"})", "c.json").torchDtype, std::string("float16"));
}

void TestHfFamilies::knobsOfSomeFamilies() {
    const auto read = [](const char* n) { return readHfConfigFile((dataDir() + n + ".json").toStdString()); };
    const HfModel ds = read("deepseek-v3");
    QVERIFY(ds.block.attention == HfAttention::Mla);
    QCOMPARE(qint64(ds.block.kvLoraRank), qint64(512));
    QVERIFY(ds.block.experts == 256 && ds.block.firstDense == 3);
    const HfModel falcon = read("falcon-7b");
    QVERIFY(falcon.block.parallelResidual && falcon.block.attention == HfAttention::Mqa && falcon.block.normsPerLayer == 1);
    const HfModel neox = read("pythia-160m");
    QCOMPARE(neox.block.rotaryFraction, 0.25);
    QVERIFY(read("bloom-560m").block.positions == HfPositions::Alibi);
    QVERIFY(read("gemma-3-1b").block.globalEvery == 6);
    QVERIFY(read("mamba-130m").block.stack == HfStack::StateSpace);
    QVERIFY(read("jamba-v0.1").block.stack == HfStack::Hybrid);
    QVERIFY(read("whisper-tiny").block.stack == HfStack::EncoderDecoder);
    // A sequence-classification head replaces the LM head: score is num_labels x hidden.
    const std::string cls = R"({"model_type": "llama", "architectures": ["LlamaForSequenceClassification"], "num_labels": 3,
        "hidden_size": 8, "num_hidden_layers": 1, "num_attention_heads": 2, "intermediate_size": 8, "vocab_size": 4})";
    const std::int64_t body = 4 * 8 + (4 * 8 * 8 + 3 * 8 * 8 + 2 * 8) + 8;
    QCOMPARE(qint64(readHfConfig(cls, "c.json").parameterCount), qint64(body + 3 * 8));
}

QTEST_GUILESS_MAIN(TestHfFamilies)
#include "tst_hf_families.moc"

// SPDX-License-Identifier: MIT
#include "costmodel/HfConfig.h"

#include <simdjson.h>

#include <algorithm>
#include <fstream>
#include <optional>
#include <sstream>

#include "costmodel/HfFamilies.h"
#include "costmodel/HfKeys.h"
#include "costmodel/HfParams.h"
#include "costmodel/HfQuant.h"
#include "costmodel/LayerBuilders.h"
#include "costmodel/ResolvedModel.h"
#include "io/JsonError.h"
#include "io/JsonLocate.h"

namespace memviz::costmodel {

namespace {

using namespace hf;

// The keys the BERT and ViT encoders share: hidden size, layers, heads (no GQA), MLP width.
void readEncoderShape(const Keys& k, HfModel& m) {
    m.hidden = k.integer("hidden_size");
    m.layers = k.integer("num_hidden_layers");
    m.heads = k.integer("num_attention_heads");
    m.kvHeads = m.heads;
    m.intermediate = k.integer("intermediate_size");
    requireDivides(k, "num_attention_heads", m.heads, "hidden_size", m.hidden);
    m.headDim = m.hidden / m.heads;
}

// One BERT/ViT encoder layer: q, k, v, o with their biases (ViT may drop the q/k/v ones), two
// layernorms, and the two-matrix MLP with biases.
std::int64_t encoderLayerParameters(const Count& c, std::int64_t h, std::int64_t i, bool qkvBias) {
    const std::int64_t block = c.add(c.mul(4 * h, h, "hidden_size"), (qkvBias ? 3 * h : 0) + h + 4 * h, "hidden_size");
    return c.add(block, c.add(c.mul(2 * h, i, "intermediate_size"), i + h, "intermediate_size"), "intermediate_size");
}

void readBert(const Keys& k, HfModel& m) {
    m.family = HfFamily::Bert;
    readEncoderShape(k, m);
    m.vocab = k.integer("vocab_size");
    m.maxPositions = k.integer("max_position_embeddings", 512);
    m.typeVocab = k.integer("type_vocab_size", 2);
    m.dropout = k.probability("hidden_dropout_prob", 0.1);
    const Count c{k};
    const std::int64_t h = m.hidden, i = m.intermediate;
    const std::int64_t block = encoderLayerParameters(c, h, i, true);
    std::int64_t embeddings = c.add(c.mul(m.vocab, h, "vocab_size"), c.mul(m.maxPositions, h, "max_position_embeddings"),
                                    "max_position_embeddings");
    embeddings = c.add(embeddings, c.mul(m.typeVocab, h, "type_vocab_size") + 2 * h, "type_vocab_size");
    // BertModel with its pooler (dense h x h + bias): the published 109,482,240 of BERT-base.
    std::int64_t total = c.add(embeddings, c.mul(block, m.layers, "num_hidden_layers"), "num_hidden_layers");
    m.parameterCount = c.add(total, c.mul(h, h, "hidden_size") + h, "hidden_size");
    m.largestLayerParameters = block;
}

void readVit(const Keys& k, HfModel& m) {
    m.family = HfFamily::Vit;
    readEncoderShape(k, m);
    m.imageSize = k.integer("image_size", 224);
    m.patchSize = k.integer("patch_size", 16);
    m.channels = k.integer("num_channels", 3);
    m.qkvBias = k.boolean("qkv_bias", true);
    m.dropout = k.probability("hidden_dropout_prob", 0.0);
    requireDivides(k, "patch_size", m.patchSize, "image_size", m.imageSize);
    const bool classifier = m.architecture == "ViTForImageClassification";
    const std::int64_t labels = k.objectSize("id2label");
    m.labels = classifier ? (labels >= 0 ? labels : k.integer("num_labels", 2)) : 0;
    if (classifier && m.labels < 1) k.fail("id2label", "names no label");
    const Count c{k};
    const std::int64_t h = m.hidden, i = m.intermediate, side = m.imageSize / m.patchSize;
    const std::int64_t patches = c.mul(side, side, "image_size");
    const std::int64_t block = encoderLayerParameters(c, h, i, m.qkvBias);
    std::int64_t total = c.mul(c.mul(c.mul(m.channels, m.patchSize, "patch_size"), m.patchSize, "patch_size"), h, "hidden_size");
    total = c.add(total, h + h + c.mul(patches + 1, h, "image_size"), "image_size"); // conv bias, cls, positions
    total = c.add(total, c.mul(block, m.layers, "num_hidden_layers"), "num_hidden_layers");
    total += 2 * h; // final layernorm
    // ViTForImageClassification has no pooler; ViTModel has one (dense h x h + bias).
    total = c.add(total, classifier ? c.mul(h, m.labels, "id2label") + m.labels : c.mul(h, h, "hidden_size") + h, "hidden_size");
    m.parameterCount = total;
    m.largestLayerParameters = block;
}

void readT5(const Keys& k, HfModel& m) {
    m.family = HfFamily::T5;
    m.hidden = k.integer("d_model");
    m.layers = k.integer("num_layers");
    m.decoderLayers = k.integer("num_decoder_layers", m.layers);
    m.heads = k.integer("num_heads");
    m.kvHeads = m.heads;
    m.headDim = k.integer("d_kv");
    m.intermediate = k.integer("d_ff");
    m.vocab = k.integer("vocab_size");
    m.tiedEmbeddings = k.boolean("tie_word_embeddings", true);
    m.dropout = k.probability("dropout_rate", 0.1);
    const std::string ff = k.text("feed_forward_proj", "relu");
    if (ff != "relu" && ff != "gated-gelu" && ff != "gelu" && ff != "gated-relu" && ff != "gated-silu")
        k.fail("feed_forward_proj", "'" + ff + "' is not one of relu, gelu, gated-gelu, gated-relu, gated-silu");
    m.gatedFeedForward = ff.rfind("gated-", 0) == 0;
    const std::int64_t buckets = k.integer("relative_attention_num_buckets", 32);
    const Count c{k};
    const std::int64_t d = m.hidden, inner = c.mul(m.heads, m.headDim, "d_kv");
    const std::int64_t attention = c.mul(4 * d, inner, "d_kv");
    const std::int64_t feedForward = c.mul((m.gatedFeedForward ? 3 : 2) * d, m.intermediate, "d_ff");
    const std::int64_t encoderBlock = c.add(attention, feedForward + 2 * d, "d_ff");
    const std::int64_t decoderBlock = c.add(c.add(attention, attention, "d_kv"), feedForward + 3 * d, "d_ff");
    const std::int64_t bias = c.mul(buckets, m.heads, "relative_attention_num_buckets");
    std::int64_t total = c.mul(m.vocab, d, "vocab_size");
    total = c.add(total, c.mul(encoderBlock, m.layers, "num_layers") + bias + d, "num_layers");
    total = c.add(total, c.mul(decoderBlock, m.decoderLayers, "num_decoder_layers") + bias + d, "num_decoder_layers");
    if (!m.tiedEmbeddings) total = c.add(total, c.mul(m.vocab, d, "vocab_size"), "vocab_size");
    m.parameterCount = total;
    m.largestLayerParameters = std::max(encoderBlock, decoderBlock);
}

using namespace build;

Layer encoder(const HfModel& m, std::int64_t ff, bool normFirst, bool causal) {
    return build::encoder(m.hidden, m.heads, ff, m.dropout, true, normFirst, causal);
}

std::string num(std::int64_t v) { return std::to_string(v); }

// The patch embedding of a vision tower: a conv of patch size and stride, hidden channels out.
Layer patchEmbedding(const HfModel& m) {
    Layer patches = make(LayerType::Conv2d);
    patches.outChannels = m.hidden;
    patches.kernel = {m.patchSize, m.patchSize};
    patches.stride = {m.patchSize, m.patchSize};
    patches.strideSet = true;
    return patches;
}

// CLIPModel / SiglipModel trained as measured (pixel_values, input_ids of min(--seq, text
// positions) tokens, return_loss): the vision tower, then the text tower on its own input, the
// two embeddings joined by the contrastive logits.
ModelSpec textVisionSpec(const HfModel& m, std::int64_t sequence, std::vector<std::string>& warnings) {
    const bool siglip = m.projection == 0;
    ModelSpec s;
    s.name = m.modelType + (m.architecture.empty() ? std::string() : " (" + m.architecture + ")");
    s.input = {{m.channels, m.imageSize, m.imageSize}, DType::F32};
    s.target = {{}, DType::I64};
    Layer patches = patchEmbedding(m);
    patches.bias = siglip; // CLIP's patch_embedding has no bias
    const std::int64_t side = m.imageSize / m.patchSize;
    s.layers = {patches, make(LayerType::ToSequence)};
    if (!siglip) {
        Layer cls = make(LayerType::ClassToken);
        cls.embeddingDim = m.hidden;
        s.layers.push_back(cls);
    }
    s.layers.push_back(embedding(LayerType::PositionEmbedding, side * side + (siglip ? 0 : 1), m.hidden));
    if (!siglip) s.layers.push_back(make(LayerType::LayerNorm)); // pre_layrnorm
    for (std::int64_t i = 0; i < m.layers; ++i) s.layers.push_back(encoder(m, m.intermediate, true, false));
    s.layers.push_back(make(LayerType::LayerNorm)); // post_layernorm
    s.layers.push_back(make(LayerType::SelectToken)); // CLIP: the class token
    if (siglip) {
        // SigLIP's attention-pooling head: one probe token's attention (in_proj 3E x E, out_proj),
        // a norm and an MLP, all on that one token: its weights as four E x E linears, a norm,
        // fc1 and fc2 (the keys and values over the patches not simulated)
        for (int i = 0; i < 4; ++i) s.layers.push_back(linear(m.hidden, true));
        s.layers.push_back(make(LayerType::LayerNorm));
        s.layers.push_back(linear(m.intermediate, true));
        s.layers.push_back(make(LayerType::GELU));
        s.layers.push_back(linear(m.hidden, true));
    }
    if (!siglip) s.layers.push_back(linear(m.projection, false)); // visual_projection
    const std::int64_t tokens = m.maxPositions > 0 ? std::min(sequence, m.maxPositions) : sequence;
    Layer text = make(LayerType::TextTower);
    text.tokens = tokens;
    text.layers = {embedding(LayerType::Embedding, m.vocab, m.textHidden),
                   embedding(LayerType::PositionEmbedding, m.maxPositions, m.textHidden)};
    for (std::int64_t i = 0; i < m.textLayers; ++i)
        text.layers.push_back(build::encoder(m.textHidden, m.textHeads, m.textIntermediate, m.dropout, true, true, !siglip));
    text.layers.push_back(make(LayerType::LayerNorm)); // final_layer_norm
    text.layers.push_back(make(LayerType::SelectToken)); // CLIP: the end token; SigLIP: the last
    text.layers.push_back(siglip ? linear(m.textHidden, true) : linear(m.projection, false)); // head / text_projection
    s.layers.push_back(text);
    warnings.push_back("a " + m.modelType + " model takes " + num(m.channels) + "x" + num(m.imageSize) + "x" + num(m.imageSize) +
                       " images and " + num(tokens) + " text tokens (--seq up to max_position_embeddings " + num(m.maxPositions) +
                       "); the contrastive logits are simulated as a sum of the two embeddings" +
                       (siglip ? ", the attention-pooling head as its weights on the one pooled token" : ""));
    return s;
}

} // namespace

const char* hfFamilyName(HfFamily f) {
    switch (f) {
    case HfFamily::Gpt2: return "gpt2";
    case HfFamily::Llama: return "llama";
    case HfFamily::Mixtral: return "mixtral";
    case HfFamily::Bert: return "bert";
    case HfFamily::Vit: return "vit";
    case HfFamily::T5: return "t5";
    }
    return "?";
}

std::vector<std::string> hfModelTypes() {
    std::vector<std::string> types = tableModelTypes();
    for (const char* t : {"bert", "t5", "vit"}) types.emplace_back(t);
    std::sort(types.begin(), types.end());
    return types;
}

HfModel readHfConfig(std::string_view json, const std::string& where) {
    dom::parser parser;
    const simdjson::padded_string padded(json);
    dom::element root;
    if (const auto error = parser.parse(padded).get(root)) {
        const std::string located = describeJsonSyntaxError(where, json, error);
        throw HfConfigError(located.empty() ? describeJsonError(where, json, nullptr, error) : located);
    }
    dom::object top;
    if (root.get_object().get(top)) throw HfConfigError(where + ": a config.json must be a JSON object");
    const Keys k(top, where);
    HfModel m;
    m.modelType = k.text("model_type", "");
    if (const auto a = k.find("architectures")) {
        dom::array list;
        std::string_view first;
        if (a->get_array().get(list)) k.fail("architectures", "must be a list of class names");
        if (list.size() > 0 && list.at(0).get_string().get(first)) k.fail("architectures", "must be a list of class names");
        m.architecture = std::string(first);
    }
    if (m.modelType.empty()) k.fail("model_type", "missing (it says which family the config describes)");
    m.torchDtype = k.text(k.firstOf({"torch_dtype", "dtype"}), "");
    if (m.modelType == "bert") readBert(k, m);
    else if (m.modelType == "vit") readVit(k, m);
    else if (m.modelType == "t5") readT5(k, m);
    else if (!readWithTable(k, m)) readGenericDecoder(k, m);
    if (m.modelType == "bert") m.block.stack = HfStack::Encoder;
    if (m.modelType == "vit") m.block.stack = HfStack::Vision;
    if (m.modelType == "t5") m.block.stack = HfStack::EncoderDecoder;
    readQuantization(k, m);
    m.quantizedWeightBytes = quantizedWeightBytes(m);
    if (!m.quantization.method.empty() && m.quantizedWeightBytes == 0)
        m.warnings.push_back("quantization_config: the weight bytes of a quantized " + m.modelType + " are not modelled");
    // The spec holds one layer per block: no real model has ten thousand of them.
    constexpr std::int64_t kMostLayers = 10'000;
    if (m.layers > kMostLayers || m.decoderLayers > kMostLayers)
        k.fail(m.family == HfFamily::Gpt2 ? "n_layer" : m.family == HfFamily::T5 ? "num_layers" : "num_hidden_layers",
               std::to_string(std::max(m.layers, m.decoderLayers)) + " layers is absurd (more than 10,000)");
    if (m.experts > 4096) k.fail("num_local_experts", std::to_string(m.experts) + " experts is absurd (more than 4096)");
    return m;
}

HfModel withMtpLayers(HfModel m) {
    if (m.mtpCounted) return m;
    if (m.mtpLayers <= 0 || m.mtpParameters <= 0) {
        m.warnings.push_back("the config has no multi-token-prediction layers (num_nextn_predict_layers) to count");
        return m;
    }
    m.parameterCount += m.mtpParameters;
    m.mtpCounted = true;
    if (m.quantizedWeightBytes > 0) { // the MTP layer's linears in the checkpoint's layout, the rest (eh_proj too) in 16 bits
        HfModel withLayer = m;
        withLayer.layers += m.mtpLayers;
        m.quantizedWeightBytes = quantizedWeightBytes(withLayer);
    }
    std::erase_if(m.warnings, [](const std::string& w) { return w.find("num_nextn_predict_layers") != std::string::npos; });
    m.warnings.push_back("the multi-token-prediction layers (num_nextn_predict_layers " + num(m.mtpLayers) + ") counted: " +
                         num(m.mtpParameters) + " parameters, as vLLM and SGLang load them for speculative decoding;"
                         " their weights are held whole, and in inference their own latent cache beside the decoder layers'");
    return m;
}

HfModel readHfConfigFile(const std::string& path) {
    std::ifstream in(path, std::ios::binary);
    if (!in) throw HfConfigError(path + ": cannot open the file");
    std::ostringstream text;
    text << in.rdbuf();
    const std::string json = text.str();
    if (json.size() > 16 * 1024 * 1024) throw HfConfigError(path + ": " + num(static_cast<std::int64_t>(json.size())) +
                                                             " bytes is too large for a config.json");
    return readHfConfig(json, path);
}

ModelSpec hfModelSpec(const HfModel& m, std::int64_t sequence, std::vector<std::string>& warnings) {
    if (sequence < 1) throw HfConfigError("the sequence length must be at least 1");
    if (m.maxPositions > 0 && sequence > m.maxPositions && (m.family == HfFamily::Gpt2 || m.family == HfFamily::Bert))
        throw HfConfigError("a sequence of " + num(sequence) + " tokens is longer than the " + num(m.maxPositions) +
                            " positions of this " + hfFamilyName(m.family) + " model");
    if (m.maxPositions > 0 && sequence > m.maxPositions && m.block.stack != HfStack::TextVision) // CLIP: text cut to fit
        warnings.push_back("the sequence (" + num(sequence) + ") is longer than max_position_embeddings (" + num(m.maxPositions) + ")");
    ModelSpec s;
    s.name = m.modelType + (m.architecture.empty() ? std::string() : " (" + m.architecture + ")");
    s.input = {{sequence}, DType::I64};
    s.target = {{sequence}, DType::I64};
    switch (m.family) {
    case HfFamily::Gpt2: {
        s.layers = {embedding(LayerType::Embedding, m.vocab, m.hidden), embedding(LayerType::PositionEmbedding, m.maxPositions, m.hidden),
                    dropout(m.dropout)};
        for (std::int64_t i = 0; i < m.layers; ++i) s.layers.push_back(gpt2Block(m.hidden, m.heads, m.intermediate, m.dropout));
        s.layers.push_back(make(LayerType::LayerNorm));
        s.layers.push_back(linear(m.vocab, false, m.tiedEmbeddings));
        break;
    }
    case HfFamily::Llama:
    case HfFamily::Mixtral: {
        s.layers = {embedding(LayerType::Embedding, m.vocab, m.hidden)};
        const HfBlock& b = m.block;
        const bool mla = b.attention == HfAttention::Mla;
        for (std::int64_t i = 0; i < m.layers; ++i) {
            const bool experts = hf::hasExperts(m, i);
            Layer l = make(LayerType::LlamaDecoderLayer);
            l.dModel = m.hidden;
            l.nhead = m.heads;
            l.numKvHeads = mla ? m.heads : m.kvHeads;
            // A plain MLP (two matrices) of width i is simulated as a gated one of width 2i/3.
            const std::int64_t width = experts ? b.moeIntermediate : m.intermediate;
            l.dimFeedforward = b.gatedMlp ? width : std::max<std::int64_t>(1, width * 2 / 3);
            l.numExperts = experts ? m.experts : 0;
            l.expertLora = experts ? b.expertLora : ExpertLora::Linear;
            l.expertsPerToken = experts ? m.expertsPerToken : 0;
            l.headDim = m.headDim * m.heads != m.hidden ? m.headDim : 0;
            l.qkvBias = m.qkvBias;
            l.oBias = m.oBias;
            l.mlpBias = m.mlpBias && !experts;
            // Sliding window: every layer (Mistral, Phi-3, Starcoder2), or all but every
            // globalEvery-th (Gemma 2: odd layers global; Gemma 3: every 6th).
            const bool local = b.slidingWindow > 0 && (b.globalEvery == 0 || (i + 1) % b.globalEvery != 0);
            l.kvWindow = local ? b.slidingWindow : 0;
            if (mla) { // the compressed latent and the shared rope key, per token
                l.cacheK = b.kvLoraRank;
                l.cacheV = b.qkRopeDim;
                l.mlaQRank = b.qLoraRank;
                l.mlaKvRank = b.kvLoraRank;
                l.mlaRope = b.qkRopeDim;
                l.mlaValue = b.vHeadDim;
            }
            if (b.stack == HfStack::StateSpace || (b.stack == HfStack::Hybrid && !hf::hasAttention(m, i))) {
                l.cacheState = true; // conv state [inner, conv kernel] and SSM state [inner, state size]
                l.cacheK = b.ssmInner * b.ssmConv;
                l.cacheV = b.ssmInner * b.ssmState;
            }
            s.layers.push_back(l);
        }
        s.layers.push_back(make(LayerType::RMSNorm));
        s.layers.push_back(linear(m.vocab, false, m.tiedEmbeddings));
        if (b.logitScale) s.layers.push_back(make(LayerType::Scale));
        if (b.logitSoftcap)
            for (LayerType t : {LayerType::Scale, LayerType::Tanh, LayerType::Scale}) s.layers.push_back(make(t));
        if (m.modelType != "llama" && m.modelType != "mistral" && m.modelType != "qwen2" && m.modelType != "mixtral")
            warnings.push_back(m.modelType + " simulated as Llama-style decoder layers (RMSNorm, rotary, gated MLP" +
                               std::string(b.gatedMlp ? "" : " of 2/3 the width for its plain MLP") +
                               (b.parallelResidual ? ", sequential instead of parallel residual" : "") +
                               (mla ? ", its latent attention's cache the latent and rotary key" : "") +
                               (b.sharedIntermediate ? ", its shared experts held as weights but not run" : "") +
                               (b.stack != HfStack::Decoder ? ", state-space mixers computed as attention (their cache is the conv and SSM states)" : "") +
                               "); the parameter count above is exact");
        break;
    }
    case HfFamily::Bert:
        s.target = {{}, DType::I64};
        s.layers = {embedding(LayerType::Embedding, m.vocab, m.hidden)};
        if (m.typeVocab > 0) s.layers.push_back(embedding(LayerType::TokenTypeEmbedding, m.typeVocab, m.hidden));
        s.layers.push_back(embedding(LayerType::PositionEmbedding, m.maxPositions, m.hidden));
        s.layers.push_back(make(LayerType::LayerNorm));
        s.layers.push_back(dropout(m.dropout));
        for (std::int64_t i = 0; i < m.layers; ++i) {
            Layer l = encoder(m, m.intermediate, false, false);
            if (m.modelType == "deberta-v2") { // disentangled attention; the encoder returns every hidden state
                l.relativeSpan = m.block.relativePositions / 2;
                l.keepsOutput = true;
            }
            s.layers.push_back(l);
        }
        s.layers.push_back(make(LayerType::SelectToken));
        s.layers.push_back(linear(m.hidden, true));
        s.layers.push_back(make(LayerType::Tanh));
        s.layers.push_back(dropout(m.dropout));
        s.layers.push_back(linear(2, true));
        warnings.push_back("simulated as BertForSequenceClassification with 2 labels (BertModel, its pooler and a 2-class head)");
        break;
    case HfFamily::Vit: {
        if (m.block.stack == HfStack::TextVision) {
            s = textVisionSpec(m, sequence, warnings);
            break;
        }
        s.input = {{m.channels, m.imageSize, m.imageSize}, DType::F32};
        s.target = {{}, DType::I64};
        Layer patches = patchEmbedding(m);
        Layer cls = make(LayerType::ClassToken);
        cls.embeddingDim = m.hidden;
        const std::int64_t side = m.imageSize / m.patchSize;
        s.layers = {patches, make(LayerType::ToSequence), cls, embedding(LayerType::PositionEmbedding, side * side + 1, m.hidden),
                    dropout(m.dropout)};
        for (std::int64_t i = 0; i < m.layers; ++i) s.layers.push_back(encoder(m, m.intermediate, true, false));
        s.layers.push_back(make(LayerType::LayerNorm));
        s.layers.push_back(make(LayerType::SelectToken));
        s.layers.push_back(linear(m.labels > 0 ? m.labels : 1000, true));
        warnings.push_back("a ViT takes " + num(m.channels) + "x" + num(m.imageSize) + "x" + num(m.imageSize) +
                           " images: the sequence length is " + num(side * side + 1) + " patches, not --seq");
        if (!m.qkvBias) warnings.push_back("qkv_bias false: the q, k and v biases are simulated anyway");
        break;
    }
    case HfFamily::T5:
        s.layers = {embedding(LayerType::Embedding, m.vocab, m.hidden)};
        for (std::int64_t i = 0; i < m.layers + m.decoderLayers; ++i)
            s.layers.push_back(encoder(m, m.gatedFeedForward ? m.intermediate * 3 / 2 : m.intermediate, true, false));
        s.layers.push_back(make(LayerType::LayerNorm));
        s.layers.push_back(linear(m.vocab, false, m.tiedEmbeddings));
        // BART adds its final_logits_bias buffer to the logits: a new logits-sized tensor.
        if (m.modelType == "bart") s.layers.push_back(make(LayerType::Scale));
        warnings.push_back(m.modelType + " (encoder-decoder) approximated as one stack of " + num(m.layers) + " + " + num(m.decoderLayers) +
                           " pre-norm layers over the same " + num(sequence) +
                           " tokens: cross-attention, the relative position bias and the decoder's own input length are not simulated"
                           " (the parameter count above is exact)");
        if (m.headDim * m.heads != m.hidden)
            warnings.push_back("d_kv x num_heads differs from d_model: attention simulated at d_model");
        break;
    }
    s.bufferBytes = m.block.bufferBytes;
    return s;
}

ParameterMatch matchParameterCount(const HfModel& m, const ModelSpec& s, std::vector<std::string>& warnings) {
    ParameterMatch match;
    if (m.parameterCount <= 0) return match;
    std::int64_t surplus = simulatedParameterCount(s) - m.parameterCount;
    if (surplus > 0 && m.block.stack == HfStack::StateSpace && m.hidden > 0) {
        // each such layer loses 3 x hidden parameters (gate, up, down) per unit of MLP width
        std::int64_t layers = 0, width = 0;
        for (const Layer& l : s.layers)
            if (l.type == LayerType::LlamaDecoderLayer && l.cacheState) {
                ++layers;
                width = l.dimFeedforward;
            }
        if (layers > 0) {
            const std::int64_t perUnit = 3 * m.hidden, perLayer = (surplus + layers - 1) / layers;
            match.stateSpaceFeedforward = std::max<std::int64_t>(1, width - (perLayer + perUnit - 1) / perUnit);
            surplus -= layers * perUnit * (width - match.stateSpaceFeedforward);
        }
    }
    if (surplus < 0) match.unsimulated = -surplus;
    else match.surplus = surplus;
    if (surplus * 1000 > m.parameterCount) {
        std::ostringstream share;
        share.setf(std::ios::fixed);
        share.precision(1);
        share << 100.0 * static_cast<double>(surplus) / static_cast<double>(m.parameterCount);
        warnings.push_back("the simulated layers hold " + num(surplus) + " parameters more than the checkpoint (+" + share.str() +
                           " %): the weights, gradients and optimizer state are over-counted by that share");
    }
    return match;
}

void applyParameterMatch(const ParameterMatch& match, ModelSpec& s) {
    s.unsimulatedParameters = match.unsimulated;
    if (match.stateSpaceFeedforward > 0)
        for (Layer& l : s.layers)
            if (l.type == LayerType::LlamaDecoderLayer && l.cacheState) l.dimFeedforward = match.stateSpaceFeedforward;
}

} // namespace memviz::costmodel

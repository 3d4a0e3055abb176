// SPDX-License-Identifier: MIT
#include "costmodel/HfFamilies.h"

#include <algorithm>
#include <cmath>
#include <string_view>

#include "costmodel/HfParams.h"

namespace memviz::costmodel::hf {

namespace {

// The shape keys of a decoder; each family spells them its own way (the first present is read).
// At namespace scope, so the lists' arrays live as long as the program.
const std::initializer_list<std::string_view> kHiddenKeys{"hidden_size", "n_embd", "d_model", "dim"};
const std::initializer_list<std::string_view> kLayerKeys{"num_hidden_layers", "n_layer", "num_layers", "n_layers"};
const std::initializer_list<std::string_view> kHeadKeys{"num_attention_heads", "n_head", "num_heads", "n_heads"};
const std::initializer_list<std::string_view> kKvHeadKeys{"num_key_value_heads", "n_head_kv", "num_kv_heads"};
const std::initializer_list<std::string_view> kIntermediateKeys{"intermediate_size", "n_inner", "ffn_dim", "ffn_hidden_size", "hidden_dim"};
const std::initializer_list<std::string_view> kPositionKeys{"max_position_embeddings", "n_positions", "max_seq_len"};

std::string activationOf(const Keys& k, const std::string& fallback) {
    return k.text(k.firstOf({"hidden_activation", "hidden_act", "activation_function", "activation"}), fallback);
}

// The GPT-2-era block: a plain (ungated) MLP with the config's activation, LayerNorm with bias.
void plainMlpLayerNorm(const Keys& k, HfBlock& b, const std::string& activationDefault) {
    b.gatedMlp = false;
    b.activation = activationOf(k, activationDefault);
    b.norm = HfNorm::LayerNorm;
    b.normBias = true;
}

// The BERT / BART block: learned positions, a bias on every projection, a plain GELU MLP,
// LayerNorm with bias; `stack` says encoder-only or encoder-decoder.
void originalTransformerBlock(const Keys& k, HfBlock& b, HfStack stack) {
    b.stack = stack;
    b.positions = HfPositions::Learned;
    b.qkvBias = b.oBias = b.mlpBias = true;
    plainMlpLayerNorm(k, b, "gelu");
}

// The common shape: hidden, layers, heads, key/value heads, head_dim, MLP width, vocabulary,
// positions, tied embeddings. `ffMultiple`: the MLP width when the config leaves it out (4 x hidden).
void readShape(const Keys& k, HfModel& m, bool tiedDefault, std::int64_t ffMultiple = 4) {
    const std::string_view hiddenKey = k.firstOf(kHiddenKeys);
    m.hidden = k.integer(hiddenKey);
    m.layers = k.integerOf(kLayerKeys);
    m.heads = k.integerOf(kHeadKeys);
    m.kvHeads = k.integerOf(kKvHeadKeys, m.heads);
    m.intermediate = k.integerOf(kIntermediateKeys, Count{k}.mul(ffMultiple, m.hidden, hiddenKey));
    m.vocab = k.integer("vocab_size");
    m.maxPositions = k.integerOf(kPositionKeys, 0, 0);
    m.tiedEmbeddings = k.boolean("tie_word_embeddings", tiedDefault);
    m.dropout = k.probability("attention_dropout", 0.0);
    requireDivides(k, k.firstOf(kKvHeadKeys), m.kvHeads, k.firstOf(kHeadKeys), m.heads);
    if (!k.has("head_dim")) requireDivides(k, k.firstOf(kHeadKeys), m.heads, hiddenKey, m.hidden);
    m.headDim = k.integer("head_dim", m.hidden / m.heads);
    // The largest matrices, checked one by one so the error names the key that makes them absurd.
    const Count c{k};
    c.mul(m.vocab, m.hidden, "vocab_size");
    c.mul(c.mul(m.heads, m.headDim, "head_dim"), m.hidden, hiddenKey);
    c.mul(m.intermediate, m.hidden, k.firstOf(kIntermediateKeys));
    m.block.attention = m.kvHeads == m.heads ? HfAttention::Mha : m.kvHeads == 1 ? HfAttention::Mqa : HfAttention::Gqa;
}

void setKvHeads(HfModel& m, std::int64_t kv) {
    m.kvHeads = kv;
    m.block.attention = kv == m.heads ? HfAttention::Mha : kv == 1 ? HfAttention::Mqa : HfAttention::Gqa;
}

// The head the first `architectures` name asks for.
void readHead(const Keys& k, HfModel& m) {
    const std::string& a = m.architecture;
    const auto ends = [&](std::string_view tail) { return a.size() >= tail.size() && a.compare(a.size() - tail.size(), tail.size(), tail) == 0; };
    if (ends("ForSequenceClassification") || ends("RewardModel") || ends("ForRewardModel")) {
        m.block.head = HfHead::SequenceClassification;
        const std::int64_t labels = k.objectSize("id2label");
        m.block.labels = labels > 0 ? labels : k.integer("num_labels", ends("ForSequenceClassification") ? 2 : 1);
    } else if (ends("ForQuestionAnswering")) {
        m.block.head = HfHead::QuestionAnswering;
    } else if (ends("Model") && !ends("LMHeadModel") && !ends("RewardModel")) {
        m.block.head = HfHead::None;
    }
}

// Llama and the families built like it: RoPE, RMSNorm, pre-norm, SwiGLU, attention_bias and mlp_bias.
void llamaLike(const Keys& k, HfModel& m, bool tiedDefault = false) {
    readShape(k, m, tiedDefault);
    HfBlock& b = m.block;
    b.qkvBias = b.oBias = k.boolean("attention_bias", false);
    b.mlpBias = k.boolean("mlp_bias", false);
    b.activation = activationOf(k, "silu");
    b.slidingWindow = k.integer("sliding_window", 0, 0);
}

void readExperts(const Keys& k, HfModel& m, std::string_view expertsKey, std::int64_t topKDefault) {
    HfBlock& b = m.block;
    b.experts = k.integer(expertsKey);
    b.expertsPerToken = k.integer("num_experts_per_tok", topKDefault);
    if (b.expertsPerToken > b.experts)
        k.fail("num_experts_per_tok", std::to_string(b.expertsPerToken) + " is more than " + std::string(expertsKey) + " " +
                                          std::to_string(b.experts));
    if (b.experts > 4096) k.fail(expertsKey, std::to_string(b.experts) + " experts is absurd (more than 4096)");
    b.moeIntermediate = k.integer("moe_intermediate_size", m.intermediate);
}

void qwenSparseStep(const Keys& k, HfModel& m) {
    m.block.moeEvery = k.integer("decoder_sparse_step", 1);
    m.block.moeOffset = m.block.moeEvery - 1; // (layer + 1) % step == 0
    if (const auto only = k.find("mlp_only_layers")) {
        dom::array list;
        if (only->get_array().get(list)) k.fail("mlp_only_layers", "must be a list of layer numbers");
        if (list.size() > 0) m.warnings.push_back("mlp_only_layers is not modelled: every sparse-step layer is counted with experts");
    }
}

void gemmaLike(const Keys& k, HfModel& m) {
    llamaLike(k, m, true);
    m.block.activation = activationOf(k, "gelu_pytorch_tanh");
}

void falconLike(const Keys& k, HfModel& m, bool newArchitecture) {
    readShape(k, m, true);
    HfBlock& b = m.block;
    newArchitecture = k.boolean("new_decoder_architecture", newArchitecture);
    if (newArchitecture) setKvHeads(m, k.integerOf({"num_kv_heads", "n_head_kv"}, m.heads));
    else setKvHeads(m, k.boolean("multi_query", true) ? 1 : m.heads);
    b.fusedQkv = true;
    b.qkvBias = b.oBias = b.mlpBias = k.boolean("bias", false);
    b.gatedMlp = false;
    b.activation = "gelu";
    b.norm = HfNorm::LayerNorm;
    b.normBias = true;
    b.parallelResidual = k.boolean("parallel_attn", true);
    b.normsPerLayer = !b.parallelResidual ? 2 : newArchitecture ? static_cast<int>(k.integer("num_ln_in_parallel_attn", 2)) : 1;
    b.positions = k.boolean("alibi", false) ? HfPositions::Alibi : HfPositions::Rotary;
}

// GPT-2 and GPT-BigCode: learned positions, fused qkv, biases everywhere, LayerNorm, GELU.
void gpt2Like(const Keys& k, HfModel& m) {
    readShape(k, m, true);
    if (!k.has("n_positions")) m.maxPositions = k.integer("n_ctx", 1024);
    m.dropout = k.probability("resid_pdrop", 0.1);
    HfBlock& b = m.block;
    b.fusedQkv = b.qkvBias = b.oBias = b.mlpBias = true;
    plainMlpLayerNorm(k, b, "gelu_new");
    b.positions = HfPositions::Learned;
}

void deepseek(const Keys& k, HfModel& m, bool v3) {
    llamaLike(k, m);
    HfBlock& b = m.block;
    b.attention = HfAttention::Mla;
    b.qLoraRank = k.integer("q_lora_rank", 0, 0);
    b.kvLoraRank = k.integer("kv_lora_rank");
    b.qkRopeDim = k.integer("qk_rope_head_dim");
    b.qkNopeDim = k.integer("qk_nope_head_dim");
    b.vHeadDim = k.integer("v_head_dim");
    m.headDim = b.qkNopeDim + b.qkRopeDim;
    readExperts(k, m, "n_routed_experts", v3 ? 8 : 6);
    b.sharedIntermediate = Count{k}.mul(k.integer("n_shared_experts", 0, 0), b.moeIntermediate, "n_shared_experts");
    b.firstDense = k.integer("first_k_dense_replace", 0, 0);
    b.moeEvery = k.integer("moe_layer_freq", 1);
    // V3's router has an e_score_correction_bias per expert: an F32 tensor of the checkpoint that
    // transformers holds as a buffer, so not a parameter here (58 x 256 elements for V3).
    b.routerBias = false;
    m.mtpLayers = k.integer("num_nextn_predict_layers", 0, 0);
    if (m.mtpLayers > 0)
        m.warnings.push_back("the multi-token-prediction layers (num_nextn_predict_layers " + std::to_string(m.mtpLayers) +
                             ") are not counted, as transformers does not load them (vLLM and SGLang do, for speculative"
                             " decoding: --with-mtp counts them)");
}

void mambaMixer(const Keys& k, HfModel& m, bool jamba) {
    HfBlock& b = m.block;
    const char* state = jamba ? "mamba_d_state" : "state_size";
    const char* conv = jamba ? "mamba_d_conv" : "conv_kernel";
    const char* expand = jamba ? "mamba_expand" : "expand";
    const char* rank = jamba ? "mamba_dt_rank" : "time_step_rank";
    b.ssmState = k.integer(state, 16);
    b.ssmConv = k.integer(conv, 4);
    b.ssmInner = Count{k}.mul(k.integer(expand, 2), m.hidden, expand);
    if (!jamba && k.has("intermediate_size")) b.ssmInner = k.integer("intermediate_size");
    const auto r = k.find(rank);
    std::string_view text;
    b.ssmDtRank = r && !r->get_string().get(text) && text == "auto" ? (m.hidden + 15) / 16 : k.integer(rank, (m.hidden + 15) / 16);
    b.ssmConvBias = k.boolean(jamba ? "mamba_conv_bias" : "use_conv_bias", true);
    b.ssmProjBias = k.boolean(jamba ? "mamba_proj_bias" : "use_bias", false);
    b.ssmInnerNorms = jamba;
}

// BERT-shaped encoders: token, position and token-type embeddings with a LayerNorm, post-norm
// layers, a pooler for the base model.
void bertLike(const Keys& k, HfModel& m, std::int64_t positionsDefault, std::int64_t typesDefault) {
    readShape(k, m, true);
    m.maxPositions = k.integer("max_position_embeddings", positionsDefault);
    m.typeVocab = k.integer("type_vocab_size", typesDefault, 0);
    m.dropout = k.probability("hidden_dropout_prob", 0.1);
    HfBlock& b = m.block;
    originalTransformerBlock(k, b, HfStack::Encoder);
    b.head = HfHead::Pooler;
    m.family = HfFamily::Bert;
}

void bartLike(const Keys& k, HfModel& m, bool whisper) {
    m.hidden = k.integer("d_model");
    m.layers = k.integer("encoder_layers");
    m.decoderLayers = k.integer("decoder_layers");
    m.heads = k.integer("encoder_attention_heads");
    const std::int64_t decoderHeads = k.integer("decoder_attention_heads", m.heads);
    if (decoderHeads != m.heads) m.warnings.push_back("the decoder's heads are simulated as the encoder's");
    m.kvHeads = m.heads;
    requireDivides(k, "encoder_attention_heads", m.heads, "d_model", m.hidden);
    m.headDim = m.hidden / m.heads;
    m.intermediate = k.integer("encoder_ffn_dim");
    if (k.integer("decoder_ffn_dim", m.intermediate) != m.intermediate) k.fail("decoder_ffn_dim", "differs from encoder_ffn_dim: not supported");
    m.vocab = k.integer("vocab_size");
    m.tiedEmbeddings = k.boolean("tie_word_embeddings", true);
    m.dropout = k.probability("dropout", 0.1);
    HfBlock& b = m.block;
    originalTransformerBlock(k, b, HfStack::EncoderDecoder);
    if (whisper) {
        b.kProjBias = false;
        b.melBins = k.integer("num_mel_bins", 80);
        b.sourcePositions = k.integer("max_source_positions", 1500);
        m.maxPositions = k.integer("max_target_positions", 448);
        b.finalNorm = true;
    } else {
        m.maxPositions = k.integer("max_position_embeddings", 1024);
        b.positionOffset = 2;
        b.embeddingNorm = true;
        b.finalNorm = k.boolean("add_final_layer_norm", false);
    }
    m.family = HfFamily::T5;
}

// CLIP and SigLIP: a text tower and a vision tower (ViT-shaped), with their projections.
void textVision(const Keys& k, HfModel& m, bool siglip) {
    const auto text = k.object("text_config");
    const auto vision = k.object("vision_config");
    if (!text) k.fail("text_config", "missing");
    if (!vision) k.fail("vision_config", "missing");
    const Big th = Big(text->integer("hidden_size", siglip ? 768 : 512)), ti = Big(text->integer("intermediate_size", siglip ? 3072 : 2048));
    const Big tl = Big(text->integer("num_hidden_layers", 12)), tv = Big(text->integer("vocab_size", siglip ? 32000 : 49408));
    const Big tp = Big(text->integer("max_position_embeddings", siglip ? 64 : 77));
    m.hidden = vision->integer("hidden_size", 768);
    m.intermediate = vision->integer("intermediate_size", 3072);
    m.layers = vision->integer("num_hidden_layers", 12);
    m.heads = vision->integer("num_attention_heads", 12);
    requireDivides(*vision, "num_attention_heads", m.heads, "hidden_size", m.hidden);
    m.kvHeads = m.heads;
    m.headDim = m.hidden / m.heads;
    m.imageSize = vision->integer("image_size", 224);
    m.patchSize = vision->integer("patch_size", siglip ? 16 : 32);
    m.channels = vision->integer("num_channels", 3);
    requireDivides(*vision, "patch_size", m.patchSize, "image_size", m.imageSize);
    m.vocab = Count{k}.add(static_cast<std::int64_t>(tv), 0, "text_config");
    const Big vh = Big(m.hidden), vi = Big(m.intermediate), side = Big(m.imageSize / m.patchSize);
    const Big patches = side * side, channels = Big(m.channels), p = Big(m.patchSize);
    Big textTower = tv * th + tp * th + tl * encoderLayer(th, ti) + 2 * th;
    Big visionTower = channels * p * p * vh + Big(m.layers) * encoderLayer(vh, vi) + 2 * vh;
    Big total = 0;
    if (siglip) {
        textTower += th * th + th;                                                // text head
        visionTower += vh + patches * vh;                                         // patch bias, positions
        visionTower += vh + 4 * vh * vh + 4 * vh + 2 * vh + 2 * vh * vi + vi + vh; // attention-pooling head
        total = textTower + visionTower + 2;                                      // logit_scale, logit_bias
    } else {
        const Big projection = Big(k.integer("projection_dim", 512));
        visionTower += vh + (patches + 1) * vh + 2 * vh; // class token, positions, pre-norm
        total = textTower + visionTower + projection * (th + vh) + 1; // projections, logit_scale
    }
    m.maxPositions = static_cast<std::int64_t>(tp);
    m.textHidden = static_cast<std::int64_t>(th);
    m.textIntermediate = static_cast<std::int64_t>(ti);
    m.textLayers = static_cast<std::int64_t>(tl);
    m.textHeads = text->integer("num_attention_heads", siglip ? 12 : 8);
    requireDivides(*text, "num_attention_heads", m.textHeads, "hidden_size", m.textHidden);
    m.projection = siglip ? 0 : k.integer("projection_dim", 512);
    if (siglip && m.textHidden != m.hidden) k.fail("text_config.hidden_size", "differs from vision_config.hidden_size: SigLIP's logits need one width");
    m.block.stack = HfStack::TextVision;
    m.block.head = HfHead::None;
    m.parameterCount = checkedTotal(k, total, "vision_config");
    m.largestLayerParameters = checkedTotal(k, std::max(encoderLayer(vh, vi), encoderLayer(th, ti)), "vision_config");
    m.family = HfFamily::Vit;
    m.labels = 0;
    m.qkvBias = true;
}

using Reader = void (*)(const Keys&, HfModel&);
struct FamilyRow {
    const char* modelType;
    Reader read;
};

// One row per model_type: the keys it is read from, their defaults and the knobs that apply.
const FamilyRow kFamilies[] = {
    {"llama", [](const Keys& k, HfModel& m) { llamaLike(k, m); }},
    {"mistral", [](const Keys& k, HfModel& m) { llamaLike(k, m); }},
    {"granite",
     [](const Keys& k, HfModel& m) {
         llamaLike(k, m);
         m.block.logitScale = true; // logits / logits_scaling
     }},
    {"mixtral",
     [](const Keys& k, HfModel& m) {
         llamaLike(k, m);
         m.block.mlpBias = false;
         readExperts(k, m, "num_local_experts", 2);
     }},
    {"granitemoe",
     [](const Keys& k, HfModel& m) {
         llamaLike(k, m);
         readExperts(k, m, "num_local_experts", 2);
         m.block.expertLora = ExpertLora::None;
         m.block.logitScale = true; // logits / logits_scaling
     }},
    {"qwen2",
     [](const Keys& k, HfModel& m) {
         llamaLike(k, m);
         m.block.qkvBias = true;
         m.block.oBias = false;
         if (!k.boolean("use_sliding_window", false)) m.block.slidingWindow = 0;
     }},
    {"qwen2_moe",
     [](const Keys& k, HfModel& m) {
         llamaLike(k, m);
         m.block.qkvBias = true;
         m.block.oBias = false;
         readExperts(k, m, "num_experts", 4);
         m.block.expertLora = ExpertLora::None;
         m.block.sharedIntermediate = k.integer("shared_expert_intermediate_size", 0, 0);
         m.block.sharedExpertGate = m.block.sharedIntermediate > 0;
         qwenSparseStep(k, m);
     }},
    {"qwen3",
     [](const Keys& k, HfModel& m) {
         llamaLike(k, m, true);
         m.block.qkNorm = HfQkNorm::PerHead;
     }},
    {"qwen3_moe",
     [](const Keys& k, HfModel& m) {
         llamaLike(k, m);
         m.block.qkNorm = HfQkNorm::PerHead;
         readExperts(k, m, "num_experts", 8);
         qwenSparseStep(k, m);
     }},
    {"gemma", [](const Keys& k, HfModel& m) { gemmaLike(k, m); }},
    {"gemma2",
     [](const Keys& k, HfModel& m) {
         gemmaLike(k, m);
         m.block.normsPerLayer = 4;
         m.block.globalEvery = 2;
         m.block.logitSoftcap = k.real("final_logit_softcapping", 30.0, 0, 1e9) > 0;
     }},
    {"gemma3_text",
     [](const Keys& k, HfModel& m) {
         gemmaLike(k, m);
         m.block.normsPerLayer = 4;
         m.block.qkNorm = HfQkNorm::PerHead;
         m.block.globalEvery = k.integer("sliding_window_pattern", 6);
     }},
    {"olmo2",
     [](const Keys& k, HfModel& m) {
         llamaLike(k, m);
         m.block.qkNorm = HfQkNorm::Full;
     }},
    {"cohere",
     [](const Keys& k, HfModel& m) {
         llamaLike(k, m, true);
         m.block.norm = HfNorm::LayerNorm;
         m.block.normsPerLayer = 1;
         m.block.parallelResidual = true;
         if (k.boolean("use_qk_norm", false)) m.block.qkNorm = HfQkNorm::Full;
         m.block.logitScale = true; // logits * logit_scale
     }},
    {"stablelm",
     [](const Keys& k, HfModel& m) {
         llamaLike(k, m);
         HfBlock& b = m.block;
         b.qkvBias = k.boolean("use_qkv_bias", false);
         b.oBias = false;
         b.norm = HfNorm::LayerNorm;
         b.normBias = true;
         b.rotaryFraction = k.real("partial_rotary_factor", 0.25, 0, 1);
         b.parallelResidual = k.boolean("use_parallel_residual", false);
         b.normsPerLayer = b.parallelResidual ? 1 : 2;
         if (k.boolean("qk_layernorm", false)) b.qkNorm = HfQkNorm::Full; // per-head LayerNorms without bias
         if (b.qkNorm == HfQkNorm::Full) m.warnings.push_back("qk_layernorm: counted without biases");
     }},
    {"phi",
     [](const Keys& k, HfModel& m) {
         readShape(k, m, false);
         HfBlock& b = m.block;
         b.qkvBias = b.oBias = b.mlpBias = b.lmHeadBias = true;
         plainMlpLayerNorm(k, b, "gelu_new");
         b.normsPerLayer = 1;
         b.parallelResidual = true;
         b.rotaryFraction = k.real("partial_rotary_factor", 0.5, 0, 1);
         if (k.boolean("qk_layernorm", false)) b.qkNorm = HfQkNorm::PerHead;
     }},
    {"phi3",
     [](const Keys& k, HfModel& m) {
         llamaLike(k, m);
         m.block.fusedQkv = true;
         m.block.rotaryFraction = k.real("partial_rotary_factor", 1.0, 0, 1);
     }},
    {"falcon", [](const Keys& k, HfModel& m) { falconLike(k, m, false); }},
    {"RefinedWeb", [](const Keys& k, HfModel& m) { falconLike(k, m, true); }},
    {"RefinedWebModel", [](const Keys& k, HfModel& m) { falconLike(k, m, false); }},
    {"gpt_neox",
     [](const Keys& k, HfModel& m) {
         readShape(k, m, false);
         HfBlock& b = m.block;
         b.fusedQkv = true;
         b.qkvBias = b.oBias = k.boolean("attention_bias", true);
         b.mlpBias = true;
         plainMlpLayerNorm(k, b, "gelu");
         b.parallelResidual = k.boolean("use_parallel_residual", true);
         b.rotaryFraction = k.real(k.firstOf({"rotary_pct", "partial_rotary_factor"}), 0.25, 0, 1);
     }},
    {"gptj",
     [](const Keys& k, HfModel& m) {
         readShape(k, m, false);
         HfBlock& b = m.block;
         b.mlpBias = b.lmHeadBias = true;
         plainMlpLayerNorm(k, b, "gelu_new");
         b.normsPerLayer = 1;
         b.parallelResidual = true;
         b.rotaryFraction = static_cast<double>(k.integer("rotary_dim", m.headDim)) / static_cast<double>(m.headDim);
         if (b.rotaryFraction > 1) k.fail("rotary_dim", "is wider than a head");
     }},
    {"gpt2",
     [](const Keys& k, HfModel& m) {
         gpt2Like(k, m);
         m.family = HfFamily::Gpt2;
     }},
    {"gpt_bigcode",
     [](const Keys& k, HfModel& m) {
         gpt2Like(k, m);
         if (k.boolean("multi_query", true)) setKvHeads(m, 1);
         m.block.activation = activationOf(k, "gelu_pytorch_tanh");
         // GPTBigCodeModel registers torch.tril(torch.ones(n_positions, n_positions, dtype=bool))
         m.block.bufferBytes = Count{k}.mul(m.maxPositions, m.maxPositions, "n_positions");
     }},
    {"starcoder2",
     [](const Keys& k, HfModel& m) {
         readShape(k, m, true);
         HfBlock& b = m.block;
         b.qkvBias = b.oBias = b.mlpBias = k.boolean("use_bias", true);
         plainMlpLayerNorm(k, b, "gelu_pytorch_tanh");
         b.slidingWindow = k.integer("sliding_window", 0, 0);
     }},
    {"opt",
     [](const Keys& k, HfModel& m) {
         readShape(k, m, true);
         HfBlock& b = m.block;
         b.qkvBias = b.oBias = b.mlpBias = k.boolean("enable_bias", true);
         b.gatedMlp = false;
         b.activation = activationOf(k, "relu");
         b.norm = HfNorm::LayerNorm;
         b.normBias = k.boolean("layer_norm_elementwise_affine", true);
         b.positions = HfPositions::Learned;
         b.positionOffset = 2;
         b.finalNorm = k.boolean("do_layer_norm_before", true);
         const std::int64_t proj = k.integer("word_embed_proj_dim", m.hidden);
         b.embedProjection = proj != m.hidden ? proj : 0;
     }},
    {"bloom",
     [](const Keys& k, HfModel& m) {
         readShape(k, m, true);
         HfBlock& b = m.block;
         b.fusedQkv = b.qkvBias = b.oBias = b.mlpBias = true;
         b.gatedMlp = false;
         b.activation = "gelu";
         b.norm = HfNorm::LayerNorm;
         b.normBias = true;
         b.embeddingNorm = true;
         b.positions = HfPositions::Alibi;
     }},
    {"deepseek_v2", [](const Keys& k, HfModel& m) { deepseek(k, m, false); }},
    {"deepseek_v3", [](const Keys& k, HfModel& m) { deepseek(k, m, true); }},
    {"mamba",
     [](const Keys& k, HfModel& m) {
         m.hidden = k.integer("hidden_size");
         m.layers = k.integer("num_hidden_layers");
         m.vocab = k.integer("vocab_size");
         m.tiedEmbeddings = k.boolean("tie_word_embeddings", true);
         m.heads = m.kvHeads = 1;
         m.headDim = m.hidden;
         m.block.stack = HfStack::StateSpace;
         m.block.positions = HfPositions::None;
         m.block.normsPerLayer = 1;
         mambaMixer(k, m, false);
         m.intermediate = m.block.ssmInner;
     }},
    {"jamba",
     [](const Keys& k, HfModel& m) {
         llamaLike(k, m);
         HfBlock& b = m.block;
         b.stack = HfStack::Hybrid;
         b.positions = HfPositions::None;
         readExperts(k, m, "num_experts", 2);
         b.expertLora = ExpertLora::None;
         b.moeEvery = k.integer("expert_layer_period", 2);
         b.moeOffset = k.integer("expert_layer_offset", 1, 0);
         b.attnEvery = k.integer("attn_layer_period", 8);
         b.attnOffset = k.integer("attn_layer_offset", 4, 0);
         mambaMixer(k, m, true);
     }},
    {"roberta", [](const Keys& k, HfModel& m) { bertLike(k, m, 514, 1); }},
    {"xlm-roberta", [](const Keys& k, HfModel& m) { bertLike(k, m, 514, 1); }},
    {"distilbert",
     [](const Keys& k, HfModel& m) {
         bertLike(k, m, 512, 0);
         m.block.head = HfHead::None;
         if (k.boolean("sinusoidal_pos_embds", false)) m.warnings.push_back("sinusoidal_pos_embds: the positions are counted as learned");
     }},
    {"deberta-v2",
     [](const Keys& k, HfModel& m) {
         bertLike(k, m, 512, 0);
         HfBlock& b = m.block;
         b.head = HfHead::None;
         if (!k.boolean("position_biased_input", true)) b.positions = HfPositions::Relative;
         if (k.boolean("relative_attention", false)) {
             const std::int64_t buckets = k.integer("position_buckets", 0, 0);
             const auto maxRelative = k.find("max_relative_positions");
             std::int64_t span = maxRelative ? 0 : m.maxPositions;
             std::int64_t v = 0;
             if (maxRelative && !maxRelative->get_int64().get(v)) span = v < 1 ? m.maxPositions : v;
             b.relativePositions = 2 * (buckets > 0 ? buckets : span);
         }
         if (!k.boolean("share_att_key", false) || k.integer("embedding_size", m.hidden) != m.hidden || k.integer("conv_kernel_size", 0, 0))
             m.warnings.push_back("deberta-v2: share_att_key off, embedding_size or conv_kernel_size are not modelled in the count");
     }},
    {"bart", [](const Keys& k, HfModel& m) { bartLike(k, m, false); }},
    {"whisper", [](const Keys& k, HfModel& m) { bartLike(k, m, true); }},
    {"clip", [](const Keys& k, HfModel& m) { textVision(k, m, false); }},
    {"siglip", [](const Keys& k, HfModel& m) { textVision(k, m, true); }},
};

} // namespace

bool readWithTable(const Keys& k, HfModel& m) {
    const auto row = std::find_if(std::begin(kFamilies), std::end(kFamilies), [&](const FamilyRow& r) { return m.modelType == r.modelType; });
    if (row == std::end(kFamilies)) return false;
    if (m.block.stack == HfStack::Decoder) readHead(k, m);
    row->read(k, m);
    const HfBlock& b = m.block;
    if (b.stack == HfStack::Decoder || b.stack == HfStack::Hybrid || b.stack == HfStack::StateSpace) {
        if (m.family != HfFamily::Gpt2) m.family = b.experts ? HfFamily::Mixtral : HfFamily::Llama;
        m.qkvBias = b.qkvBias;
        m.oBias = b.oBias;
        m.mlpBias = b.mlpBias;
        m.experts = b.experts;
        m.expertsPerToken = b.expertsPerToken;
    }
    if (b.stack != HfStack::TextVision) countParameters(k, m);
    return true;
}

void readGenericDecoder(const Keys& k, HfModel& m) {
    for (const auto* keys : {&kHiddenKeys, &kLayerKeys, &kHeadKeys})
        if (!k.has(k.firstOf(*keys)))
            k.fail("model_type", "'" + m.modelType + "' is not a known family and the config lacks '" + std::string(*keys->begin()) +
                                     "' (or its other spellings), so it cannot be read as a generic decoder either");
    readHead(k, m);
    llamaLike(k, m, false);
    const bool gated = !k.has("n_inner") && !k.has("ffn_dim");
    m.block.gatedMlp = gated;
    m.generic = true;
    m.family = HfFamily::Llama;
    countParameters(k, m);
    m.warnings.push_back("model_type '" + m.modelType +
                         "' has no table: read as a generic decoder (pre-norm RMSNorm layers, rotary positions, " +
                         (gated ? "gated SiLU MLP" : "plain MLP") + ", no biases unless attention_bias/mlp_bias, " +
                         (m.tiedEmbeddings ? "tied" : "untied") + " embeddings); the parameter count may differ from the checkpoint's");
}

std::vector<std::string> tableModelTypes() {
    std::vector<std::string> types;
    for (const FamilyRow& r : kFamilies) types.emplace_back(r.modelType);
    std::sort(types.begin(), types.end());
    return types;
}

} // namespace memviz::costmodel::hf

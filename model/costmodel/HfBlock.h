// SPDX-License-Identifier: MIT
#pragma once
// One description of a transformer (or state-space) stack, with the knobs real model families
// differ in: how attention is shaped (MHA, GQA, MQA, DeepSeek's latent MLA), where biases and
// norms are, parallel residuals, positions, gated or plain MLPs, mixture of experts, sliding
// windows, state-space layers, the head. HfFamilies.cpp fills it from a config.json with one
// table row per model_type; HfParams.cpp counts its parameters; HfConfig.cpp builds the spec.
// docs/costmodel.md ("Families").
#include <cstdint>
#include <string>

#include "costmodel/ModelSpec.h"

namespace memviz::costmodel {

enum class HfStack { Decoder, Encoder, EncoderDecoder, Vision, TextVision, StateSpace, Hybrid };
enum class HfAttention { Mha, Gqa, Mqa, Mla };
enum class HfPositions { Learned, Rotary, Alibi, Relative, None };
enum class HfNorm { LayerNorm, RmsNorm };
enum class HfQkNorm { None, PerHead, Full }; // PerHead: one head_dim weight for all heads; Full: per head
enum class HfHead { None, CausalLm, SequenceClassification, QuestionAnswering, Pooler };


struct HfBlock {
    HfStack stack = HfStack::Decoder;
    HfAttention attention = HfAttention::Mha;
    bool fusedQkv = false;
    bool qkvBias = false, oBias = false, mlpBias = false;
    bool parallelResidual = false;
    HfPositions positions = HfPositions::Rotary;
    double rotaryFraction = 1.0;        // partial rotary: rotary_pct / partial_rotary_factor
    std::int64_t positionOffset = 0;    // learned positions kept beyond max_position_embeddings (OPT, BART: 2)
    HfNorm norm = HfNorm::RmsNorm;
    bool normBias = false;              // LayerNorm with a bias
    int normsPerLayer = 2;              // 1: parallel blocks sharing one; 4: Gemma 2/3's pre and post norms
    HfQkNorm qkNorm = HfQkNorm::None;
    bool embeddingNorm = false;         // BLOOM's word_embeddings_layernorm
    bool finalNorm = true;
    bool gatedMlp = true;               // gate and up (SwiGLU, GeGLU) or one up projection
    std::string activation = "silu";
    // Mixture of experts (0 experts: dense)
    std::int64_t experts = 0, expertsPerToken = 0, moeIntermediate = 0;
    std::int64_t sharedIntermediate = 0; // the shared experts' width all together
    bool sharedExpertGate = false;       // Qwen2-MoE's sigmoid gate on the shared expert
    bool routerBias = false;             // DeepSeek-V3's e_score_correction_bias
    ExpertLora expertLora = ExpertLora::Merged; // what peft 0.21's target_modules="all-linear" does on transformers 5
    std::int64_t firstDense = 0;         // first_k_dense_replace
    std::int64_t moeEvery = 1, moeOffset = 0; // MoE where (layer - moeOffset) % moeEvery == 0
    // DeepSeek's multi-head latent attention
    std::int64_t qLoraRank = 0, kvLoraRank = 0, qkRopeDim = 0, qkNopeDim = 0, vHeadDim = 0;
    // Sliding window: every layer (Mistral) or all but every `globalEvery`-th (Gemma 2: 2, Gemma 3: 6)
    std::int64_t slidingWindow = 0, globalEvery = 0;
    // State-space (Mamba) layers; Jamba puts attention where (layer - attnOffset) % attnEvery == 0
    std::int64_t ssmState = 0, ssmConv = 0, ssmInner = 0, ssmDtRank = 0;
    bool ssmConvBias = true, ssmProjBias = false, ssmInnerNorms = false;
    std::int64_t attnEvery = 0, attnOffset = 0;
    // Embeddings and head
    bool lmHeadBias = false;
    std::int64_t embedProjection = 0; // OPT's word_embed_proj_dim when it differs from hidden_size
    HfHead head = HfHead::CausalLm;
    bool logitScale = false;          // logits times a number (Granite's / logits_scaling, Cohere's * logit_scale)
    bool logitSoftcap = false;        // Gemma 2's final_logit_softcapping: logits / cap, tanh, * cap
    std::int64_t bufferBytes = 0;     // registered buffers beyond the weights: GPTBigCode's [n_positions]^2 bool causal mask
    std::int64_t labels = 0; // sequence classification
    // Encoders and encoder-decoders
    std::int64_t relativePositions = 0;       // DeBERTa's rel_embeddings rows
    bool kProjBias = true;                    // Whisper's k_proj has none
    std::int64_t melBins = 0, sourcePositions = 0; // Whisper's conv front and encoder positions
};

} // namespace memviz::costmodel

// SPDX-License-Identifier: MIT
#pragma once
// A model description: a sequential list of layers with PyTorch's semantics (the JSON model
// spec, docs/costmodel.md; bench/costmodel/spec_to_torch.py builds the same torch.nn model).
#include <array>
#include <cstdint>
#include <stdexcept>
#include <string>
#include <vector>

#include "costmodel/Types.h"

namespace memviz::costmodel {

// A spec that cannot be read or built; the message names the field or layer ("layers[3]: ...").
class SpecError : public std::runtime_error {
public:
    using std::runtime_error::runtime_error;
};

enum class LayerType {
    Linear,
    Conv2d,
    BatchNorm2d,
    LayerNorm,
    ReLU,
    GELU,
    Sigmoid,
    Tanh,
    Dropout,
    MaxPool2d,
    AvgPool2d,
    AdaptiveAvgPool2d,
    Flatten,
    Embedding,
    TransformerEncoderLayer,
    Residual,
    // memviz extensions for the presets (also built by spec_to_torch.py):
    PositionEmbedding,  // x + weight[:S] (learned absolute positions)
    TokenTypeEmbedding, // x + weight[0] (BERT's token types, all zero)
    ClassToken,         // prepend a learned token: [S, E] -> [S+1, E]
    ToSequence,         // [C, H, W] -> [H*W, C] (ViT patches)
    SelectToken,        // [S, E] -> [E] (token `index`)
    RMSNorm,            // Llama's RMSNorm over the last dim
    LlamaDecoderLayer,  // pre-norm, RoPE attention, SwiGLU MLP; GQA/MQA; optional MoE, biases and head_dim
    Gpt2Block,          // Hugging Face GPT2Block (eager): pre-LayerNorm, fused qkv, causal softmax, gelu MLP
    // Not in JSON specs (built from CLIP/SigLIP configs): [E] -> [E], runs `layers` on a second input
    // of `tokens` token ids (the text tower) and joins its [E] embedding with x (the image's).
    TextTower,
    // Not in JSON specs: x times a Python number (Granite's logits / logits_scaling), nothing saved
    Scale,
};

const char* layerTypeName(LayerType t); // the JSON "type" string
// Attention or MLP block of a transformer (what LoRA, checkpointing per layer and the KV cache act on).
bool isTransformerBlock(LayerType t);

struct Pair {
    std::int64_t h = 0, w = 0;
};

// How LoRA adapts a MoE layer's experts: an adapter per expert linear (transformers 4's nn.Linear
// experts); peft's parametrized W + B·A, made once per forward and kept for the backward (peft 0.21's
// ParamWrapper on transformers 5's stacked experts); or not at all.
enum class ExpertLora { Linear, Merged, None };

struct Layer {
    LayerType type = LayerType::ReLU;
    // linear / conv2d / embedding / transformer layers
    std::int64_t outFeatures = 0;
    std::int64_t outChannels = 0;
    std::int64_t groups = 1;
    bool bias = true;
    bool tied = false; // linear: weight shared with the first embedding (GPT-2's lm_head)
    Pair kernel, stride, padding, outputSize;
    bool strideSet = false; // pools: stride defaults to the kernel size
    double p = 0.5;         // dropout probability (dropout layer, or the transformer's `dropout`)
    std::int64_t numEmbeddings = 0, embeddingDim = 0;
    std::int64_t dModel = 0, nhead = 0, dimFeedforward = 2048;
    std::int64_t numKvHeads = 0;      // llama: key/value heads (GQA/MQA); 0 = nhead
    std::int64_t numExperts = 0;      // llama: MoE experts (Mixtral: router + top-k SwiGLU experts); 0 = dense MLP
    std::int64_t expertsPerToken = 0; // llama MoE: top-k (0 with experts = 2)
    std::int64_t headDim = 0;         // llama: per-head width (Qwen2, Mistral-Nemo, Gemma); 0 = d_model / nhead
    bool qkvBias = false;             // llama: q, k, v projections with bias (Qwen2; Llama's attention_bias)
    bool oBias = false;               // llama: o_proj with bias (Llama's attention_bias)
    bool mlpBias = false;             // llama: gate/up/down projections with bias (Llama's mlp_bias)
    // llama, written by hand instead of transformers' modules (course code such as CS336's):
    // scores = q @ k^T / sqrt(d), torch.where(causal, scores, -inf), softmax as exp(x - max) / sum,
    // probs @ v (v copied contiguous) ...
    bool manualAttention = false;
    bool manualSilu = false; // ... and SiLU as x * sigmoid(x)
    // ... with the causal mask built per layer (triu(ones(S, T)).to(bool), ~), expanded to
    // [B, H, S, T] and compared (mask == False) before masked_fill: a full-size bool that
    // masked_fill keeps for the backward, where torch.where keeps the S x T mask
    bool expandedMask = false;
    // llama: RoPE on the two halves of each pair (CS336's): x1 * cos - x2 * sin and
    // x1 * sin + x2 * cos from four half-size products, joined by concat or an interleaving
    // rearrange (one full-size copy: a contiguous q and k),
    // where transformers' rotate_half makes q * cos + cat(-x2, x1) * sin (their layout kept)
    bool ropeHalves = false;
    std::int64_t kvWindow = 0;        // llama: sliding-window layer, its KV cache holds this many tokens (0: all; not in JSON specs)
    // llama, not in JSON specs: a cache other than [kv heads, tokens, head dim] twice. DeepSeek's
    // MLA caches cacheK (kv_lora_rank) + cacheV (qk_rope_head_dim) elements per token; a
    // state-space layer (cacheState) keeps cacheK (conv state) + cacheV (SSM state) per sequence.
    std::int64_t cacheK = 0, cacheV = 0;
    bool cacheState = false;
    // llama, not in JSON specs: DeepSeek's multi-head latent attention when mlaKvRank > 0: q through a
    // rank-mlaQRank bottleneck (0: one q_proj), k and v from a rank-mlaKvRank latent plus one shared
    // rotary key of mlaRope dims; value heads of mlaValue dims (headDim is the query/key head: nope + rope)
    std::int64_t mlaQRank = 0, mlaKvRank = 0, mlaRope = 0, mlaValue = 0;
    ExpertLora expertLora = ExpertLora::Linear; // llama MoE, not in JSON specs
    bool gelu = false;             // transformer activation: relu (false) or gelu
    bool normFirst = false;        // transformer_encoder_layer: pre-norm
    bool causal = false;           // transformer_encoder_layer: causal attention mask
    // transformer_encoder_layer, not in JSON specs: DeBERTa-v2's disentangled attention (content to
    // position and position to content) over 2 x relativeSpan relative embeddings (0: plain attention)
    std::int64_t relativeSpan = 0;
    bool keepsOutput = false; // not in JSON specs: the forward keeps the layer's input and output until it returns
    std::int64_t index = 0;        // select_token
    std::int64_t tokens = 0;       // text_tower: token ids of its input
    std::vector<Layer> layers;     // residual body
    std::vector<Layer> downsample; // residual skip path (identity when empty)
};

// A llama_decoder_layer's parameters, in ResolvedModel's order: q, k, v, o; the MLP (gate, up, down,
// or the router and w1, w2, w3 per expert); the two norms; the biases that are on; latent attention's own.
constexpr int kLlamaRouterParam = 4;
// Expert e's w1 (w2 and w3 follow); llamaExpertParam(numExperts) is the first parameter after them.
inline int llamaExpertParam(std::int64_t expert) { return kLlamaRouterParam + 1 + static_cast<int>(3 * expert); }

// A llama_decoder_layer's per-head width: head_dim when given, else d_model / nhead.
inline std::int64_t headDimOf(const Layer& l) { return l.headDim ? l.headDim : l.dModel / l.nhead; }

struct TensorSpec {
    Shape shape;              // per sample
    DType dtype = DType::F32; // F32 or I64
};

enum class Loss { CrossEntropy, Mse };

struct ModelSpec {
    std::string name;
    TensorSpec input;
    TensorSpec target;
    Loss loss = Loss::CrossEntropy;
    bool manualLoss = false; // "cross_entropy_manual": -log_softmax written by hand, gather, mean
    std::vector<Layer> layers;
    std::int64_t bufferBytes = 0; // not in JSON specs: buffers beyond the layers' (GPTBigCode's causal mask)
    // not in JSON specs: the checkpoint's parameters the simulated layers lack (a family simulated on
    // the nearest block: shared experts, latent projections, ...), held and trained as one tensor
    std::int64_t unsimulatedParameters = 0;
};

} // namespace memviz::costmodel

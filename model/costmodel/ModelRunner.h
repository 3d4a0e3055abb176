// SPDX-License-Identifier: MIT
#pragma once
// Runs a resolved model's forward over simulated tensors, with the lifetimes of
// torch.nn.Sequential (a layer's input is released when the next layer returns), residual
// blocks, the transformer layers, and reentrant checkpoint_sequential (PyTorch 1.13).
#include <utility>
#include <vector>

#include "costmodel/Ops.h"
#include "costmodel/ResolvedModel.h"

namespace memviz::costmodel::sim {

// What the transformer blocks do beyond the plain layers (set by StepSimulation from the
// EstimateOptions): LoRA adapters beside the targeted linears, quantized frozen weights that are
// dequantized per use, the attention kernel, per-layer / selective checkpointing, a KV cache.
struct BlockConfig {
    bool flash = false;      // memory-efficient attention: no S x S tensor
    bool perLayer = false;   // every transformer block under its own reentrant checkpoint
    bool selective = false;  // the core attention of every block under a reentrant checkpoint
    double loraScale = 2.0;  // alpha / r (PEFT's default alpha = 2r in the bench: scaling 2)
    std::vector<Tensor> loraA, loraB;  // by parameter index; undefined where no adapter
    std::vector<bool> quantized;       // by parameter index: stored as int8/nf4 bytes
    DType computeDtype = DType::F32;   // what quantized weights are dequantized to
    // KV cache: per attention block (in top-level order) a key and a value tensor
    // [B, kv heads, capacity, head dim]; `cached` tokens are already in it.
    std::vector<Tensor> cacheK, cacheV;
    std::int64_t cached = 0;
    // PEFT's enable_input_require_grads: a frozen first embedding's output becomes a leaf that
    // requires grad (its gradient lives until the graph goes); the leaves made, to retire.
    bool inputRequiresGrad = false;
    std::vector<int> hookLeaves;
};

class ModelRunner {
public:
    ModelRunner(Ops& ops, const ResolvedModel& model, const std::vector<Tensor>& params, BlockConfig* blocks = nullptr)
        : ops_(ops), g_(ops.g), model_(model), params_(params), blocks_(blocks) {}

    // The whole model; `segments` > 1 runs it through checkpoint_sequential(model, segments, x).
    Tensor forward(const Tensor& x, int segments);
    // Drops what the forward keeps only for itself (the causal mask, DeBERTa's relative inputs and
    // hidden states).
    void endForward() {
        forwarding_ = false;
        causalMask_.reset();
        relative_.clear();
        held_.clear();
    }

private:
    Tensor range(int first, int last, Tensor x); // top-level layers [first, last]
    Tensor hooked(int i, Tensor out);            // layer i's output, through the input-grad hook
    Tensor checkpointSegment(int first, int last, const Tensor& x);
    Tensor list(const std::vector<ResolvedLayer>& layers, Tensor x);
    Tensor layer(const ResolvedLayer& l, const Tensor& x);
    const Tensor& param(const ResolvedLayer& l, int k) const;

    // Transformer.cpp
    Tensor encoderLayer(const ResolvedLayer& l, const Tensor& src);
    Tensor selfAttention(const ResolvedLayer& l, const Tensor& x);
    Tensor feedForward(const ResolvedLayer& l, const Tensor& x);
    Tensor llamaLayer(const ResolvedLayer& l, const Tensor& x);
    Tensor llamaAttention(const ResolvedLayer& l, const Tensor& h);
    Tensor latentAttention(const ResolvedLayer& l, const Tensor& h); // DeepSeek's MLA
    Tensor llamaProj(const ResolvedLayer& l, int k, const Tensor& x); // projection k with its bias, if any
    Tensor rotary(const Tensor& q, const Tensor& cos, const Tensor& sin);
    Tensor rotaryHalves(const Tensor& q, const Tensor& cos, const Tensor& sin); // Layer::ropeHalves
    std::pair<Tensor, Tensor> ropeTables(std::int64_t s, std::int64_t hd, DType dtype);
    Tensor repeatKv(const Tensor& x, std::int64_t n);
    const Tensor& causalMask(const Shape& shape, DType dtype);
    // RelativeAttention.cpp
    Tensor disentangledAttention(const ResolvedLayer& l, const Tensor& x);
    // TransformerBlocks.cpp
    Tensor gpt2Block(const ResolvedLayer& l, const Tensor& x);
    Tensor gpt2Attention(const ResolvedLayer& l, const Tensor& x);
    Tensor llamaMoe(const ResolvedLayer& l, const Tensor& x);
    Tensor expertProj(const ResolvedLayer& l, int k, const Tensor& x); // an expert's linear, LoRA as peft adapts fused experts
    // x @ W^T (+ b) for parameter k of l, through a dequantized copy when W is quantized, plus
    // the LoRA path B(A(x)) * scale when W has an adapter.
    Tensor proj(const ResolvedLayer& l, int k, const Tensor& x, const Tensor* bias);
    // softmax(q k^T / sqrt(d) + causal) v over [B*H, S, hd] operands (eager or flash); the
    // selective mode runs it under a reentrant checkpoint.
    Tensor coreAttention(const Tensor& q, const Tensor& k, const Tensor& v, std::int64_t queries, std::int64_t keys,
                         int llamaStyle, double dropout);
    Tensor coreAttentionNow(const Tensor& q, const Tensor& k, const Tensor& v, std::int64_t queries, std::int64_t keys,
                            int llamaStyle, double dropout); // 0 gpt2, 1 llama, 2 written by hand, 3 ... with an expanded mask
    Tensor manualAttentionNow(const Tensor& q, const Tensor& k, const Tensor& v, std::int64_t queries, std::int64_t keys,
                              bool expandedMask);
    // Writes k/v of the new tokens into block `blockIndex`'s cache; returns the cached keys and
    // values up to them (views), or k/v themselves without a cache.
    std::pair<Tensor, Tensor> useCache(const Tensor& k, const Tensor& v);
    int blockIndex_ = 0;

    Ops& ops_;
    Graph& g_;
    const ResolvedModel& model_;
    const std::vector<Tensor>& params_;
    BlockConfig* blocks_;
    Tensor causalMask_;
    std::vector<Tensor> relative_; // DeBERTa's encoder: relative embeddings, relative positions, attention mask
    std::vector<Tensor> held_;     // outputs of keepsOutput layers (in the forward, not a checkpoint's recompute)
    bool forwarding_ = false;      // between forward() and endForward()
};

} // namespace memviz::costmodel::sim

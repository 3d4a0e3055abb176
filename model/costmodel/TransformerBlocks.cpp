// SPDX-License-Identifier: MIT
// The decoder blocks of today's language models, op by op as bench/costmodel/llm_blocks.py
// (transformers' eager GPT2Block and LlamaDecoderLayer) runs them on PyTorch 1.13: the
// projections with LoRA adapters and quantized weights, the core attention (eager, flash,
// selectively recomputed), GQA's repeat_kv, a preallocated KV cache, Mixtral's sparse MoE MLP.
#include "costmodel/ModelRunner.h"

namespace memviz::costmodel::sim {

namespace {
template <typename T>
struct Scoped {
    Scoped(T& slot, T value) : slot_(slot), saved_(slot) { slot = value; }
    ~Scoped() { slot_ = saved_; }
    Scoped(const Scoped&) = delete;
    Scoped& operator=(const Scoped&) = delete;
    T& slot_;
    T saved_;
};
} // namespace

Tensor ModelRunner::proj(const ResolvedLayer& l, int k, const Tensor& x, const Tensor* bias) {
    const auto idx = static_cast<std::size_t>(l.firstParam + k);
    const Tensor& w = params_[idx];
    Tensor y;
    if (blocks_ && idx < blocks_->quantized.size() && blocks_->quantized[idx]) {
        // bitsandbytes' MatMul8bitLt / MatMul4Bit: an autograd Function whose forward (grad off)
        // dequantizes the weight for F.linear; it saves only the input, and its backward
        // dequantizes again for the input's gradient. The quantized weight never trains.
        const Shape shape = model_.params[idx].shape;
        const DType dt = blocks_->computeDtype;
        {
            Scoped<bool> noGrad(g_.gradEnabled, false);
            Tensor deq = ops_.dequantize(w, shape, dt);
            y = ops_.linear(x, deq, bias);
        }
        const Shape xs = x.shape();
        g_.record("MatMul4BitBackward", {&y}, {&x}, {}, [xs, shape, dt](Graph& gr, Node&, std::vector<Tensor>& grads) {
            Tensor deq = gr.empty(shape, dt, Category::Temporaries);
            gr.op("bnb.dequantize");
            Tensor gx = gr.empty(xs, grads[0].dtype(), Category::Temporaries);
            gr.op("aten.mm");
            return std::vector<Tensor>{gx};
        });
    } else {
        y = ops_.linear(x, w, bias);
    }
    if (!blocks_ || idx >= blocks_->loraA.size() || !blocks_->loraA[idx].defined()) return y;
    // PEFT lora.Linear: result + lora_B(lora_A(x)) * scaling
    Tensor b;
    {
        Tensor a = ops_.linear(x, blocks_->loraA[idx], nullptr);
        b = ops_.linear(a, blocks_->loraB[idx], nullptr);
    }
    Tensor scaled = ops_.scalarOp(b, "aten.mul");
    b.reset();
    return ops_.add(y, scaled);
}

std::pair<Tensor, Tensor> ModelRunner::useCache(const Tensor& k, const Tensor& v) {
    if (!blocks_ || blocks_->cacheK.empty()) return {k, v};
    const auto i = static_cast<std::size_t>(blockIndex_++);
    const std::int64_t end = blocks_->cached + k.dim(2);
    g_.op("aten.copy_"); // cache.k[i][:, :, pos:end].copy_(k)
    g_.op("aten.copy_");
    const Shape shape{k.dim(0), k.dim(1), end, k.dim(3)};
    // [:, :, :end] of [B, H, capacity, hd]: B and H still merge, so matmul needs no copy
    return {g_.alias(blocks_->cacheK[i], shape, true), g_.alias(blocks_->cacheV[i], shape, true)};
}

Tensor ModelRunner::coreAttentionNow(const Tensor& q, const Tensor& k, const Tensor& v, std::int64_t s, std::int64_t t,
                                     int llamaStyle, double dropout) {
    // q [B, H, S, hd] (non-contiguous), k [B, H, T, hd], v [B, H, T, vd] (vd = hd but for latent
    // attention); matmul copies what it cannot view
    const std::int64_t b = q.dim(0), h = q.dim(1), hd = q.dim(3), vd = v.dim(3);
    const DType dt = q.dtype();
    if (blocks_ && blocks_->flash) {
        Tensor o = ops_.flashAttention(ops_.view(q, {b * h, s, hd}, false), ops_.view(k, {b * h, t, hd}, false),
                                       ops_.view(v, {b * h, t, vd}, false));
        return ops_.view(o, {b, h, s, vd});
    }
    if (llamaStyle >= 2) return manualAttentionNow(q, k, v, s, t, llamaStyle == 3);
    Tensor o;
    {
        Tensor probs;
        {
            Tensor scaled;
            {
                Tensor qm = ops_.reshape(q, {b * h, s, hd});
                Tensor km = k.contiguous ? ops_.view(k, {b * h, hd, t}, false)
                                         : ops_.view(ops_.clone(k), {b * h, hd, t}, false);
                Tensor scores = ops_.bmm(qm, km);
                qm.reset();
                km.reset();
                scaled = ops_.divScalar(scores);
            }
            if (llamaStyle && dt != DType::F32) { // llama: + mask, softmax(dtype=f32).to(dtype)
                if (s > 1) {
                    Tensor mask = g_.empty({s, t}, dt);
                    g_.op("aten.full");
                    scaled = ops_.add(scaled, mask);
                }
                probs = ops_.castTo(ops_.softmax(scaled, DType::F32), dt);
            } else if (llamaStyle) { // llama in fp32
                if (s > 1) {
                    Tensor mask = g_.empty({s, t}, dt);
                    g_.op("aten.full");
                    scaled = ops_.add(scaled, mask);
                }
                probs = ops_.softmax(scaled, DType::F32);
            } else { // gpt2: where(causal, w, min), softmax in the dtype, dropout
                Tensor mask = g_.empty({s, t}, DType::Bool);
                g_.op("aten.ones");
                scaled = ops_.where(mask, scaled);
                probs = ops_.dropout(ops_.softmax(scaled, dt), dropout);
            }
        }
        o = ops_.bmm(probs, ops_.reshape(v, {b * h, t, vd}));
    }
    return ops_.view(o, {b, h, s, vd});
}

Tensor ModelRunner::manualAttentionNow(const Tensor& q, const Tensor& k, const Tensor& v, std::int64_t s, std::int64_t t,
                                       bool expandedMask) {
    // einsum(q, k, "... q d, ... k d -> ... q k") / sqrt(d); torch.where(causal, scores, -inf);
    // softmax written by hand; einsum(probs, v, ...): v, a strided view of the projection, is
    // copied contiguous by the reshape inside einsum. The masked scores and the probabilities
    // are locals of the function: alive until it returns.
    const std::int64_t b = q.dim(0), h = q.dim(1), hd = q.dim(3);
    Tensor masked, small; // small: the S x T bool the caller keeps as `mask` (expandedMask)
    {
        Tensor scaled;
        {
            Tensor qm = ops_.reshape(q, {b * h, s, hd});
            Tensor km = k.contiguous ? ops_.view(k, {b * h, hd, t}, false) : ops_.view(ops_.clone(k), {b * h, hd, t}, false);
            Tensor scores = ops_.bmm(qm, km);
            qm.reset();
            km.reset();
            scaled = ops_.divScalar(scores);
        }
        Tensor mask;
        if (expandedMask) { // ~triu(ones(S, T), 1).to(bool), expanded to [B, H, S, T]; (mask == False)
            {
                Tensor ones = g_.empty({s, t}, DType::F32);
                g_.op("aten.ones");
                Tensor tri = g_.empty({s, t}, DType::F32);
                g_.op("aten.triu");
                ones.reset();
                Tensor b8 = g_.empty({s, t}, DType::Bool);
                g_.op("aten._to_copy");
                tri.reset();
                small = g_.empty({s, t}, DType::Bool);
                g_.op("aten.bitwise_not");
            }
            mask = g_.empty({b, h, s, t}, DType::Bool); // eq on the expanded view: a full-size result
            g_.op("aten.eq");
        } else {
            mask = g_.empty({s, t}, DType::Bool); // iota(q)[:, None] >= iota(k)[None, :]
            g_.op("aten.ge");
        }
        masked = ops_.where(mask, scaled); // masked_fill(mask, -1e9) saves the mask as where does
    }
    Tensor probs = ops_.manualSoftmax(masked);
    Tensor o = ops_.bmm(probs, ops_.reshape(v, {b * h, t, v.dim(3)}));
    return ops_.view(o, {b, h, s, v.dim(3)});
}

Tensor ModelRunner::coreAttention(const Tensor& q, const Tensor& k, const Tensor& v, std::int64_t s, std::int64_t t,
                                  int llamaStyle, double dropout) {
    if (!blocks_ || !blocks_->selective || !g_.gradEnabled) return coreAttentionNow(q, k, v, s, t, llamaStyle, dropout);
    // torch.utils.checkpoint.checkpoint(core, q, k, v), reentrant: run under no_grad, save the
    // inputs; backward re-runs it on detached inputs and backpropagates through it.
    Tensor out;
    {
        Scoped<bool> noGrad(g_.gradEnabled, false);
        out = coreAttentionNow(q, k, v, s, t, llamaStyle, dropout);
    }
    g_.record("CheckpointFunctionBackward", {&out}, {&q, &k, &v}, {q, k, v},
              [this, s, t, llamaStyle, dropout](Graph& g, Node& node, std::vector<Tensor>& grads) {
                  std::vector<Tensor> in;
                  for (std::size_t i = 0; i < 3; ++i) {
                      Tensor d = g.newLeafAlias(node.saved[i], node.needs(i), Category::Temporaries);
                      d.contiguous = node.saved[i].contiguous;
                      in.push_back(d);
                  }
                  g.op("aten.detach");
                  Tensor outputs;
                  {
                      Scoped<bool> withGrad(g.gradEnabled, true);
                      Scoped<Category> activations(g.outputCategory, Category::Activations);
                      outputs = coreAttentionNow(in[0], in[1], in[2], s, t, llamaStyle, dropout);
                  }
                  g.backward({{std::move(outputs), std::move(grads[0])}});
                  std::vector<Tensor> r;
                  for (Tensor& d : in) {
                      const int leaf = d.leaf;
                      d.reset();
                      r.push_back(g.retireLeaf(leaf));
                  }
                  return r;
              });
    return out;
}

Tensor ModelRunner::gpt2Attention(const ResolvedLayer& l, const Tensor& hs) {
    const Layer& d = l.def;
    const std::int64_t b = hs.dim(0), s = hs.dim(1), e = hs.dim(2), h = d.nhead, hd = e / h;
    const double p = ops_.cfg.training ? d.p : 0.0;
    // q, k, v (views of c_attn's output) are locals of _attention: alive until it returns
    Tensor qkv = proj(l, 2, hs, &param(l, 3));
    std::vector<Tensor> parts = ops_.chunk(qkv, 3); // split(d, dim=2), then view + permute
    Tensor q = ops_.view(parts[0], {b, h, s, hd}, false);
    auto [k, v] = useCache(ops_.view(parts[1], {b, h, s, hd}, false), ops_.view(parts[2], {b, h, s, hd}, false));
    Tensor a;
    {
        Tensor o = coreAttention(q, k, v, s, k.dim(2), false, p);
        a = ops_.clone(ops_.view(o, {b, s, h, hd}, false)); // permute(0, 2, 1, 3).contiguous()
    }
    Tensor y = proj(l, 4, ops_.view(a, {b, s, e}), &param(l, 5));
    a.reset();
    return ops_.dropout(y, p);
}

Tensor ModelRunner::gpt2Block(const ResolvedLayer& l, const Tensor& x) {
    const double p = ops_.cfg.training ? l.def.p : 0.0;
    Tensor h;
    {
        Tensor n = ops_.layerNorm(x, param(l, 0), &param(l, 1));
        Tensor attn = gpt2Attention(l, n);
        n.reset();
        h = ops_.add(attn, x);
    }
    Tensor m;
    {
        Tensor n = ops_.layerNorm(h, param(l, 6), &param(l, 7));
        Tensor f = proj(l, 8, n, &param(l, 9));
        n.reset();
        // gelu_new: 0.5 * x * (1 + tanh(sqrt(2/pi) * (x + 0.044715 * x**3)))
        Tensor half = ops_.scalarOp(f, "aten.mul");
        Tensor u;
        {
            Tensor inner;
            {
                Tensor cube = ops_.powScalar(f);
                Tensor c = ops_.scalarOp(cube, "aten.mul");
                cube.reset();
                inner = ops_.add(f, c);
            }
            Tensor scaled = ops_.scalarOp(inner, "aten.mul");
            inner.reset();
            Tensor th = ops_.tanh(scaled);
            scaled.reset();
            u = ops_.scalarOp(th, "aten.add");
        }
        Tensor act = ops_.mul(half, u);
        half.reset();
        u.reset();
        f.reset();
        m = ops_.dropout(proj(l, 10, act, &param(l, 11)), p);
    }
    return ops_.add(h, m);
}

Tensor ModelRunner::expertProj(const ResolvedLayer& l, int k, const Tensor& x) {
    const auto idx = static_cast<std::size_t>(l.firstParam + k);
    const bool adapted = blocks_ && idx < blocks_->loraA.size() && blocks_->loraA[idx].defined();
    if (!adapted || l.def.expertLora != ExpertLora::Merged || blocks_->quantized[idx]) return proj(l, k, x, nullptr);
    // peft's ParamWrapper on transformers' fused expert parameters (target_modules="all-linear"):
    // the parameter is parametrized as W + scale * B @ A (_LoraFactorsProxy's baddbmm), a new
    // weight-sized tensor made once per forward; the products keep it for the backward.
    const Tensor& a = blocks_->loraA[idx];
    const Tensor& b = blocks_->loraB[idx];
    Tensor merged = g_.empty(model_.params[idx].shape, a.dtype());
    g_.op("aten.baddbmm");
    const Shape as = a.shape(), bs = b.shape();
    const DType dt = a.dtype();
    g_.record("BaddbmmBackward0", {&merged}, {&a, &b}, {a, b}, [as, bs, dt](Graph& gr, Node& n, std::vector<Tensor>&) {
        std::vector<Tensor> r(2);
        if (n.needs(0)) r[0] = fresh(gr, as, dt, "aten.bmm");
        if (n.needs(1)) r[1] = fresh(gr, bs, dt, "aten.bmm");
        return r;
    });
    return ops_.linear(x, merged, nullptr);
}

Tensor ModelRunner::llamaMoe(const ResolvedLayer& l, const Tensor& x) {
    // transformers' MixtralSparseMoeBlock; tokens are assumed spread evenly over the experts
    // (each gets ceil(N * k / E) of them). Modelled, not measured.
    const Layer& d = l.def;
    const std::int64_t b = x.dim(0), s = x.dim(1), e = x.dim(2), n = b * s;
    const std::int64_t experts = d.numExperts, k = d.expertsPerToken ? d.expertsPerToken : 2;
    const std::int64_t per = (n * k + experts - 1) / experts;
    const DType dt = x.dtype();
    Tensor flat = ops_.view(x, {n, e});
    Tensor weights;
    {
        Tensor logits = proj(l, kLlamaRouterParam, flat, nullptr);
        Tensor probs = ops_.softmax(logits, DType::F32);
        logits.reset();
        weights = ops_.castTo(ops_.select(probs, {n, k}), dt); // topk, / sum, .to(dtype)
        Tensor chosen = g_.empty({n, k}, DType::I64);
        g_.op("aten.topk");
        Tensor mask = g_.empty({experts, k, n}, DType::I64); // one_hot(...).permute(2, 1, 0)
        g_.op("aten.one_hot");
    }
    Tensor out = g_.empty({n, e}, dt);
    g_.op("aten.zeros");
    for (std::int64_t i = 0; i < experts; ++i) {
        const int base = llamaExpertParam(i); // w1, w2, w3
        Tensor rows = g_.empty({per}, DType::I64);
        g_.op("aten.where");
        Tensor cur = ops_.select(flat, {per, e}); // hidden_states[None, top_x]
        Tensor act;
        {
            Tensor gate = ops_.silu(expertProj(l, base, cur));
            Tensor up = expertProj(l, base + 2, cur);
            act = ops_.mul(gate, up);
        }
        Tensor y = expertProj(l, base + 1, act);
        act.reset();
        Tensor scaled = ops_.mul(y, ops_.select(weights, {per, 1}));
        y.reset();
        out = ops_.add(out, scaled); // index_add_
    }
    return ops_.view(out, {b, s, e});
}

} // namespace memviz::costmodel::sim

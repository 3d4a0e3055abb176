// SPDX-License-Identifier: MIT
// nn.TransformerEncoderLayer (batch_first, the unfused path for training of PyTorch 1.13 and of
// 2.x) and a Llama decoder layer (transformers' eager LlamaDecoderLayer), op by op.
#include <tuple>

#include "costmodel/ModelRunner.h"

namespace memviz::costmodel::sim {

const Tensor& ModelRunner::causalMask(const Shape& shape, DType dtype) {
    if (!causalMask_.defined()) { // built once per forward by the caller, alive until it returns
        causalMask_ = g_.empty(shape, dtype, Category::Activations);
        g_.op("aten.masked_fill");
    }
    return causalMask_;
}

Tensor ModelRunner::encoderLayer(const ResolvedLayer& l, const Tensor& src) {
    const Layer& d = l.def;
    // 1.13's fast path: eval, no grad, post-norm, no mask -> one fused op per layer.
    if (!ops_.cfg.training && !g_.gradEnabled && !d.normFirst && !d.causal && !d.relativeSpan)
        return ops_.fusedEncoderLayer(src, d.nhead, d.dimFeedforward);
    Tensor x = src;
    if (d.normFirst) { // x = x + sa(norm1(x)); x = x + ff(norm2(x))
        {
            Tensor n = ops_.layerNorm(x, param(l, 8), &param(l, 9));
            Tensor sa = selfAttention(l, n);
            n.reset();
            Tensor y = ops_.add(x, sa);
            sa.reset();
            x = std::move(y);
        }
        Tensor n = ops_.layerNorm(x, param(l, 10), &param(l, 11));
        Tensor ff = feedForward(l, n);
        n.reset();
        Tensor y = ops_.add(x, ff);
        ff.reset();
        return y;
    }
    { // x = norm1(x + sa(x))
        Tensor sa = d.relativeSpan ? disentangledAttention(l, x) : selfAttention(l, x);
        Tensor s = ops_.add(x, sa);
        sa.reset();
        Tensor y = ops_.layerNorm(s, param(l, 8), &param(l, 9));
        x = std::move(y);
    }
    Tensor ff = feedForward(l, x); // x = norm2(x + ff(x))
    Tensor s = ops_.add(x, ff);
    ff.reset();
    return ops_.layerNorm(s, param(l, 10), &param(l, 11));
}

Tensor ModelRunner::selfAttention(const ResolvedLayer& l, const Tensor& x) {
    const Layer& d = l.def;
    const std::int64_t b = x.dim(0), s = x.dim(1), e = x.dim(2), h = d.nhead, hd = e / h;
    const double p = ops_.cfg.training ? d.p : 0.0;
    Tensor attnOut;
    if (ops_.cfg.torch == TorchVersion::V2) {
        // 2.x's F.multi_head_attention_forward (need_weights=False): _in_projection_packed makes
        // one contiguous [3, S, B, E] copy of the projection (q, k and v are views of it, so it
        // lives while any of them is saved), then _scaled_dot_product_attention_math: q and k^T
        // each times sqrt(scale), matmul, _safe_softmax, dropout, matmul with v. Measured under
        // 2.13: two [S, B, E] more kept per layer than 1.13's three chunk copies and q / sqrt(d).
        Tensor packed = proj(l, 0, ops_.view(x, {s, b, e}, false), &param(l, 1));
        Tensor qkv = ops_.clone(ops_.view(packed, {3, s, b, e}, false));
        packed.reset();
        Tensor q = ops_.view(ops_.select(qkv, {s, b, e}), {b * h, s, hd}, false);
        Tensor k = ops_.view(ops_.select(qkv, {s, b, e}), {b * h, hd, s}, false);
        Tensor v = ops_.view(ops_.select(qkv, {s, b, e}), {b * h, s, hd}, false);
        qkv.reset();
        Tensor o;
        {
            Tensor qs = ops_.scalarOp(q, "aten.mul");
            Tensor ks = ops_.scalarOp(k, "aten.mul");
            if (d.causal) causalMask({s, s}, DType::F32);
            Tensor scores = ops_.bmm(qs, ks);
            qs.reset();
            ks.reset();
            Tensor attn = ops_.softmax(scores, scores.dtype());
            scores.reset();
            attn = ops_.dropout(attn, p);
            o = ops_.bmm(attn, v);
        }
        Tensor oc = ops_.clone(ops_.view(o, {s, b * h, hd}, false)); // permute(2, 0, 1, 3).contiguous()
        o.reset();
        Tensor y = proj(l, 2, ops_.view(oc, {s * b, e}), &param(l, 3));
        oc.reset();
        attnOut = ops_.view(y, {b, s, e}, false);
    } else {
        // nn.MultiheadAttention(batch_first): query.transpose(1, 0), then
        // F.multi_head_attention_forward: linear(q, in_proj).chunk(3), each chunk made
        // contiguous and viewed as (B*H, S, hd).
        Tensor packed = proj(l, 0, ops_.view(x, {s, b, e}, false), &param(l, 1));
        std::vector<Tensor> qkv = ops_.chunk(packed, 3);
        packed.reset();
        Tensor q = ops_.viewWithGradCopy(ops_.clone(qkv[0]), {b * h, s, hd}, false);
        qkv[0].reset();
        Tensor k = ops_.view(ops_.clone(qkv[1]), {b * h, s, hd}, false);
        qkv[1].reset();
        Tensor v = ops_.viewWithGradCopy(ops_.clone(qkv[2]), {b * h, s, hd}, false);
        qkv.clear();
        Tensor o;
        {
            // _scaled_dot_product_attention: q / sqrt(E), bmm (baddbmm with a mask), softmax,
            // dropout, bmm with v. The dropped-out weights are returned too and live until
            // the attention returns.
            Tensor qs = ops_.divScalar(q);
            if (d.causal) causalMask({s, s}, DType::F32);
            Tensor scores = ops_.bmm(qs, ops_.view(k, {b * h, hd, s}, false));
            qs.reset();
            Tensor attn = ops_.softmax(scores, scores.dtype());
            scores.reset();
            attn = ops_.dropout(attn, p);
            o = ops_.bmm(attn, v);
        }
        Tensor oc = ops_.clone(ops_.view(o, {s, b * h, hd}, false)); // transpose(0, 1).contiguous()
        o.reset();
        Tensor y = proj(l, 2, ops_.view(oc, {s * b, e}), &param(l, 3));
        oc.reset();
        attnOut = ops_.view(y, {b, s, e}, false); // .view(S, B, E).transpose(1, 0)
    }
    return ops_.dropout(attnOut, p); // dropout1
}

Tensor ModelRunner::feedForward(const ResolvedLayer& l, const Tensor& x) {
    const Layer& d = l.def;
    const double p = ops_.cfg.training ? d.p : 0.0;
    Tensor y;
    {
        Tensor hidden = proj(l, 4, x, &param(l, 5));
        Tensor act = d.gelu ? ops_.gelu(hidden) : ops_.relu(hidden);
        hidden.reset();
        Tensor dropped = ops_.dropout(act, p);
        act.reset();
        y = proj(l, 6, dropped, &param(l, 7));
    }
    return ops_.dropout(y, p); // dropout2; y lives until the block returns
}

Tensor ModelRunner::rotary(const Tensor& q, const Tensor& cos, const Tensor& sin) {
    // apply_rotary_pos_emb: q * cos + rotate_half(q) * sin, rotate_half = cat(-x2, x1)
    Shape half = q.shape();
    half.back() /= 2;
    Tensor a = ops_.mulConst(q, cos);
    Tensor r;
    {
        Tensor x2 = ops_.neg(ops_.select(q, half));
        r = ops_.cat({x2, ops_.select(q, half)}, -1);
    }
    Tensor b = ops_.mulConst(r, sin);
    r.reset();
    Tensor out = ops_.add(a, b);
    out.contiguous = false; // follows q's (transposed) layout
    return out;
}

Tensor ModelRunner::rotaryHalves(const Tensor& q, const Tensor& cos, const Tensor& sin) {
    // x1, x2 = rearrange(x, "... (half xy) -> xy ... half").unbind(0) (strided views);
    // x1_rot = cos * x1 - sin * x2; x2_rot = sin * x1 + cos * x2; concat((x1_rot, x2_rot), -1)
    Shape half = q.shape();
    half.back() /= 2;
    Tensor r1, r2;
    {
        Tensor a = ops_.mulConst(ops_.select(q, half), cos);
        Tensor b = ops_.mulConst(ops_.select(q, half), sin);
        r1 = ops_.add(a, b); // a - b
    }
    {
        Tensor a = ops_.mulConst(ops_.select(q, half), sin);
        Tensor b = ops_.mulConst(ops_.select(q, half), cos);
        r2 = ops_.add(a, b);
    }
    return ops_.cat({r1, r2}, -1); // contiguous [B, H, S, hd]
}

std::pair<Tensor, Tensor> ModelRunner::ropeTables(std::int64_t s, std::int64_t hd, DType dt) {
    // inv_freq [hd/2]; t = arange(s).float(); freqs = outer(t, inv); emb = cat(freqs, freqs);
    // emb.cos().to(dtype), emb.sin().to(dtype). Temporaries die when the helper returns.
    Tensor t = g_.empty({s}, DType::F32);
    g_.op("aten._to_copy");
    Tensor freqs = g_.empty({s, hd / 2}, DType::F32);
    g_.op("aten.outer");
    Tensor emb = g_.empty({s, hd}, DType::F32);
    g_.op("aten.cat");
    Tensor cos = g_.empty({s, hd}, DType::F32);
    g_.op("aten.cos");
    if (dt != DType::F32) {
        Tensor c = g_.empty({s, hd}, dt);
        g_.op("aten._to_copy");
        cos = std::move(c);
    }
    Tensor sin = g_.empty({s, hd}, DType::F32);
    g_.op("aten.sin");
    if (dt != DType::F32) {
        Tensor c = g_.empty({s, hd}, dt);
        g_.op("aten._to_copy");
        sin = std::move(c);
    }
    return {cos, sin};
}

Tensor ModelRunner::repeatKv(const Tensor& x, std::int64_t n) {
    if (n == 1) return x;
    // x[:, :, None].expand(B, kvh, n, T, hd).reshape(B, kvh * n, T, hd): a copy
    const std::int64_t b = x.dim(0), kvh = x.dim(1), t = x.dim(2), hd = x.dim(3);
    Tensor e = ops_.expand(ops_.view(x, {b, kvh, 1, t, hd}, x.contiguous), {b, kvh, n, t, hd});
    Tensor c = ops_.clone(e);
    return ops_.view(c, {b, kvh * n, t, hd});
}

namespace {
// Where a llama_decoder_layer's parameters are (ModelSpec.h, ResolvedModel's order): the two norms
// after the MLP, then the biases that are on: q, k, v (qkv_bias), o (o_bias), gate, up, down (mlp_bias).
int llamaNormIndex(const Layer& d) { return d.numExperts ? llamaExpertParam(d.numExperts) : 7; }
// Latent attention's own parameters, after the biases: q_a and its norm (when q has a bottleneck),
// then the latent's norm.
int mlaExtraIndex(const Layer& d) {
    return llamaNormIndex(d) + 2 + (d.qkvBias ? 3 : 0) + (d.oBias ? 1 : 0) + (d.mlpBias ? 3 : 0);
}
// The bias of projection k (0..3 attention, 4..6 MLP), or -1 when it has none.
int llamaBiasIndex(const Layer& d, int k) {
    int next = llamaNormIndex(d) + 2;
    if (k < 3) return d.qkvBias ? next + k : -1;
    if (d.qkvBias) next += 3;
    if (k == 3) return d.oBias ? next : -1;
    if (d.oBias) ++next;
    return d.mlpBias ? next + (k - 4) : -1;
}
} // namespace

Tensor ModelRunner::llamaProj(const ResolvedLayer& l, int k, const Tensor& x) {
    const int bias = llamaBiasIndex(l.def, k);
    return proj(l, k, x, bias < 0 ? nullptr : &param(l, bias));
}

Tensor ModelRunner::latentAttention(const ResolvedLayer& l, const Tensor& hs) {
    // transformers' DeepseekV3Attention (and V2's): q = q_b(norm(q_a(x))) or q_proj(x), split into
    // its plain and rotary parts; kv_a(x) = the latent (normed) and one rotary key shared by the
    // heads, which the cache keeps; kv_b(latent) = every head's plain key and value; the keys built
    // in a new tensor (new_empty, both parts copied in), the query by cat.
    const Layer& d = l.def;
    const std::int64_t b = hs.dim(0), s = hs.dim(1), h = d.nhead, qk = headDimOf(d), rope = d.mlaRope, nope = qk - rope;
    const std::int64_t vd = d.mlaValue, rank = d.mlaKvRank;
    const int extra = mlaExtraIndex(d);
    Tensor q;
    if (d.mlaQRank > 0) {
        Tensor a = proj(l, extra, hs, nullptr);
        Tensor n = ops_.rmsNorm(a, param(l, extra + 1));
        a.reset();
        q = llamaProj(l, 0, n);
    } else {
        q = llamaProj(l, 0, hs);
    }
    q = ops_.view(q, {b, h, s, qk}, false);
    Tensor latent, kRot;
    {
        Tensor compressed = llamaProj(l, 1, hs); // [B, S, rank + rope]
        latent = ops_.view(ops_.rmsNorm(ops_.view(compressed, {b, s, rank}, false), param(l, extra + (d.mlaQRank > 0 ? 2 : 0))),
                           {b, 1, s, rank});
        kRot = ops_.view(compressed, {b, 1, s, rope}, false);
    }
    auto [cos, sin] = ropeTables(s, rope, hs.dtype());
    Tensor qRot = rotary(ops_.view(q, {b, h, s, rope}, false), cos, sin);
    kRot = rotary(kRot, cos, sin);
    std::tie(latent, kRot) = useCache(latent, kRot);
    const std::int64_t t = latent.dim(2);
    Tensor query = ops_.cat({ops_.view(q, {b, h, s, nope}, false), qRot}, -1);
    q.reset();
    qRot.reset();
    Tensor key, value;
    {
        Tensor kv = ops_.view(llamaProj(l, 2, ops_.view(latent, {b, t, rank})), {b, h, t, nope + vd}, false);
        key = ops_.cat({ops_.view(kv, {b, h, t, nope}, false), ops_.expand(kRot, {b, h, t, rope})}, -1); // new_empty + copy_
        value = ops_.view(kv, {b, h, t, vd}, false);
    }
    Tensor a;
    {
        Tensor o = coreAttention(query, key, value, s, t, d.manualAttention ? (d.expandedMask ? 3 : 2) : 1, 0.0);
        a = ops_.clone(ops_.view(o, {b, s, h, vd}, false)); // reshape(B, S, -1) of the transposed output
    }
    return llamaProj(l, 3, ops_.view(a, {b, s, h * vd}));
}

Tensor ModelRunner::llamaAttention(const ResolvedLayer& l, const Tensor& hs) {
    const Layer& d = l.def;
    if (d.mlaKvRank > 0) return latentAttention(l, hs);
    const std::int64_t b = hs.dim(0), s = hs.dim(1), h = d.nhead, hd = headDimOf(d);
    const std::int64_t kvh = d.numKvHeads ? d.numKvHeads : h;
    const DType dt = hs.dtype();
    // The locals q, k, v (and the tables) live until _attention returns, o_proj included.
    Tensor qRaw = ops_.view(llamaProj(l, 0, hs), {b, h, s, hd}, false);
    Tensor kRaw = ops_.view(llamaProj(l, 1, hs), {b, kvh, s, hd}, false);
    Tensor v = ops_.view(llamaProj(l, 2, hs), {b, kvh, s, hd}, false);
    auto [cos, sin] = ropeTables(s, hd, dt);
    Tensor q = d.ropeHalves ? rotaryHalves(qRaw, cos, sin) : rotary(qRaw, cos, sin);
    Tensor k = d.ropeHalves ? rotaryHalves(kRaw, cos, sin) : rotary(kRaw, cos, sin);
    qRaw.reset();
    kRaw.reset();
    std::tie(k, v) = useCache(k, v);
    {
        Tensor k2 = repeatKv(k, h / kvh);
        Tensor v2 = repeatKv(v, h / kvh);
        k = std::move(k2);
        v = std::move(v2);
    }
    Tensor a;
    {
        Tensor o = coreAttention(q, k, v, s, k.dim(2), d.manualAttention ? (d.expandedMask ? 3 : 2) : 1, 0.0);
        a = ops_.clone(ops_.view(o, {b, s, h, hd}, false)); // transpose(1, 2).contiguous()
    }
    Tensor out = llamaProj(l, 3, ops_.view(a, {b, s, h * hd}));
    return out;
}

Tensor ModelRunner::llamaLayer(const ResolvedLayer& l, const Tensor& x) {
    const int norms = llamaNormIndex(l.def);
    Tensor attn;
    {
        Tensor normed = ops_.rmsNorm(x, param(l, norms));
        attn = llamaAttention(l, normed);
        if (l.def.cacheState && !g_.gradEnabled && x.dim(1) > 1) {
            // transformers' mamba_selective_scan over a whole sequence (no CUDA kernels): discrete_A,
            // discrete_B and deltaB_u, each [B, inner, S, state] in fp32, alive until the scan returns
            std::vector<Tensor> scan;
            for (const char* op : {"aten.exp", "aten.mul", "aten.mul"}) {
                scan.push_back(g_.empty({x.dim(0), l.def.cacheV, x.dim(1)}, DType::F32, Category::Temporaries));
                g_.op(op);
            }
        }
    }
    Tensor h = ops_.add(x, attn); // residual + attention
    attn.reset();
    Tensor mlp;
    {
        Tensor normed = ops_.rmsNorm(h, param(l, norms + 1));
        if (l.def.numExperts) {
            mlp = llamaMoe(l, normed);
        } else { // down_proj(act_fn(gate_proj(x)) * up_proj(x))
            Tensor gate;
            if (l.def.manualSilu) { // x * sigmoid(x): sigmoid saves its output, the product both
                Tensor pre = llamaProj(l, 4, normed);
                Tensor sg = ops_.sigmoid(pre);
                gate = ops_.mul(pre, sg);
            } else {
                gate = ops_.silu(llamaProj(l, 4, normed));
            }
            Tensor up = llamaProj(l, 5, normed);
            Tensor prod = ops_.mul(gate, up);
            gate.reset();
            up.reset();
            mlp = llamaProj(l, 6, prod);
        }
    }
    return ops_.add(h, mlp);
}

} // namespace memviz::costmodel::sim

// SPDX-License-Identifier: MIT
// nn.TransformerEncoderLayer (batch_first, PyTorch 1.13's unfused path for training) and a
// Llama decoder layer (transformers' eager LlamaDecoderLayer), op by op.
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
    if (!ops_.cfg.training && !g_.gradEnabled && !d.normFirst && !d.causal)
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
        Tensor sa = selfAttention(l, x);
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
    {
        // nn.MultiheadAttention(batch_first): query.transpose(1, 0), then
        // F.multi_head_attention_forward: linear(q, in_proj).chunk(3), each chunk made
        // contiguous and viewed as (B*H, S, hd).
        Tensor proj = ops_.linear(ops_.view(x, {s, b, e}, false), param(l, 0), &param(l, 1));
        std::vector<Tensor> qkv = ops_.chunk(proj, 3);
        proj.reset();
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
        Tensor y = ops_.linear(ops_.view(oc, {s * b, e}), param(l, 2), &param(l, 3));
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
        Tensor hidden = ops_.linear(x, param(l, 4), &param(l, 5));
        Tensor act = d.gelu ? ops_.gelu(hidden) : ops_.relu(hidden);
        hidden.reset();
        Tensor dropped = ops_.dropout(act, p);
        act.reset();
        y = ops_.linear(dropped, param(l, 6), &param(l, 7));
    }
    return ops_.dropout(y, p); // dropout2; y lives until the block returns
}

Tensor ModelRunner::rotary(const Tensor& q) {
    // apply_rotary_pos_emb: q * cos + rotate_half(q) * sin, rotate_half = cat(-x2, x1)
    Shape half = q.shape();
    half.back() /= 2;
    Tensor a = ops_.mulConst(q, rotaryCos_);
    Tensor r;
    {
        Tensor x2 = ops_.neg(ops_.select(q, half));
        r = ops_.cat({x2, ops_.select(q, half)}, -1);
    }
    Tensor b = ops_.mulConst(r, rotarySin_);
    r.reset();
    Tensor out = ops_.add(a, b);
    out.contiguous = false; // follows q's (transposed) layout
    return out;
}

Tensor ModelRunner::llamaAttention(const ResolvedLayer& l, const Tensor& hs) {
    const Layer& d = l.def;
    const std::int64_t b = hs.dim(0), s = hs.dim(1), e = hs.dim(2), h = d.nhead, hd = e / h;
    if (!rotaryCos_.defined()) { // rotary_emb's cos/sin caches (buffers)
        rotaryCos_ = g_.empty({s, hd}, DType::F32, Category::Parameters);
        rotarySin_ = g_.empty({s, hd}, DType::F32, Category::Parameters);
    }
    const DType dt = hs.dtype();
    Tensor o;
    {
        // q/k/v_proj(h).view(B, S, H, hd).transpose(1, 2), RoPE on q and k
        Tensor q = rotary(ops_.view(ops_.linear(hs, param(l, 0), nullptr), {b, h, s, hd}, false));
        Tensor k = rotary(ops_.view(ops_.linear(hs, param(l, 1), nullptr), {b, h, s, hd}, false));
        Tensor v = ops_.view(ops_.linear(hs, param(l, 2), nullptr), {b, h, s, hd}, false);
        // torch.matmul on non-contiguous 4-d operands copies them to (B*H, S, hd)
        Tensor scores = ops_.bmm(ops_.reshape(q, {b * h, s, hd}),
                                 ops_.reshape(ops_.view(k, {b * h, hd, s}, false), {b * h, hd, s}));
        q.reset();
        k.reset();
        Tensor scaled = ops_.divScalar(scores);
        scores.reset();
        Tensor masked = ops_.add(scaled, causalMask({b, 1, s, s}, dt));
        scaled.reset();
        Tensor probs = ops_.castTo(ops_.softmax(masked, DType::F32), dt); // softmax(dtype=float32).to(dtype)
        masked.reset();
        o = ops_.bmm(probs, ops_.reshape(v, {b * h, s, hd}));
    }
    Tensor oc = ops_.clone(ops_.view(o, {b, s, h, hd}, false)); // transpose(1, 2).contiguous()
    o.reset();
    return ops_.linear(ops_.view(oc, {b, s, e}), param(l, 3), nullptr);
}

Tensor ModelRunner::llamaLayer(const ResolvedLayer& l, const Tensor& x) {
    Tensor attn;
    {
        Tensor normed = ops_.rmsNorm(x, param(l, 7));
        attn = llamaAttention(l, normed);
    }
    Tensor h = ops_.add(x, attn); // residual + attention
    attn.reset();
    Tensor mlp;
    {
        Tensor normed = ops_.rmsNorm(h, param(l, 8));
        // down_proj(act_fn(gate_proj(x)) * up_proj(x))
        Tensor gate = ops_.silu(ops_.linear(normed, param(l, 4), nullptr));
        Tensor up = ops_.linear(normed, param(l, 5), nullptr);
        Tensor prod = ops_.mul(gate, up);
        gate.reset();
        up.reset();
        mlp = ops_.linear(prod, param(l, 6), nullptr);
    }
    return ops_.add(h, mlp);
}

} // namespace memviz::costmodel::sim

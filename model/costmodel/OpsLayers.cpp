// SPDX-License-Identifier: MIT
// Matrix products, convolution, normalisation, pooling and embedding.
#include "costmodel/Ops.h"

namespace memviz::costmodel::sim {

namespace {
Tensor freshNoSample(Graph& g, const Shape& shape, DType dtype) { return g.empty(shape, dtype, Category::Temporaries); }

// What one JIT-compiled bf16 product kernel of oneDNN holds under PyTorch 2.13 on the CPU:
// measured 0.260-0.277 MiB per new product (mm, addmm, bmm; any shape), 10.39 MiB for 40.
constexpr std::int64_t kBf16GemmKernelBytes = 272384; // 266 KiB
} // namespace

void Ops::gemm(Graph& graph, const char* op, const Shape& a, const Shape& b, DType dtype, int role) {
    if (cfg.device != DeviceKind::Cpu || cfg.torch != TorchVersion::V2 || dtype != DType::BF16) return;
    std::string key = std::string(op) + "/" + std::to_string(role);
    for (const Shape* s : {&a, &b})
        for (std::int64_t d : *s) key += "," + std::to_string(d);
    if (!gemmKernels_.insert(key).second || gemmPreloaded_) return;
    gemmKernelBlocks_.push_back(graph.empty({kBf16GemmKernelBytes}, DType::U8, Category::Overhead));
}

void Ops::preloadGemmKernels(int n) {
    for (int i = 0; i < n; ++i) gemmKernelBlocks_.push_back(g.empty({kBf16GemmKernelBytes}, DType::U8, Category::Overhead));
    gemmPreloaded_ = true;
}

Tensor Ops::addmm(const Tensor& x, const Tensor& w, const Tensor* b) {
    const std::int64_t n = x.dim(0), in = x.dim(1), outF = w.dim(0);
    Tensor y = out({n, outF}, x.dtype());
    gemm(g, b ? "addmm" : "mm", x.shape(), w.shape(), x.dtype(), 0);
    g.op(b ? "aten.addmm" : "aten.mm");
    const DType wt = w.dtype();
    const Shape wShape = w.shape();
    const Shape bShape = b ? b->shape() : Shape{};
    // AddmmBackward0 saves mat1 (the input) and mat2 (the transposed weight, a view).
    // Gradients: mat1 = grad @ W (if needed), mat2 = (grad^T @ x)^T, bias = grad.sum(0).
    auto fn = [this, n, in, outF, wt, wShape, bShape](Graph& gr, Node& node, std::vector<Tensor>& grads) {
        std::vector<Tensor> r(3);
        const DType dt = grads[0].dtype();
        if (node.needs(1)) {
            gemm(gr, "mm", {n, outF}, wShape, dt, 1);
            r[1] = fresh(gr, {n, in}, dt, "aten.mm");
        }
        if (node.needs(2)) {
            gemm(gr, "mm", {outF, n}, {n, in}, dt, 2);
            r[2] = fresh(gr, wShape, wt, "aten.mm");
        }
        if (node.needs(0)) r[0] = fresh(gr, {1, outF}, dt, "aten.sum");
        (void)bShape;
        return r;
    };
    // mat1 is saved only when mat2 needs a gradient and vice versa (a frozen weight: no input).
    std::vector<Tensor> saved;
    if (w.requiresGrad()) saved.push_back(x);
    if (x.requiresGrad()) saved.push_back(w);
    if (b) g.record("AddmmBackward0", {&y}, {b, &x, &w}, std::move(saved), fn);
    else g.record("MmBackward0", {&y}, {nullptr, &x, &w}, std::move(saved), fn);
    return y;
}

Tensor Ops::mm(const Tensor& a, const Tensor& w, Shape outShape) {
    Tensor y = out(std::move(outShape), a.dtype());
    gemm(g, "mm", a.shape(), w.shape(), a.dtype(), 0);
    g.op("aten.mm");
    const Shape as = a.shape(), ws = w.shape();
    const DType wt = w.dtype();
    // MmBackward0: mat2's gradient first, then self's.
    std::vector<Tensor> saved;
    if (w.requiresGrad()) saved.push_back(a);
    if (a.requiresGrad()) saved.push_back(w);
    g.record("MmBackward0", {&y}, {&a, &w}, std::move(saved), [this, as, ws, wt](Graph& gr, Node& n, std::vector<Tensor>& grads) {
        std::vector<Tensor> r(2);
        if (n.needs(1)) {
            gemm(gr, "mm", as, ws, grads[0].dtype(), 2);
            r[1] = fresh(gr, ws, wt, "aten.mm");
        }
        if (n.needs(0)) {
            gemm(gr, "mm", as, ws, grads[0].dtype(), 1);
            r[0] = fresh(gr, as, grads[0].dtype(), "aten.mm");
        }
        return r;
    });
    return y;
}

Tensor Ops::linear(const Tensor& xIn, const Tensor& wIn, const Tensor* bIn) {
    Tensor x = forAutocast(xIn, true), w = forAutocast(wIn, true);
    Tensor bCast;
    if (bIn) bCast = forAutocast(*bIn, true);
    const Tensor* b = bIn ? &bCast : nullptr;
    const std::int64_t in = x.shape().back(), outF = w.dim(0);
    Shape outShape = x.shape();
    outShape.back() = outF;
    if (x.rank() == 2) return addmm(x, w, b);
    if (x.contiguous) { // folded into one addmm over the flattened leading dims
        Tensor y = addmm(view(x, {x.numel() / in, in}), w, b);
        return view(y, outShape);
    }
    // A non-contiguous input (nn.MultiheadAttention's transposed query) goes through matmul:
    // a contiguous copy, mm, then the bias added out of place.
    Tensor c = clone(x);
    Tensor y = mm(view(c, {c.numel() / in, in}), w, {c.numel() / in, outF});
    c.reset();
    Tensor y3 = view(y, outShape);
    y.reset();
    if (!b) return y3;
    return add(y3, *b);
}

Tensor Ops::bmm(const Tensor& aIn, const Tensor& bIn) {
    Tensor a = forAutocast(aIn, true), b = forAutocast(bIn, true);
    Tensor y = out({a.dim(0), a.dim(1), b.dim(2)}, a.dtype());
    gemm(g, "bmm", a.shape(), b.shape(), a.dtype(), 0);
    g.op("aten.bmm");
    const Shape as = a.shape(), bs = b.shape();
    // BmmBackward0 saves both operands; mat2's gradient is computed first.
    std::vector<Tensor> saved;
    if (b.requiresGrad()) saved.push_back(a);
    if (a.requiresGrad()) saved.push_back(b);
    g.record("BmmBackward0", {&y}, {&a, &b}, std::move(saved), [this, as, bs](Graph& gr, Node& n, std::vector<Tensor>& grads) {
        std::vector<Tensor> r(2);
        if (n.needs(1)) {
            gemm(gr, "bmm", as, bs, grads[0].dtype(), 2);
            r[1] = fresh(gr, bs, grads[0].dtype(), "aten.bmm");
        }
        if (n.needs(0)) {
            gemm(gr, "bmm", as, bs, grads[0].dtype(), 1);
            r[0] = fresh(gr, as, grads[0].dtype(), "aten.bmm");
        }
        return r;
    });
    return y;
}

Tensor Ops::flashAttention(const Tensor& q, const Tensor& k, const Tensor& v) {
    const std::int64_t bh = q.dim(0), s = q.dim(1);
    Tensor o = out({bh, s, v.dim(2)}, q.dtype()); // the value's head size (latent attention's differs)
    Tensor lse = out({bh, s}, DType::F32);
    g.op("aten._scaled_dot_product_flash_attention");
    const Shape qs = q.shape(), ks = k.shape(), vs = v.shape();
    g.record("ScaledDotProductFlashAttentionBackward0", {&o}, {&q, &k, &v}, {q, k, v, o, lse},
             [qs, ks, vs, bh, s](Graph& gr, Node& n, std::vector<Tensor>& grads) {
                 const DType dt = grads[0].dtype();
                 std::vector<Tensor> r(3);
                 Tensor accum = freshNoSample(gr, qs, DType::F32); // dq accumulator
                 Tensor delta = freshNoSample(gr, {bh, s}, DType::F32);
                 r[0] = freshNoSample(gr, qs, dt);
                 r[1] = freshNoSample(gr, ks, dt);
                 r[2] = freshNoSample(gr, vs, dt);
                 gr.op("aten._scaled_dot_product_flash_attention_backward");
                 for (std::size_t i = 0; i < 3; ++i)
                     if (!n.needs(i)) r[i].reset();
                 return r;
             });
    return o;
}

Tensor Ops::conv2d(const Tensor& xIn, const Tensor& wIn, const Tensor* bIn, const Conv2dGeometry& geo, std::int64_t outChannels) {
    Tensor x = forAutocast(xIn, true), w = forAutocast(wIn, true);
    Tensor bCast;
    if (bIn) bCast = forAutocast(*bIn, true);
    const std::int64_t n = x.dim(0), cin = x.dim(1);
    const std::int64_t ho = (x.dim(2) + 2 * geo.ph - geo.kh) / geo.sh + 1;
    const std::int64_t wo = (x.dim(3) + 2 * geo.pw - geo.kw) / geo.sw + 1;
    Tensor y = out({n, outChannels, ho, wo}, x.dtype());
    // Scratch inside the op (not visible between ops). CPU fp32 (oneDNN): a buffer the size of
    // the output (blocked layout, reordered to NCHW). CPU half precision and fp64 without
    // oneDNN support (1.13 on AVX2): slow_conv2d's im2col of the whole batch.
    std::int64_t scratch = 0;
    const bool oneDnn = x.dtype() == DType::F32;
    const bool pointwise = geo.kh == 1 && geo.kw == 1 && geo.sh == 1 && geo.sw == 1 && geo.ph == 0 && geo.pw == 0;
    const std::int64_t columns = pointwise ? 0 : n * cin * geo.kh * geo.kw * ho * wo * elementSize(x.dtype());
    if (cfg.device == DeviceKind::Cpu) scratch = oneDnn ? y.bytes() : columns;
    g.mem.intraOp(scratch);
    g.op("aten.convolution");
    const Shape xs = x.shape(), ws = w.shape();
    const DType wt = w.dtype();
    const bool hasBias = bIn != nullptr;
    const std::int64_t backScratch = cfg.device == DeviceKind::Cpu && !oneDnn ? columns : 0;
    // ConvolutionBackward0 saves input and weight; one op returns all three gradients.
    g.record("ConvolutionBackward0", {&y}, {&x, &w, hasBias ? &bCast : nullptr}, {x, w},
             [xs, ws, wt, hasBias, outChannels, backScratch](Graph& gr, Node& node, std::vector<Tensor>& grads) {
                 std::vector<Tensor> r(3);
                 const DType dt = grads[0].dtype();
                 if (node.needs(0)) r[0] = freshNoSample(gr, xs, dt);
                 if (node.needs(1)) r[1] = freshNoSample(gr, ws, wt);
                 if (hasBias && node.needs(2)) r[2] = freshNoSample(gr, {outChannels}, wt);
                 gr.mem.intraOp(backScratch);
                 gr.op("aten.convolution_backward");
                 return r;
             });
    return y;
}

Tensor Ops::batchNorm(const Tensor& x, const Tensor& w, const Tensor& b) {
    const std::int64_t c = x.dim(1);
    Tensor y = out(x.shape(), x.dtype());
    if (!cfg.training) { // running statistics; save_mean/invstd are empty
        g.op("aten.native_batch_norm");
        return y;
    }
    Tensor mean = out({c}, DType::F32), invstd = out({c}, DType::F32);
    g.op("aten.native_batch_norm");
    const Shape xs = x.shape();
    const DType wt = w.dtype();
    // NativeBatchNormBackward0 saves input, weight and the per-channel statistics.
    g.record("NativeBatchNormBackward0", {&y}, {&x, &w, &b}, {x, w, mean, invstd},
             [xs, c, wt](Graph& gr, Node& node, std::vector<Tensor>& grads) {
                 std::vector<Tensor> r(3);
                 r[0] = freshNoSample(gr, xs, grads[0].dtype());
                 if (node.needs(1)) r[1] = freshNoSample(gr, {c}, wt);
                 if (node.needs(2)) r[2] = freshNoSample(gr, {c}, wt);
                 gr.op("aten.native_batch_norm_backward");
                 if (!node.needs(0)) r[0].reset();
                 return r;
             });
    return y;
}

Tensor Ops::layerNorm(const Tensor& xIn, const Tensor& w, const Tensor* b) {
    Tensor x = forAutocast(xIn, false);
    Shape stat = x.shape();
    stat.back() = 1;
    Tensor y = out(x.shape(), x.dtype());
    Tensor mean = out(stat, DType::F32), rstd = out(stat, DType::F32);
    g.op("aten.native_layer_norm");
    const Shape xs = x.shape(), ws = w.shape();
    const DType wt = w.dtype();
    const bool hasBias = b != nullptr;
    g.record("NativeLayerNormBackward0", {&y}, {&x, &w, b}, {x, w, mean, rstd},
             [xs, ws, wt, hasBias](Graph& gr, Node& node, std::vector<Tensor>& grads) {
                 std::vector<Tensor> r(3);
                 r[0] = freshNoSample(gr, xs, grads[0].dtype());
                 if (node.needs(1)) r[1] = freshNoSample(gr, ws, wt);
                 if (hasBias && node.needs(2)) r[2] = freshNoSample(gr, ws, wt);
                 gr.op("aten.native_layer_norm_backward");
                 if (!node.needs(0)) r[0].reset();
                 return r;
             });
    return y;
}

Tensor Ops::rmsNorm(const Tensor& xIn, const Tensor& w) {
    // Llama's RMSNorm (transformers): h = x.to(float32); v = h.pow(2).mean(-1, keepdim=True);
    // h = h * torch.rsqrt(v + eps); return weight * h.to(input_dtype)
    Tensor h = castTo(xIn, DType::F32);
    Shape stat = h.shape();
    stat.back() = 1;
    Tensor v;
    {
        Tensor sq = unary(h, "aten.pow", "aten.pow_backward", false, "PowBackward0");
        v = out(stat, DType::F32);
        g.op("aten.mean");
        const Shape hs = h.shape();
        // 1.13's mean.dim keeps its input for backward (measured: h.pow(2) stays alive); 2.x's
        // keeps only sizes (the CUDA snapshots of bench/snapshot_replay: no such block survives)
        std::vector<Tensor> keep;
        if (cfg.torch == TorchVersion::V1_13) keep.push_back(sq);
        g.record("MeanBackward1", {&v}, {&sq}, std::move(keep), [hs](Graph& gr, Node&, std::vector<Tensor>& grads) {
            return std::vector<Tensor>{fresh(gr, hs, grads[0].dtype(), "aten.div")};
        });
    }
    Tensor r;
    {
        Tensor ve = divScalar(v); // v + eps: a [.., 1] temporary
        v.reset();
        r = unary(ve, "aten.rsqrt", "aten.rsqrt_backward", true, "RsqrtBackward0");
    }
    Tensor normed = mul(h, r);
    h.reset();
    r.reset();
    Tensor back = castTo(normed, xIn.dtype());
    normed.reset();
    return mul(back, w);
}

Tensor Ops::maxPool2d(const Tensor& x, Shape outShape) {
    Tensor y = out(outShape, x.dtype());
    Tensor indices = out(outShape, DType::I64); // returned (and sampled) even without grad
    g.op("aten.max_pool2d_with_indices");
    const Shape xs = x.shape();
    g.record("MaxPool2DWithIndicesBackward0", {&y}, {&x}, {x, indices}, [xs](Graph& gr, Node&, std::vector<Tensor>& grads) {
        return std::vector<Tensor>{fresh(gr, xs, grads[0].dtype(), "aten.max_pool2d_with_indices_backward")};
    });
    return y;
}

Tensor Ops::avgPool2d(const Tensor& x, Shape outShape) {
    Tensor y = out(std::move(outShape), x.dtype());
    g.op("aten.avg_pool2d");
    const Shape xs = x.shape();
    g.record("AvgPool2DBackward0", {&y}, {&x}, {x}, [xs](Graph& gr, Node&, std::vector<Tensor>& grads) {
        return std::vector<Tensor>{fresh(gr, xs, grads[0].dtype(), "aten.avg_pool2d_backward")};
    });
    return y;
}

Tensor Ops::adaptiveAvgPool2d(const Tensor& x, Shape outShape) {
    const Shape xs = x.shape();
    Tensor y = out(outShape, x.dtype());
    if (outShape[2] == 1 && outShape[3] == 1) { // 1.13 computes a 1x1 output as x.mean((-2, -1))
        g.op("aten.mean");
        g.record("MeanBackward1", {&y}, {&x}, {}, [xs](Graph& gr, Node&, std::vector<Tensor>& grads) {
            return std::vector<Tensor>{fresh(gr, xs, grads[0].dtype(), "aten.div")}; // expand, then / (h*w)
        });
        return y;
    }
    g.op("aten._adaptive_avg_pool2d");
    g.record("AdaptiveAvgPool2DBackward0", {&y}, {&x}, {x}, [xs](Graph& gr, Node&, std::vector<Tensor>& grads) {
        return std::vector<Tensor>{fresh(gr, xs, grads[0].dtype(), "aten._adaptive_avg_pool2d_backward")};
    });
    return y;
}

Tensor Ops::embedding(const Tensor& ids, const Tensor& w) {
    Shape s = ids.shape();
    s.push_back(w.dim(1));
    Tensor y = out(s, w.dtype());
    g.op("aten.embedding");
    const Shape ws = w.shape();
    const DType wt = w.dtype();
    // EmbeddingBackward0 saves the indices; the dense backward allocates a full weight gradient.
    g.record("EmbeddingBackward0", {&y}, {&w}, {ids}, [ws, wt](Graph& gr, Node&, std::vector<Tensor>&) {
        return std::vector<Tensor>{fresh(gr, ws, wt, "aten.embedding_dense_backward")};
    });
    return y;
}

Tensor Ops::fusedEncoderLayer(const Tensor& x, std::int64_t heads, std::int64_t ff) {
    const std::int64_t b = x.dim(0), s = x.dim(1), e = x.dim(2);
    const int es = elementSize(x.dtype());
    // Inside the kernel (estimate; the measured hidden_intra_op_bytes of transformer-proj in
    // fp32 are 5 x B*S*E): either qkv, the attention matrix and its output, or the
    // feed-forward hidden state and the attention block's output.
    g.mem.intraOp(b * std::max(s * (4 * e) + heads * s * s, s * (ff + e)) * es);
    Tensor y = out(x.shape(), x.dtype());
    g.op("aten._transformer_encoder_layer_fwd");
    return y;
}

} // namespace memviz::costmodel::sim

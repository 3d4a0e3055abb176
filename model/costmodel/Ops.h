// SPDX-License-Identifier: MIT
#pragma once
// Simulated aten ops: each allocates its outputs as PyTorch 1.13 does, is sampled, and records
// an autograd node with the tensors the real op saves for backward and a backward formula that
// allocates what the real derivative allocates (tools/autograd/derivatives.yaml). Device
// differences (CPU dropout keeps a float mask, CUDA a bool one; oneDNN/im2col scratch inside
// convolutions) and autocast (lower-precision copies of inputs and cached weights) live here.
#include <set>
#include <string>
#include <unordered_map>
#include <vector>

#include "costmodel/Autograd.h"
#include "costmodel/MemorySim.h"
#include "costmodel/Optimizer.h"

namespace memviz::costmodel::sim {

// A gradient (or other backward temporary) allocated by one op, counted as that op's sample.
inline Tensor fresh(Graph& g, const Shape& shape, DType dtype, const char* op) {
    Tensor t = g.empty(shape, dtype, Category::Temporaries);
    g.op(op);
    return t;
}

struct OpsConfig {
    DeviceKind device = DeviceKind::Cpu;
    bool training = true;    // module.training: dropout active, BatchNorm uses batch statistics
    DType lowp = DType::F16; // the autocast dtype
    TorchVersion torch = TorchVersion::V2; // 1.13's mean.dim keeps its input for backward, 2.x's does not
};

struct Conv2dGeometry {
    std::int64_t kh = 1, kw = 1, sh = 1, sw = 1, ph = 0, pw = 0, groups = 1;
};

class Ops {
public:
    Ops(Graph& graph, OpsConfig config) : g(graph), cfg(config) {}
    Graph& g;
    OpsConfig cfg;

    // autocast: on while a forward runs under torch.autocast
    bool autocast = false;
    void clearAutocastCache() { castCache_.clear(); }
    // PyTorch 2.x on the CPU runs bf16 matrix products through oneDNN, which keeps the kernel it
    // JIT-compiles for each new product (op, operand shapes, layout) for the life of the process,
    // whatever ONEDNN_PRIMITIVE_CACHE_CAPACITY says: ~0.26 MiB each (bench/costmodel/README.md,
    // "Library caches"). `gemm` adds one the first time a product is run; 1.13, fp32 and CUDA
    // keep none.
    void gemm(Graph& graph, const char* op, const Shape& a, const Shape& b, DType dtype, int role);
    int gemmKernelCount() const { return static_cast<int>(gemmKernels_.size()); }
    // A step after the first finds the kernels of the earlier ones alive from its start: `n`
    // blocks now, and `gemm` adds none.
    void preloadGemmKernels(int n);

    // --- views and copies
    Tensor view(const Tensor& x, Shape shape, bool contiguous = true) { return g.alias(x, std::move(shape), contiguous); }
    Tensor clone(const Tensor& x);                // contiguous copy; backward passes through
    Tensor reshape(const Tensor& x, Shape shape); // view if contiguous, else clone + view
    // A view whose backward reshapes a non-contiguous gradient (the reshape copies it).
    Tensor viewWithGradCopy(const Tensor& x, Shape shape, bool contiguous);
    std::vector<Tensor> chunk(const Tensor& x, int chunks); // along the last dim
    Tensor cat(const std::vector<Tensor>& parts, int dim);
    Tensor select(const Tensor& x, Shape shape);            // x[:, i] and slices: backward allocates x's size
    Tensor expand(const Tensor& x, Shape shape);            // a broadcast view: backward sums to x's size
    // torch.gather(x, dim, index): a new tensor of `shape`; autograd saves x itself and the index
    // (derivatives.yaml: gather_backward(grad, self, dim, index)), backward scatters into zeros of x's size
    Tensor gather(const Tensor& x, const Tensor& index, Shape shape);
    Tensor castTo(const Tensor& x, DType dtype);            // .to(dtype); cached for parameters under autocast
    Tensor forAutocast(const Tensor& x, bool lowPrecision); // what an autocast op computes on

    // --- element-wise
    Tensor add(const Tensor& a, const Tensor& b); // b may broadcast (bias, positions)
    Tensor addInPlace(const Tensor& a, const Tensor& b); // a += b: a's storage, the gradient passes to both
    Tensor mul(const Tensor& a, const Tensor& b);
    Tensor mulConst(const Tensor& a, const Tensor& buffer); // times a tensor that needs no grad
    Tensor neg(const Tensor& a);
    Tensor divScalar(const Tensor& a);
    Tensor scalarOp(const Tensor& a, const char* name); // a (op) a Python number: nothing saved
    Tensor powScalar(const Tensor& x);                  // x ** c: saves x
    Tensor where(const Tensor& mask, const Tensor& x);  // torch.where(mask, x, scalar): saves the mask
    Tensor relu(const Tensor& x);
    Tensor gelu(const Tensor& x);
    Tensor silu(const Tensor& x);
    Tensor sigmoid(const Tensor& x);
    Tensor tanh(const Tensor& x);
    Tensor dropout(const Tensor& x, double p);
    Tensor softmax(const Tensor& x, DType outDtype); // softmax(x, dtype=outDtype): a cast first when it differs
    // Written by hand over the last dim (OpsManual.cpp): softmax as e = exp(x - max(x)),
    // e / sum(e); log-softmax as (x - max) - log(sum(exp(x - max))), each op its own tensors.
    Tensor manualSoftmax(const Tensor& x);
    Tensor manualLogSoftmax(const Tensor& x);
    // scaled_dot_product_attention's flash / memory-efficient kernel over [B*H, S, hd]: the
    // output and a fp32 log-sum-exp [B*H, S] (saved with q, k, v); backward: dq, dk, dv and a
    // fp32 dq accumulator. Modelled from FlashAttention-2 / PyTorch 2's SDPA, not measured.
    Tensor flashAttention(const Tensor& q, const Tensor& k, const Tensor& v);
    // A frozen quantized weight (flat bytes) dequantized to `dtype` with its logical shape.
    Tensor dequantize(const Tensor& stored, const Shape& shape, DType dtype);

    // --- matrix products
    Tensor linear(const Tensor& x, const Tensor& w, const Tensor* b);
    Tensor addmm(const Tensor& x2d, const Tensor& w, const Tensor* b);
    Tensor mm(const Tensor& a, const Tensor& bT, Shape out); // a @ b^T style, shapes given
    Tensor bmm(const Tensor& a, const Tensor& b);            // [B,n,k] x [B,k,m]

    // --- layers
    Tensor conv2d(const Tensor& x, const Tensor& w, const Tensor* b, const Conv2dGeometry& geo, std::int64_t outChannels);
    Tensor batchNorm(const Tensor& x, const Tensor& w, const Tensor& b);
    Tensor layerNorm(const Tensor& x, const Tensor& w, const Tensor* b);
    Tensor rmsNorm(const Tensor& x, const Tensor& w);
    Tensor maxPool2d(const Tensor& x, Shape out);
    Tensor avgPool2d(const Tensor& x, Shape out);
    Tensor adaptiveAvgPool2d(const Tensor& x, Shape out);
    Tensor embedding(const Tensor& ids, const Tensor& w);
    // nn.TransformerEncoderLayer's fused inference kernel (eval + no_grad): one output,
    // internals invisible between ops.
    Tensor fusedEncoderLayer(const Tensor& x, std::int64_t heads, std::int64_t ff);

    // --- losses (mean reduction)
    Tensor crossEntropy(const Tensor& logits, const Tensor& target);
    Tensor mseLoss(const Tensor& out, const Tensor& target);
    // mean(gather(-manualLogSoftmax(x), -1, target[..., None])): cross-entropy written by hand.
    Tensor manualCrossEntropy(const Tensor& logits, const Tensor& target);

private:
    Tensor out(Shape shape, DType dtype) { return g.empty(std::move(shape), dtype); }
    Tensor unary(const Tensor& x, const char* name, const char* backwardName, bool savesOutput, const char* node);
    Tensor reduceLast(const Tensor& x, const char* name, bool withIndices); // max / sum over the last dim, keepdim
    Tensor divide(const Tensor& a, const Tensor& b);                       // a / b, b broadcast over the last dim
    std::unordered_map<int, Tensor> castCache_;
    std::set<std::string> gemmKernels_;
    std::vector<Tensor> gemmKernelBlocks_;
    bool gemmPreloaded_ = false;
};

DType promote(DType a, DType b);

} // namespace memviz::costmodel::sim

// SPDX-License-Identifier: MIT
// Softmax, log-softmax and cross-entropy written by hand with element-wise ops and reductions,
// as course and research code often does (max, subtract, exp, sum, divide or log): every step
// allocates its own tensor and saves what its derivative needs, unlike the fused kernels.
// Autocast: exp, log and sum run in float32 (PyTorch's autocast float32 list), max in the
// input's dtype; a float32 operand promotes the subtraction that meets it.
#include "costmodel/Ops.h"

namespace memviz::costmodel::sim {

namespace {
Shape keepLast(Shape s) {
    s.back() = 1;
    return s;
}
} // namespace

Tensor Ops::reduceLast(const Tensor& x, const char* name, bool withIndices) {
    const Shape whole = x.shape(), stat = keepLast(x.shape());
    const DType dt = x.dtype();
    Tensor y = out(stat, dt);
    if (withIndices) { // max(dim, keepdim): values and int64 indices; the indices are saved
        Tensor indices = out(stat, DType::I64);
        g.op(name);
        // value_selecting_reduction_backward: zeros of the input's size, the gradient scattered in
        g.record("MaxBackward0", {&y}, {&x}, {indices}, [whole, dt](Graph& gr, Node&, std::vector<Tensor>&) {
            return std::vector<Tensor>{fresh(gr, whole, dt, "aten.scatter")};
        });
        return y;
    }
    g.op(name);
    // sum(dim, keepdim) backward: the gradient expanded to the input's shape, a view
    g.record("SumBackward1", {&y}, {&x}, {}, [whole](Graph& gr, Node&, std::vector<Tensor>& grads) {
        return std::vector<Tensor>{gr.alias(grads[0], whole, false)};
    });
    return y;
}

Tensor Ops::divide(const Tensor& a, const Tensor& b) {
    const Shape as = a.shape(), bs = b.shape();
    Tensor y = out(as, promote(a.dtype(), b.dtype()));
    g.op("aten.div");
    std::vector<Tensor> saved{b};
    if (b.requiresGrad()) saved.push_back(a);
    // DivBackward0: grad / b for a; -grad * a / (b * b), summed to b's shape, for b
    g.record("DivBackward0", {&y}, {&a, &b}, std::move(saved), [as, bs](Graph& gr, Node& n, std::vector<Tensor>& grads) {
        std::vector<Tensor> r(2);
        const DType dt = grads[0].dtype();
        if (n.needs(0)) r[0] = fresh(gr, as, dt, "aten.div");
        if (n.needs(1)) {
            Tensor t = fresh(gr, as, dt, "aten.mul");
            Tensor u = fresh(gr, as, dt, "aten.div");
            t.reset();
            r[1] = fresh(gr, bs, dt, "aten.sum");
        }
        return r;
    });
    return y;
}

Tensor Ops::manualSoftmax(const Tensor& x) {
    // rescaled = x - max(x, -1, keepdim)[0]; e = exp(rescaled); e / sum(e, -1, keepdim): the
    // locals rescaled and e live until the function returns
    Tensor rescaled;
    {
        Tensor mx = reduceLast(x, "aten.max", true);
        rescaled = add(x, mx);
    }
    Tensor e = unary(forAutocast(rescaled, false), "aten.exp", "aten.mul", true, "ExpBackward0");
    Tensor total = reduceLast(e, "aten.sum", false);
    return divide(e, total);
}

Tensor Ops::manualLogSoftmax(const Tensor& x) {
    // x = x - max(x, -1, keepdim)[0]; x - log(sum(exp(x), -1, keepdim))
    Tensor rescaled;
    {
        Tensor mx = reduceLast(x, "aten.max", true);
        rescaled = add(x, mx);
    }
    Tensor lse;
    {
        Tensor e = unary(forAutocast(rescaled, false), "aten.exp", "aten.mul", true, "ExpBackward0");
        Tensor total = reduceLast(e, "aten.sum", false);
        e.reset();
        lse = unary(total, "aten.log", "aten.div", false, "LogBackward0");
    }
    return add(rescaled, lse);
}

Tensor Ops::manualCrossEntropy(const Tensor& logits, const Tensor& target) {
    Tensor picked;
    {
        Tensor nll = neg(manualLogSoftmax(logits));
        // gather keeps -log_softmax(logits) alive until the backward reaches it
        picked = gather(nll, target, keepLast(nll.shape()));
    }
    const Shape ps = picked.shape();
    Tensor loss = out({}, picked.dtype());
    g.op("aten.mean");
    g.record("MeanBackward0", {&loss}, {&picked}, {}, [ps](Graph& gr, Node&, std::vector<Tensor>& grads) {
        return std::vector<Tensor>{fresh(gr, ps, grads[0].dtype(), "aten.expand")};
    });
    return loss;
}

} // namespace memviz::costmodel::sim

// SPDX-License-Identifier: MIT
// Views, copies, casts, element-wise ops and losses.
#include "costmodel/Ops.h"

namespace memviz::costmodel::sim {

namespace {
// What the grad of a broadcast operand costs: sum over the broadcast dims.
Tensor reduceTo(Graph& g, const Tensor& grad, const Shape& shape) {
    if (grad.shape() == shape) return grad;
    return fresh(g, shape, grad.dtype(), "aten.sum");
}
} // namespace

DType promote(DType a, DType b) {
    if (a == b) return a;
    if (a == DType::F64 || b == DType::F64) return DType::F64;
    if (a == DType::F32 || b == DType::F32) return DType::F32;
    return isFloating(a) ? a : b;
}

Tensor Ops::clone(const Tensor& x) {
    Tensor y = out(x.shape(), x.dtype());
    g.op("aten.clone");
    g.record("CloneBackward0", {&y}, {&x}, {},
             [](Graph&, Node&, std::vector<Tensor>& grads) { return std::vector<Tensor>{grads[0]}; });
    return y;
}

Tensor Ops::reshape(const Tensor& x, Shape shape) {
    if (x.contiguous) return view(x, std::move(shape));
    Tensor c = clone(x);
    return view(c, std::move(shape));
}

Tensor Ops::viewWithGradCopy(const Tensor& x, Shape shape, bool contiguous) {
    Tensor y = g.alias(x, std::move(shape), contiguous);
    const Shape inShape = x.shape();
    g.record("ViewBackward0", {&y}, {&x}, {}, [inShape](Graph& gr, Node&, std::vector<Tensor>& grads) {
        return std::vector<Tensor>{fresh(gr, inShape, grads[0].dtype(), "aten.clone")};
    });
    return y;
}

std::vector<Tensor> Ops::chunk(const Tensor& x, int chunks) {
    Shape part = x.shape();
    part.back() /= chunks;
    std::vector<Tensor> parts;
    for (int i = 0; i < chunks; ++i) parts.push_back(g.alias(x, part, false));
    if (!g.gradEnabled || !x.requiresGrad()) return parts;
    const Shape whole = x.shape();
    // SplitBackward: the chunks' gradients are concatenated (undefined ones become zeros).
    Tensor* outs[3] = {&parts[0], chunks > 1 ? &parts[1] : nullptr, chunks > 2 ? &parts[2] : nullptr};
    auto fn = [whole](Graph& gr, Node&, std::vector<Tensor>& grads) {
        DType dt = DType::F32;
        for (const Tensor& gd : grads)
            if (gd.defined()) dt = gd.dtype();
        return std::vector<Tensor>{fresh(gr, whole, dt, "aten.cat")};
    };
    if (chunks == 3) g.record("SplitBackward0", {outs[0], outs[1], outs[2]}, {&x}, {}, fn);
    else if (chunks == 2) g.record("SplitBackward0", {outs[0], outs[1]}, {&x}, {}, fn);
    else g.record("SplitBackward0", {outs[0]}, {&x}, {}, fn);
    return parts;
}

Tensor Ops::cat(const std::vector<Tensor>& parts, int dim) {
    Shape shape = parts[0].shape();
    const std::size_t d = static_cast<std::size_t>(dim < 0 ? static_cast<int>(shape.size()) + dim : dim);
    shape[d] = 0;
    DType dt = parts[0].dtype();
    for (const Tensor& p : parts) {
        shape[d] += p.shape()[d];
        dt = promote(dt, p.dtype());
    }
    Tensor y = out(shape, dt);
    g.op("aten.cat");
    if (parts.size() == 2) {
        const Shape s0 = parts[0].shape(), s1 = parts[1].shape();
        // CatBackward: the gradient's slices, views without a copy.
        g.record("CatBackward0", {&y}, {&parts[0], &parts[1]}, {}, [s0, s1](Graph& gr, Node&, std::vector<Tensor>& grads) {
            return std::vector<Tensor>{gr.alias(grads[0], s0, false), gr.alias(grads[0], s1, false)};
        });
    }
    return y;
}

Tensor Ops::select(const Tensor& x, Shape shape) {
    Tensor y = g.alias(x, std::move(shape), false);
    const Shape whole = x.shape();
    // SelectBackward/SliceBackward: zeros of the input's size with the gradient copied in.
    g.record("SelectBackward0", {&y}, {&x}, {}, [whole](Graph& gr, Node&, std::vector<Tensor>& grads) {
        return std::vector<Tensor>{fresh(gr, whole, grads[0].dtype(), "aten.select_backward")};
    });
    return y;
}

Tensor Ops::expand(const Tensor& x, Shape shape) {
    Tensor y = g.alias(x, std::move(shape), false);
    const Shape small = x.shape();
    g.record("ExpandBackward0", {&y}, {&x}, {}, [small](Graph& gr, Node&, std::vector<Tensor>& grads) {
        return std::vector<Tensor>{fresh(gr, small, grads[0].dtype(), "aten.sum")};
    });
    return y;
}

Tensor Ops::gather(const Tensor& x, const Tensor& index, Shape shape) {
    Tensor y = out(std::move(shape), x.dtype());
    g.op("aten.gather");
    const Shape whole = x.shape();
    const DType dt = x.dtype();
    g.record("GatherBackward0", {&y}, {&x}, {index, x}, [whole, dt](Graph& gr, Node&, std::vector<Tensor>&) {
        return std::vector<Tensor>{fresh(gr, whole, dt, "aten.scatter_add")};
    });
    return y;
}

Tensor Ops::castTo(const Tensor& x, DType dtype) {
    if (x.dtype() == dtype || !isFloating(x.dtype())) return x;
    // autocast_mode.cpp cached_cast: a leaf that requires grad (an nn.Parameter, also under
    // no_grad; not under inference_mode) keeps its copy until the outermost autocast region exits
    const bool cacheable =
        autocast && x.leaf >= 0 && (x.requiresGrad() || g.leaves[static_cast<std::size_t>(x.leaf)].parameter);
    if (cacheable) {
        auto it = castCache_.find(x.leaf);
        if (it != castCache_.end()) return it->second;
    }
    Tensor y = out(x.shape(), dtype);
    g.op("aten._to_copy");
    const DType from = x.dtype();
    const Shape shape = x.shape();
    g.record("ToCopyBackward0", {&y}, {&x}, {}, [from, shape](Graph& gr, Node&, std::vector<Tensor>&) {
        return std::vector<Tensor>{fresh(gr, shape, from, "aten._to_copy")};
    });
    if (cacheable) castCache_.emplace(x.leaf, y);
    return y;
}

Tensor Ops::forAutocast(const Tensor& x, bool lowPrecision) {
    if (!autocast || !isFloating(x.dtype())) return x;
    return castTo(x, lowPrecision ? cfg.lowp : DType::F32);
}

Tensor Ops::add(const Tensor& a, const Tensor& b) {
    Tensor y = out(a.shape(), promote(a.dtype(), b.dtype()));
    g.op("aten.add");
    const Shape bShape = b.shape();
    const DType bType = b.dtype();
    g.record("AddBackward0", {&y}, {&a, &b}, {}, [bShape, bType](Graph& gr, Node& n, std::vector<Tensor>& grads) {
        std::vector<Tensor> r(2);
        if (n.needs(0)) r[0] = grads[0];
        if (n.needs(1)) {
            r[1] = reduceTo(gr, grads[0], bShape);
            if (r[1].dtype() != bType && isFloating(bType)) r[1] = fresh(gr, bShape, bType, "aten._to_copy");
        }
        return r;
    });
    return y;
}

Tensor Ops::addInPlace(const Tensor& a, const Tensor& b) {
    Tensor y = g.alias(a, a.shape(), a.contiguous);
    g.op("aten.add_");
    const Shape bShape = b.shape();
    g.record("AddBackward0", {&y}, {&a, &b}, {}, [bShape](Graph& gr, Node& n, std::vector<Tensor>& grads) {
        std::vector<Tensor> r(2);
        if (n.needs(0)) r[0] = grads[0];
        if (n.needs(1)) r[1] = reduceTo(gr, grads[0], bShape);
        return r;
    });
    return y;
}

Tensor Ops::mul(const Tensor& a, const Tensor& b) {
    Tensor y = out(a.shape(), promote(a.dtype(), b.dtype()));
    g.op("aten.mul");
    std::vector<Tensor> saved;
    if (b.requiresGrad()) saved.push_back(a);
    if (a.requiresGrad()) saved.push_back(b);
    const Shape as = a.shape(), bs = b.shape();
    g.record("MulBackward0", {&y}, {&a, &b}, std::move(saved), [as, bs](Graph& gr, Node& n, std::vector<Tensor>& grads) {
        std::vector<Tensor> r(2);
        if (n.needs(0)) r[0] = fresh(gr, as, grads[0].dtype(), "aten.mul");
        if (n.needs(1)) r[1] = fresh(gr, bs, grads[0].dtype(), "aten.mul");
        return r;
    });
    return y;
}

Tensor Ops::mulConst(const Tensor& a, const Tensor& buffer) {
    Tensor y = out(a.shape(), a.dtype());
    g.op("aten.mul");
    const Shape as = a.shape();
    g.record("MulBackward0", {&y}, {&a}, {buffer}, [as](Graph& gr, Node&, std::vector<Tensor>& grads) {
        return std::vector<Tensor>{fresh(gr, as, grads[0].dtype(), "aten.mul")};
    });
    return y;
}

Tensor Ops::neg(const Tensor& a) {
    Tensor y = out(a.shape(), a.dtype());
    g.op("aten.neg");
    const Shape as = a.shape();
    g.record("NegBackward0", {&y}, {&a}, {}, [as](Graph& gr, Node&, std::vector<Tensor>& grads) {
        return std::vector<Tensor>{fresh(gr, as, grads[0].dtype(), "aten.neg")};
    });
    return y;
}

Tensor Ops::divScalar(const Tensor& a) {
    Tensor y = out(a.shape(), a.dtype());
    g.op("aten.div");
    const Shape as = a.shape();
    g.record("DivBackward0", {&y}, {&a}, {}, [as](Graph& gr, Node&, std::vector<Tensor>& grads) {
        return std::vector<Tensor>{fresh(gr, as, grads[0].dtype(), "aten.div")};
    });
    return y;
}

Tensor Ops::scalarOp(const Tensor& a, const char* name) {
    Tensor y = out(a.shape(), a.dtype());
    g.op(name);
    const Shape as = a.shape();
    g.record("MulBackward0", {&y}, {&a}, {}, [as](Graph& gr, Node&, std::vector<Tensor>& grads) {
        return std::vector<Tensor>{fresh(gr, as, grads[0].dtype(), "aten.mul")};
    });
    return y;
}

Tensor Ops::powScalar(const Tensor& x) {
    Tensor y = out(x.shape(), x.dtype());
    g.op("aten.pow");
    const Shape shape = x.shape();
    // pow_backward: grad * (c * x.pow(c - 1)): x.pow(c - 1), its product with c, then with grad
    g.record("PowBackward0", {&y}, {&x}, {x}, [shape](Graph& gr, Node&, std::vector<Tensor>& grads) {
        const DType dt = grads[0].dtype();
        Tensor a = fresh(gr, shape, dt, "aten.pow");
        Tensor b = fresh(gr, shape, dt, "aten.mul");
        a.reset();
        return std::vector<Tensor>{fresh(gr, shape, dt, "aten.mul")};
    });
    return y;
}

Tensor Ops::where(const Tensor& mask, const Tensor& x) {
    Tensor y = out(x.shape(), x.dtype());
    g.op("aten.where");
    const Shape shape = x.shape();
    g.record("WhereBackward0", {&y}, {&x}, {mask}, [shape](Graph& gr, Node&, std::vector<Tensor>& grads) {
        return std::vector<Tensor>{fresh(gr, shape, grads[0].dtype(), "aten.where")};
    });
    return y;
}

Tensor Ops::dequantize(const Tensor& stored, const Shape& shape, DType dtype) {
    (void)stored; // read, not differentiated: the quantized weight is frozen
    Tensor w = out(shape, dtype);
    g.op("bnb.dequantize");
    return w;
}

Tensor Ops::unary(const Tensor& x, const char* name, const char* backwardName, bool savesOutput, const char* node) {
    Tensor y = out(x.shape(), x.dtype());
    g.op(name);
    const Shape shape = x.shape();
    g.record(node, {&y}, {&x}, {savesOutput ? y : x}, [shape, backwardName](Graph& gr, Node&, std::vector<Tensor>& grads) {
        return std::vector<Tensor>{fresh(gr, shape, grads[0].dtype(), backwardName)};
    });
    // A node that saves its own output holds a handle on it: that is the same storage.
    return y;
}

Tensor Ops::relu(const Tensor& x) { return unary(x, "aten.relu", "aten.threshold_backward", true, "ReluBackward0"); }
Tensor Ops::gelu(const Tensor& x) { return unary(x, "aten.gelu", "aten.gelu_backward", false, "GeluBackward0"); }
Tensor Ops::silu(const Tensor& x) { return unary(x, "aten.silu", "aten.silu_backward", false, "SiluBackward0"); }
Tensor Ops::sigmoid(const Tensor& x) { return unary(x, "aten.sigmoid", "aten.sigmoid_backward", true, "SigmoidBackward0"); }
Tensor Ops::tanh(const Tensor& x) { return unary(x, "aten.tanh", "aten.tanh_backward", true, "TanhBackward0"); }

Tensor Ops::softmax(const Tensor& xIn, DType outDtype) {
    Tensor x = autocast ? forAutocast(xIn, false) : xIn;
    if (x.dtype() != outDtype) x = castTo(x, outDtype); // softmax(dtype=...) converts its input first
    Tensor y = out(x.shape(), outDtype);
    g.op("aten._softmax");
    const Shape shape = x.shape();
    const DType inType = x.dtype();
    g.record("SoftmaxBackward0", {&y}, {&x}, {y}, [shape, inType](Graph& gr, Node&, std::vector<Tensor>&) {
        return std::vector<Tensor>{fresh(gr, shape, inType, "aten._softmax_backward_data")};
    });
    return y;
}

Tensor Ops::dropout(const Tensor& x, double p) {
    if (!cfg.training || p <= 0) return x;
    const Shape shape = x.shape();
    if (cfg.device == DeviceKind::Cuda) { // native_dropout: output and a bool mask
        Tensor y = out(shape, x.dtype());
        Tensor mask = out(shape, DType::Bool);
        g.op("aten.native_dropout");
        g.record("NativeDropoutBackward0", {&y}, {&x}, {mask}, [shape](Graph& gr, Node&, std::vector<Tensor>& grads) {
            return std::vector<Tensor>{fresh(gr, shape, grads[0].dtype(), "aten.native_dropout_backward")};
        });
        return y;
    }
    // CPU (1.13): empty_like(x).bernoulli_(1-p).div_(1-p), then x * mask; the float mask is saved.
    Tensor mask = out(shape, x.dtype());
    g.op("aten.empty_like");
    Tensor y = out(shape, x.dtype());
    g.op("aten.mul");
    g.record("MulBackward0", {&y}, {&x}, {mask}, [shape](Graph& gr, Node&, std::vector<Tensor>& grads) {
        return std::vector<Tensor>{fresh(gr, shape, grads[0].dtype(), "aten.mul")};
    });
    return y;
}

Tensor Ops::crossEntropy(const Tensor& logitsIn, const Tensor& target) {
    // F.cross_entropy(out.reshape(-1, C), target.reshape(-1)) = nll_loss(log_softmax(x))
    const std::int64_t c = logitsIn.shape().back();
    const std::int64_t n = logitsIn.numel() / c;
    Tensor x = reshape(forAutocast(logitsIn, false), {n, c});
    Tensor logp = out({n, c}, x.dtype());
    g.op("aten._log_softmax");
    const DType dt = x.dtype();
    g.record("LogSoftmaxBackward0", {&logp}, {&x}, {logp}, [n, c, dt](Graph& gr, Node&, std::vector<Tensor>&) {
        return std::vector<Tensor>{fresh(gr, {n, c}, dt, "aten._log_softmax_backward_data")};
    });
    Tensor loss = out({}, dt);
    Tensor totalWeight = out({}, dt);
    g.op("aten.nll_loss_forward");
    // NllLossBackward saves the log-probabilities, the target and total_weight; its backward
    // materialises a dense N x C gradient.
    g.record("NllLossBackward0", {&loss}, {&logp}, {logp, target, totalWeight},
             [n, c, dt](Graph& gr, Node&, std::vector<Tensor>&) {
                 return std::vector<Tensor>{fresh(gr, {n, c}, dt, "aten.nll_loss_backward")};
             });
    return loss;
}

Tensor Ops::mseLoss(const Tensor& outIn, const Tensor& target) {
    Tensor o = forAutocast(outIn, false);
    Tensor loss = out({}, o.dtype());
    g.op("aten.mse_loss");
    const Shape shape = o.shape();
    const DType dt = o.dtype();
    g.record("MseLossBackward0", {&loss}, {&o}, {o, target}, [shape, dt](Graph& gr, Node&, std::vector<Tensor>&) {
        return std::vector<Tensor>{fresh(gr, shape, dt, "aten.mse_loss_backward")};
    });
    return loss;
}

} // namespace memviz::costmodel::sim

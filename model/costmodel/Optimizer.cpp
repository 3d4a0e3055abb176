// SPDX-License-Identifier: MIT
#include "costmodel/Optimizer.h"

namespace memviz::costmodel {

const char* optimizerName(OptimizerKind kind) {
    switch (kind) {
    case OptimizerKind::Sgd: return "sgd";
    case OptimizerKind::Momentum: return "momentum";
    case OptimizerKind::Adam: return "adam";
    case OptimizerKind::AdamW: return "adamw";
    case OptimizerKind::Adagrad: return "adagrad";
    case OptimizerKind::RMSprop: return "rmsprop";
    case OptimizerKind::Lbfgs: return "lbfgs";
    case OptimizerKind::Adam8bit: return "adam8bit";
    case OptimizerKind::Adafactor: return "adafactor";
    }
    return "?";
}

const char* torchVersionName(TorchVersion v) { return v == TorchVersion::V1_13 ? "1.13" : "2.x"; }

const char* optimizerImplName(OptimizerImpl impl) {
    switch (impl) {
    case OptimizerImpl::Auto: return "auto";
    case OptimizerImpl::ForLoop: return "for-loop";
    case OptimizerImpl::Foreach: return "foreach";
    case OptimizerImpl::Fused: return "fused";
    case OptimizerImpl::Manual: return "manual";
    }
    return "?";
}

double stateElementsPerParameter(OptimizerKind kind, int lbfgsHistory) {
    switch (kind) {
    case OptimizerKind::Sgd: return 0;
    case OptimizerKind::Momentum:
    case OptimizerKind::Adagrad:
    case OptimizerKind::RMSprop: return 1;
    case OptimizerKind::Adam:
    case OptimizerKind::AdamW: return 2;
    case OptimizerKind::Lbfgs: return 2 + 2.0 * lbfgsHistory;
    case OptimizerKind::Adam8bit: return 0.5 + 2.0 / 256; // in fp32 elements: 2 bytes + 2 absmax per 256
    case OptimizerKind::Adafactor: return 0;              // rows + columns per matrix: negligible
    }
    return 0;
}

namespace sim {

OptimizerSim::OptimizerSim(Graph& g, const std::vector<Tensor>& params, OptimizerKind kind, OptimizerImpl impl, int lbfgsHistory,
                           int step, TorchVersion torch)
    : g_(g), params_(params), kind_(kind), impl_(impl), torch_(torch), history_(std::max(1, lbfgsHistory)), step_(std::max(1, step)) {
    for (const Tensor& p : params_) flatNumel_ += p.numel();
    if (impl_ == OptimizerImpl::Fused && kind_ != OptimizerKind::Adam && kind_ != OptimizerKind::AdamW)
        impl_ = OptimizerImpl::Foreach; // only Adam/AdamW have a fused kernel
    if (kind_ == OptimizerKind::Lbfgs || kind_ == OptimizerKind::Sgd || kind_ == OptimizerKind::Adafactor)
        impl_ = OptimizerImpl::ForLoop;
}

// bitsandbytes Optimizer8bit.init_state: state1/state2 uint8 with a fp32 absmax per 256-value
// block (blockwise), or fp32 states for parameters under min_8bit_size = 4096 elements.
void OptimizerSim::adam8bitState() {
    for (const Tensor& p : params_) {
        steps_.push_back(g_.empty({}, DType::F32, Category::OptimizerState));
        if (p.numel() < 4096) {
            buf1_.push_back(g_.empty(p.shape(), DType::F32, Category::OptimizerState));
            buf2_.push_back(g_.empty(p.shape(), DType::F32, Category::OptimizerState));
            continue;
        }
        const std::int64_t blocks = (p.numel() + 255) / 256;
        buf1_.push_back(g_.empty(p.shape(), DType::U8, Category::OptimizerState));
        buf2_.push_back(g_.empty(p.shape(), DType::U8, Category::OptimizerState));
        buf1_.push_back(g_.empty({blocks}, DType::F32, Category::OptimizerState));
        buf2_.push_back(g_.empty({blocks}, DType::F32, Category::OptimizerState));
    }
}

// transformers' Adafactor (scale_parameter, relative_step, beta1=None): a matrix keeps
// exp_avg_sq_row [.., rows] and exp_avg_sq_col [.., cols] in fp32, a vector exp_avg_sq; `step`
// and `RMS` are Python numbers.
void OptimizerSim::adafactorState() {
    for (const Tensor& p : params_) {
        if (p.rank() >= 2) {
            Shape row(p.shape().begin(), p.shape().end() - 1), col = p.shape();
            col.erase(col.end() - 2);
            buf1_.push_back(g_.empty(row, DType::F32, Category::OptimizerState));
            buf2_.push_back(g_.empty(col, DType::F32, Category::OptimizerState));
        } else {
            buf1_.push_back(g_.empty(p.shape(), DType::F32, Category::OptimizerState));
        }
    }
}

// Adafactor.step per parameter: grad.float() for half precision, update = grad**2 + eps (two
// full-size tensors, the first freed), the factored approximation r ⊗ c (a third, while the old
// update is alive), update.mul_(grad), p_data_fp32 for half precision, p.add_(-update).
void OptimizerSim::adafactorStep() {
    if (buf1_.empty()) adafactorState();
    for (const Tensor& p : params_) {
        const bool half = p.dtype() == DType::BF16 || p.dtype() == DType::F16;
        Tensor grad32, p32;
        if (half) grad32 = temp(p.shape(), DType::F32, "aten._to_copy");
        Tensor update;
        {
            Tensor sq = temp(p.shape(), DType::F32, "aten.pow");
            update = temp(p.shape(), DType::F32, "aten.add");
        }
        if (p.rank() >= 2) {
            Tensor approx = temp(p.shape(), DType::F32, "aten.mul"); // torch.mul(r_factor, c_factor)
            update = std::move(approx);
        }
        if (half) p32 = temp(p.shape(), DType::F32, "aten._to_copy");
        Tensor neg = temp(p.shape(), DType::F32, "aten.neg"); // p_data_fp32.add_(-update)
        g_.op("aten.add_");
    }
}

Tensor OptimizerSim::temp(const Shape& shape, DType dtype, const char* op) {
    Tensor t = g_.empty(shape, dtype, Category::Temporaries);
    g_.op(op);
    return t;
}

void OptimizerSim::createState() {
    const bool started = step_ >= 2; // state is created lazily in the first step...
    switch (kind_) {
    case OptimizerKind::Sgd: break;
    case OptimizerKind::Momentum:
        if (started)
            for (const Tensor& p : params_) buf1_.push_back(zerosLike(p));
        break;
    case OptimizerKind::Adam:
    case OptimizerKind::AdamW:
        if (started)
            for (const Tensor& p : params_) {
                steps_.push_back(g_.empty({}, DType::F32, Category::OptimizerState));
                buf1_.push_back(zerosLike(p));
                buf2_.push_back(zerosLike(p));
            }
        break;
    case OptimizerKind::Adagrad: // ...but Adagrad builds its state in the constructor
        for (const Tensor& p : params_) {
            steps_.push_back(g_.empty({}, DType::F32, Category::OptimizerState));
            buf1_.push_back(zerosLike(p));
        }
        break;
    case OptimizerKind::RMSprop:
        if (started)
            for (const Tensor& p : params_) buf1_.push_back(zerosLike(p));
        break;
    case OptimizerKind::Adam8bit:
        if (started) adam8bitState();
        break;
    case OptimizerKind::Adafactor:
        if (started) adafactorState();
        break;
    case OptimizerKind::Lbfgs: {
        if (!started) break;
        const DType dt = params_.front().dtype();
        d_ = g_.empty({flatNumel_}, dt, Category::OptimizerState);
        prevFlat_ = g_.empty({flatNumel_}, dt, Category::OptimizerState);
        const int pairs = std::min(step_ - 2, history_);
        for (int i = 0; i < 2 * pairs; ++i) historyPairs_.push_back(g_.empty({flatNumel_}, dt, Category::OptimizerState));
        break;
    }
    }
}

void OptimizerSim::adamLike() {
    if (buf1_.empty()) // first step: state['exp_avg'] = zeros_like(p), exp_avg_sq likewise
        for (const Tensor& p : params_) {
            steps_.push_back(g_.empty({}, DType::F32, Category::OptimizerState));
            buf1_.push_back(zerosLike(p));
            g_.op("aten.zeros_like");
            buf2_.push_back(zerosLike(p));
            g_.op("aten.zeros_like");
        }
    if (impl_ == OptimizerImpl::Fused) {
        g_.op("aten._fused_adam_");
        return;
    }
    if (impl_ == OptimizerImpl::Foreach) {
        // exp_avg_sq_sqrt = _foreach_sqrt(exp_avg_sqs); _foreach_div_(...); then
        // 1.13: denom = _foreach_add(exp_avg_sq_sqrt, eps), a second list beside the first;
        // 2.x:  _foreach_add_(exp_avg_sq_sqrt, eps) in place;
        // _foreach_addcdiv_(params, exp_avgs, denom or exp_avg_sq_sqrt).
        std::vector<Tensor> sqrtList, denom;
        for (const Tensor& p : params_) sqrtList.push_back(g_.empty(p.shape(), p.dtype(), Category::Temporaries));
        g_.op("aten._foreach_sqrt");
        if (torch_ == TorchVersion::V2) {
            g_.op("aten._foreach_add_");
        } else {
            for (const Tensor& p : params_) denom.push_back(g_.empty(p.shape(), p.dtype(), Category::Temporaries));
            g_.op("aten._foreach_add");
            sqrtList.clear();
        }
        g_.op("aten._foreach_addcdiv_");
        return;
    }
    if (impl_ == OptimizerImpl::Manual) {
        // Per parameter: p.data -= lr*wd*p.data (one temporary); then m_t = b1*m + (1-b1)*g and
        // v_t = b2*v + (1-b2)*g*g as new tensors (two operands each, released once the sum
        // exists); p.data -= a*m_t / (sqrt(v_t) + eps): a*m_t, sqrt(v_t) + eps and the quotient
        // beside m_t and v_t; then state["m"], state["v"] = m_t, v_t release the old moments.
        for (std::size_t i = 0; i < params_.size(); ++i) {
            const Tensor& p = params_[i];
            const Shape s = p.shape();
            const DType dt = p.dtype();
            temp(s, dt, "aten.mul").reset();        // lr * wd * p
            temp(s, dt, "aten.zeros_like").reset(); // state.get("m", zeros_like(g)): the default is built every step
            temp(s, dt, "aten.zeros_like").reset();
            Tensor m, v;
            {
                Tensor a = temp(s, dt, "aten.mul"), b = temp(s, dt, "aten.mul");
                m = g_.empty(s, dt, Category::OptimizerState);
                g_.op("aten.add");
            }
            {
                Tensor a = temp(s, dt, "aten.mul");
                Tensor sq = temp(s, dt, "aten.square");
                Tensor b = temp(s, dt, "aten.mul");
                sq.reset();
                v = g_.empty(s, dt, Category::OptimizerState);
                g_.op("aten.add");
            }
            {
                Tensor am = temp(s, dt, "aten.mul");
                Tensor root = temp(s, dt, "aten.sqrt");
                Tensor den = temp(s, dt, "aten.add");
                root.reset();
                Tensor q = temp(s, dt, "aten.div");
                g_.op("aten.sub_");
            }
            buf1_[i] = std::move(m);
            buf2_[i] = std::move(v);
        }
        return;
    }
    // _single_tensor_adam: denom = (exp_avg_sq.sqrt() / bias_correction2_sqrt).add_(eps);
    // the previous parameter's denom is released only when `denom` is rebound.
    Tensor denom;
    for (const Tensor& p : params_) {
        Tensor root = temp(p.shape(), p.dtype(), "aten.sqrt");
        Tensor next = temp(p.shape(), p.dtype(), "aten.div");
        root.reset();
        denom = std::move(next); // addcdiv_ then updates the parameter in place
    }
}

void OptimizerSim::sqrtUpdate(std::vector<Tensor>& state, bool lazily) {
    if (lazily && state.empty())
        for (const Tensor& p : params_) {
            state.push_back(zerosLike(p));
            g_.op("aten.zeros_like");
        }
    if (impl_ != OptimizerImpl::ForLoop) { // std = _foreach_sqrt(state_sums); _foreach_add_(std, eps)
        std::vector<Tensor> roots, denom, numerator;
        for (const Tensor& p : params_) roots.push_back(g_.empty(p.shape(), p.dtype(), Category::Temporaries));
        g_.op("aten._foreach_sqrt");
        if (kind_ == OptimizerKind::Adagrad) {
            // _multi_tensor_adagrad. 2.x: std = _foreach_sqrt(state_sums), eps added in place,
            // numerator = _foreach_mul(grads, minus_clr) beside it, then
            // _foreach_addcdiv_(params, numerator, std): two lists. 1.13 adds eps out of place
            // (_foreach_add) and holds three lists at the step's peak. Both counts are measured
            // on the CPU (tests/data/costmodel/measured_versions_*.json).
            if (torch_ == TorchVersion::V1_13) {
                for (const Tensor& p : params_) denom.push_back(g_.empty(p.shape(), p.dtype(), Category::Temporaries));
                g_.op("aten._foreach_add");
            }
            for (const Tensor& p : params_) numerator.push_back(g_.empty(p.shape(), p.dtype(), Category::Temporaries));
            g_.op("aten._foreach_mul");
        }
        g_.op("aten._foreach_addcdiv_");
        return;
    }
    Tensor root; // std = state_sum.sqrt().add_(eps), rebound per parameter
    for (const Tensor& p : params_) {
        Tensor next = temp(p.shape(), p.dtype(), "aten.sqrt");
        root = std::move(next); // add_(eps) and addcdiv_ work in place
    }
}

void OptimizerSim::step() {
    switch (kind_) {
    case OptimizerKind::Sgd: g_.op("aten.add_"); break;
    case OptimizerKind::Momentum:
        if (buf1_.empty()) { // step 1: buf = torch.clone(d_p).detach()
            for (const Tensor& p : params_) {
                buf1_.push_back(zerosLike(p));
                g_.op("aten.clone");
            }
        }
        g_.op("aten.add_");
        break;
    case OptimizerKind::Adam:
    case OptimizerKind::AdamW: adamLike(); break;
    case OptimizerKind::Adagrad: sqrtUpdate(buf1_, false); break;
    case OptimizerKind::RMSprop: sqrtUpdate(buf1_, true); break;
    case OptimizerKind::Adam8bit: // one fused kernel per parameter (optimizer_update_8bit_blockwise), no temporaries
        if (buf1_.empty()) adam8bitState();
        g_.op("bnb.optimizer_update_8bit_blockwise");
        break;
    case OptimizerKind::Adafactor: adafactorStep(); break;
    case OptimizerKind::Lbfgs: break;
    }
}

void OptimizerSim::lbfgsStep(const std::function<void()>& closure) {
    closure();
    g_.mem.setPhase(Phase::Optimizer);
    const DType dt = params_.front().dtype();
    const Shape flat{flatNumel_};
    Tensor flatGrad = temp(flat, dt, "aten.cat"); // _gather_flat_grad
    temp(flat, dt, "aten.abs");                   // flat_grad.abs().max() <= tolerance_grad
    if (!d_.defined()) {                          // first iteration: d = -g, prev_flat_grad = g.clone()
        Tensor d = g_.empty(flat, dt, Category::OptimizerState);
        g_.op("aten.neg");
        prevFlat_ = g_.empty(flat, dt, Category::OptimizerState);
        g_.op("aten.clone");
        temp(flat, dt, "aten.abs"); // t = min(1, 1 / flat_grad.abs().sum()) * lr
        d_ = std::move(d);
        g_.op("aten.add_");
        return;
    }
    // y = g - prev_g, s = d * t; the pair joins the history (the oldest leaves when full)
    Tensor y = g_.empty(flat, dt, Category::OptimizerState);
    g_.op("aten.sub");
    Tensor s = g_.empty(flat, dt, Category::OptimizerState);
    g_.op("aten.mul");
    if (static_cast<int>(historyPairs_.size()) >= 2 * history_)
        historyPairs_.erase(historyPairs_.begin(), historyPairs_.begin() + 2);
    historyPairs_.push_back(std::move(y));
    historyPairs_.push_back(std::move(s));
    // two-loop recursion: q = -g, d = r = q * H_diag
    Tensor q = temp(flat, dt, "aten.neg");
    Tensor d = g_.empty(flat, dt, Category::OptimizerState);
    g_.op("aten.mul");
    g_.op("aten.copy_"); // prev_flat_grad.copy_(flat_grad)
    g_.op("aten.add_");  // _add_grad(t, d): params updated in place
    q.reset();
    flatGrad.reset();
    d_ = std::move(d); // state['d'] = d releases the old direction
}

} // namespace sim
} // namespace memviz::costmodel

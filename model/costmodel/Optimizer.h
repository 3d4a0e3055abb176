// SPDX-License-Identifier: MIT
#pragma once
// torch.optim as the simulation sees it: the state each optimizer keeps (zeros_like(param)
// per buffer, LBFGS's flat vectors and history) and the allocations of one step() for the
// for-loop (the 1.13 CPU default), foreach and fused implementations.
#include <functional>
#include <vector>

#include "costmodel/Autograd.h"

namespace memviz::costmodel {

// Adam8bit: bitsandbytes' blockwise 8-bit Adam (2 uint8 states + a fp32 absmax per 256 values;
// tensors under 4096 elements keep 32-bit states; one fused kernel per parameter). Adafactor:
// transformers' Adafactor with its defaults (factored second moments of every matrix: a row
// and a column vector; no first moment; beta1=None). Both modelled from their sources.
enum class OptimizerKind { Sgd, Momentum, Adam, AdamW, Adagrad, RMSprop, Lbfgs, Adam8bit, Adafactor };
// Manual: Adam(W) written by hand in Python with out-of-place tensor ops, one parameter at a
// time (course code: m = b1*m + (1-b1)*g; v = b2*v + (1-b2)*g*g; p -= a*m/(sqrt(v)+eps)); not
// a torch.optim implementation, so not an `--optimizer-impl` word: replay specs name it.
enum class OptimizerImpl { Auto, ForLoop, Foreach, Fused, Manual };
// The PyTorch release whose habits the model follows where releases differ (docs/costmodel.md,
// "PyTorch 1.13 and 2.x"): foreach Adam(W) keeps two lists of temporaries in 1.13
// (`denom = _foreach_add(sqrt, eps)`) and one in 2.x (`_foreach_add_(sqrt, eps)` in place).
enum class TorchVersion { V1_13, V2 };

const char* optimizerName(OptimizerKind kind); // "adamw"
const char* optimizerImplName(OptimizerImpl impl);
const char* torchVersionName(TorchVersion v); // "1.13", "2.x"
// Optimizer state in elements per parameter element once the state is complete (LBFGS: with
// a full history); the textbook numbers (momentum 1, Adam 2, Adagrad 1, LBFGS 2 + 2H).
double stateElementsPerParameter(OptimizerKind kind, int lbfgsHistory);

namespace sim {

class OptimizerSim {
public:
    OptimizerSim(Graph& g, const std::vector<Tensor>& params, OptimizerKind kind, OptimizerImpl impl, int lbfgsHistory, int step,
                 TorchVersion torch = TorchVersion::V2);

    // The state as it is before step `step` (i.e. after step - 1 steps).
    void createState();
    // opt.step() for every optimizer but LBFGS.
    void step();
    // LBFGS.step(closure) with max_iter=1; `closure` runs zero_grad, forward and backward.
    void lbfgsStep(const std::function<void()>& closure);

private:
    Tensor zerosLike(const Tensor& p) { return g_.empty(p.shape(), p.dtype(), Category::OptimizerState); }
    Tensor temp(const Shape& shape, DType dtype, const char* op);
    void adamLike();                                          // Adam and AdamW (whose weight decay is an in-place mul_)
    void sqrtUpdate(std::vector<Tensor>& state, bool lazily); // Adagrad / RMSprop
    void adam8bitState();
    void adafactorState();
    void adafactorStep();

    Graph& g_;
    const std::vector<Tensor>& params_;
    OptimizerKind kind_;
    OptimizerImpl impl_;
    TorchVersion torch_;
    int history_;
    int step_;
    std::vector<Tensor> buf1_, buf2_, steps_; // per-parameter state
    Tensor d_, prevFlat_;                     // LBFGS
    std::vector<Tensor> historyPairs_;
    std::int64_t flatNumel_ = 0;
};

} // namespace sim
} // namespace memviz::costmodel

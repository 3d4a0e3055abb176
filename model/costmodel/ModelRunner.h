// SPDX-License-Identifier: MIT
#pragma once
// Runs a resolved model's forward over simulated tensors, with the lifetimes of
// torch.nn.Sequential (a layer's input is released when the next layer returns), residual
// blocks, the transformer layers, and reentrant checkpoint_sequential (PyTorch 1.13).
#include <vector>

#include "costmodel/Ops.h"
#include "costmodel/ResolvedModel.h"

namespace memviz::costmodel::sim {

class ModelRunner {
public:
    ModelRunner(Ops& ops, const ResolvedModel& model, const std::vector<Tensor>& params)
        : ops_(ops), g_(ops.g), model_(model), params_(params) {}

    // The whole model; `segments` > 1 runs it through checkpoint_sequential(model, segments, x).
    Tensor forward(const Tensor& x, int segments);
    // Drops what the forward keeps only for itself (the causal mask).
    void endForward() { causalMask_.reset(); }

private:
    Tensor range(int first, int last, Tensor x); // top-level layers [first, last]
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
    Tensor rotary(const Tensor& q);
    const Tensor& causalMask(const Shape& shape, DType dtype);

    Ops& ops_;
    Graph& g_;
    const ResolvedModel& model_;
    const std::vector<Tensor>& params_;
    Tensor causalMask_;
    Tensor rotaryCos_, rotarySin_;
};

} // namespace memviz::costmodel::sim

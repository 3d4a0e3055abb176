// SPDX-License-Identifier: MIT
// One training step (or one inference forward) simulated op by op: the state before the step,
// zero_grad, forward under autocast/checkpointing, the loss, backward in reverse, opt.step().
#include <cmath>
#include <stdexcept>

#include "costmodel/CostModel.h"
#include "costmodel/ModelRunner.h"

namespace memviz::costmodel {

namespace {

using sim::Graph;
using sim::Tensor;

int convolutionCount(const std::vector<ResolvedLayer>& layers) {
    int n = 0;
    for (const ResolvedLayer& l : layers)
        n += (l.def.type == LayerType::Conv2d ? 1 : 0) + convolutionCount(l.body) + convolutionCount(l.skip);
    return n;
}

// Heap the PyTorch runtime keeps besides tensors (measured on CPU, 1.13; bench/costmodel/README
// finding 12): autograd and profiler bookkeeping, ~160 KiB once a training step ran (~64 KiB for
// inference), plus oneDNN's primitive cache of JIT-compiled convolution kernels when fp32
// convolutions train (~350 KiB + ~46 KiB per convolution layer: 0.73 MiB for cnn-bn's 5 convs,
// 1.0 MiB for resnet-small's 11). bf16 convolutions use slow_conv2d and cache nothing.
std::int64_t runtimeOverhead(const ResolvedModel& model, const EstimateOptions& o) {
    if (o.device == DeviceKind::Cuda) return o.cudaContextBytes;
    std::int64_t bytes = (o.training ? 160 : 64) * 1024;
    const int convs = convolutionCount(model.layers);
    if (o.training && convs > 0 && o.dtype == DType::F32 && !o.amp) bytes += (350 + 46 * std::int64_t{convs}) * 1024;
    return bytes;
}

DType activationDtype(const EstimateOptions& o) { return o.amp ? DType::F32 : o.dtype; }

void validate(const ResolvedModel& model, const EstimateOptions& o) {
    if (o.batch < 1) throw std::invalid_argument("the batch size must be at least 1");
    if (o.dtype == DType::I8 && o.training)
        throw std::invalid_argument("int8 is for inference only (quantized models do not train)");
    if (o.dtype == DType::I8 && o.amp) throw std::invalid_argument("int8 and AMP do not go together");
    if (!isFloating(o.dtype) && o.dtype != DType::I8)
        throw std::invalid_argument("the dtype must be fp32, fp16, bf16, fp64 or int8");
    if (o.checkpoint.mode == CheckpointMode::Segments && o.checkpoint.segments < 1)
        throw std::invalid_argument("checkpoint segments must be at least 1");
    if (o.lbfgsHistory < 1) throw std::invalid_argument("the LBFGS history size must be at least 1");
    (void)model;
}

class StepSimulation {
public:
    StepSimulation(const ResolvedModel& model, const EstimateOptions& o)
        : model_(model), o_(o), mem_(o.device, o.timeline, runtimeOverhead(model, o)), g_(mem_),
          ops_(g_, sim::OpsConfig{o.device, o.training, lowPrecision()}) {}

    Estimate run() {
        Estimate e;
        e.step = o_.training ? stepNumber() : 0;
        e.checkpointSegments = o_.training ? checkpointSegmentsFor(model_, o_.checkpoint) : 0;
        if (e.checkpointSegments == 1) e.checkpointSegments = 0;
        buildModelAndBatch();
        if (o_.training) train(e);
        else infer(e);
        finish(e);
        return e;
    }

private:
    DType lowPrecision() const {
        if (o_.dtype == DType::F16 || o_.dtype == DType::BF16) return o_.dtype;
        return o_.device == DeviceKind::Cuda ? DType::F16 : DType::BF16;
    }
    DType paramDtype() const { return o_.amp ? DType::F32 : o_.dtype; }
    int stepNumber() const {
        if (o_.step > 0) return o_.step;
        return o_.optimizer == OptimizerKind::Lbfgs ? o_.lbfgsHistory + 2 : 2;
    }

    void buildModelAndBatch() {
        for (const ParamInfo& p : model_.params)
            params_.push_back(g_.newLeaf(p.shape, paramDtype(), Category::Parameters, o_.training));
        for (const ParamInfo& b : model_.buffers) buffers_.push_back(g_.empty(b.shape, paramDtype(), Category::Parameters));
        for (std::int64_t i = 0; i < model_.int64BufferCount(); ++i)
            buffers_.push_back(g_.empty({}, DType::I64, Category::Parameters));
        const TensorSpec& in = model_.spec.input;
        Shape xs{o_.batch};
        xs.insert(xs.end(), in.shape.begin(), in.shape.end());
        const DType xt = in.dtype == DType::I64 ? DType::I64 : activationDtype(o_);
        const bool xGrad = o_.training && checkpointSegmentsFor(model_, o_.checkpoint) > 1 && xt != DType::I64;
        x_ = g_.newLeaf(xs, xt, Category::Input, xGrad);
        if (!o_.training) return;
        const TensorSpec& tg = model_.spec.target;
        Shape ys{o_.batch};
        ys.insert(ys.end(), tg.shape.begin(), tg.shape.end());
        y_ = g_.empty(ys, tg.dtype == DType::I64 ? DType::I64 : activationDtype(o_), Category::Input);
    }

    Tensor lossOf(const Tensor& out) {
        return model_.spec.loss == Loss::Mse ? ops_.mseLoss(out, y_) : ops_.crossEntropy(out, y_);
    }

    void mark(Estimate& e, const char* name) {
        mem_.sample(name);
        e.marks.push_back({name, mem_.sampleCount() - 1, mem_.liveBytes()});
    }

    // zero_grad(set_to_none=True); loss = loss_fn(model(x), y); loss.backward()
    void forwardBackward(Estimate& e, int segments) {
        mem_.setPhase(Phase::Forward);
        for (sim::Leaf& leaf : g_.leaves) leaf.grad.reset(); // set_to_none; x.grad = None
        g_.op("aten.zeros");                                 // zero_grad's profiler record_function
        sim::ModelRunner runner(ops_, model_, params_);
        Tensor loss;
        {
            ops_.autocast = o_.amp;
            Tensor out = runner.forward(x_, segments);
            runner.endForward();
            loss = lossOf(out);
            ops_.autocast = false;
            ops_.clearAutocastCache();
        }
        mark(e, "forward end");
        mem_.setPhase(Phase::Backward);
        g_.outputCategory = Category::Temporaries;
        Tensor ones = g_.empty({}, loss.dtype(), Category::Temporaries);
        g_.op("aten.ones_like");
        g_.backward({{std::move(loss), std::move(ones)}});
        for (sim::Node& n : g_.nodes) { // graph freed: anything left unreached goes too
            n.saved.clear();
            n.fn = nullptr;
        }
        g_.nodes.clear();
        g_.outputCategory = Category::Activations;
        mark(e, "backward end");
    }

    void train(Estimate& e) {
        sim::OptimizerSim opt(g_, params_, o_.optimizer, optimizerImpl(), o_.lbfgsHistory, stepNumber());
        opt.createState();
        if (stepNumber() >= 2)                // the gradients of the previous step are alive until zero_grad
            for (sim::Leaf& leaf : g_.leaves) // params, and x when checkpointing made it require grad
                if (leaf.requiresGrad) leaf.grad = g_.empty(leaf.value.shape(), leaf.value.dtype(), Category::Gradients);
        mem_.setPhase(Phase::Forward);
        mark(e, "step start");
        if (o_.optimizer == OptimizerKind::Lbfgs) {
            mem_.setPhase(Phase::Optimizer);
            opt.lbfgsStep([&] { forwardBackward(e, e.checkpointSegments); });
        } else {
            forwardBackward(e, e.checkpointSegments);
            mem_.setPhase(Phase::Optimizer);
            opt.step();
        }
        mem_.setPhase(Phase::Optimizer);
        mark(e, "step end");
    }

    OptimizerImpl optimizerImpl() const {
        if (o_.optimizerImpl != OptimizerImpl::Auto) return o_.optimizerImpl;
        return o_.device == DeviceKind::Cuda ? OptimizerImpl::Foreach : OptimizerImpl::ForLoop;
    }

    void infer(Estimate& e) {
        g_.gradEnabled = false;
        mem_.setPhase(Phase::Forward);
        mark(e, "start");
        sim::ModelRunner runner(ops_, model_, params_);
        {
            ops_.autocast = o_.amp;
            Tensor out = runner.forward(x_, 0);
            runner.endForward();
            mark(e, "forward end");
        }
    }

    void finish(Estimate& e) {
        e.peakBytes = mem_.peakBytes();
        e.peakPhase = mem_.peakPhase();
        e.peakOp = mem_.peakOp();
        e.breakdown = mem_.breakdownAtPeak();
        std::int64_t raw = 0;
        for (std::size_t i = 0; i < e.breakdown.size(); ++i)
            if (i != static_cast<std::size_t>(Category::Overhead)) raw += e.breakdown[i];
        e.breakdown[static_cast<std::size_t>(Category::Overhead)] = e.peakBytes - raw;
        e.truePeakBytes = std::max(mem_.truePeakBytes(), e.peakBytes);
        e.parameterCount = model_.parameterCount();
        e.parameterBytes = e.parameterCount * elementSize(paramDtype());
        e.opCount = mem_.sampleCount();
        e.timeline = mem_.timeline();
        if (o_.training && model_.spec.input.dtype == DType::I64 && e.checkpointSegments > 1)
            e.warnings.push_back("integer input: the first layer (the embedding) runs outside the checkpointed segments "
                                 "(checkpoint_sequential over the whole model would leave the first segment without gradients)");
    }

    const ResolvedModel& model_;
    EstimateOptions o_;
    MemorySim mem_;
    Graph g_;
    sim::Ops ops_;
    std::vector<Tensor> params_, buffers_;
    Tensor x_, y_;
};

} // namespace

int checkpointSegmentsFor(const ResolvedModel& model, const Checkpointing& c) {
    const int n = model.topLevelLayerCount();
    switch (c.mode) {
    case CheckpointMode::None: return 0;
    case CheckpointMode::Sqrt: return std::max(1, static_cast<int>(std::lround(std::sqrt(static_cast<double>(n)))));
    case CheckpointMode::Segments: return std::clamp(c.segments, 1, n);
    }
    return 0;
}

Estimate estimate(const ResolvedModel& model, const EstimateOptions& options) {
    validate(model, options);
    return StepSimulation(model, options).run();
}

Estimate estimate(const ModelSpec& spec, const EstimateOptions& options) { return estimate(resolveModel(spec), options); }

} // namespace memviz::costmodel

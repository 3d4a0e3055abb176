// SPDX-License-Identifier: MIT
// One training step (or one inference forward) simulated op by op: the state before the step,
// zero_grad, forward under autocast/checkpointing, the loss, backward in reverse, opt.step().
#include <algorithm>
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
    if (o.lora.rank < 0) throw std::invalid_argument("--lora-rank must be 0 (off) or positive");
    if (o.frozenLayers < 0) throw std::invalid_argument("--frozen-layers must be 0 or positive");
    if (o.kvCacheTokens < 0) throw std::invalid_argument("--kv-cache needs a context of at least 1 token");
    if (o.kvBlockTokens < 1) throw std::invalid_argument("--kv-block must be at least 1");
    if (o.kvCacheTokens > 0 && o.training)
        throw std::invalid_argument("--kv-cache is for inference (add --inference)");
    if (o.weights != WeightFormat::Full && o.training && o.lora.rank == 0)
        throw std::invalid_argument("--weights int8/nf4 trains only with LoRA (QLoRA): add --lora-rank or --inference");
    if (o.weights != WeightFormat::Full && o.dtype == DType::I8)
        throw std::invalid_argument("--weights int8/nf4 and --dtype int8 do not go together");
    bool blocks = false, decoders = false;
    for (const ResolvedLayer& l : model.layers) {
        blocks = blocks || isTransformerBlock(l.def.type);
        decoders = decoders || l.def.type == LayerType::LlamaDecoderLayer || l.def.type == LayerType::Gpt2Block;
    }
    if (o.kvCacheTokens > 0 && !decoders)
        throw std::invalid_argument("--kv-cache needs a decoder model (llama_decoder_layer or gpt2_block layers)");
    const bool blockKnobs = o.lora.rank > 0 || o.checkpoint.mode == CheckpointMode::PerLayer ||
                            o.checkpoint.mode == CheckpointMode::Selective || o.kvCacheTokens > 0 ||
                            o.weights != WeightFormat::Full;
    if (blockKnobs && !blocks)
        throw std::invalid_argument("--lora-rank, --checkpoint per-layer/selective, --weights int8/nf4 and --kv-cache need "
                                    "a model with transformer blocks");
    if (o.kvCacheTokens > 0 && !model.spec.input.shape.empty() && o.kvCacheTokens < model.spec.input.shape[0] + 1)
        throw std::invalid_argument("--kv-cache " + std::to_string(o.kvCacheTokens) + " must hold the " +
                                    std::to_string(model.spec.input.shape[0]) + " prompt tokens and one more (--seq sets the prompt)");
}

// Bytes one quantized weight of `n` elements is stored in.
std::int64_t quantizedBytes(std::int64_t n, std::int64_t rows, WeightFormat w) {
    if (w == WeightFormat::Int8) return n + 4 * rows; // LLM.int8: int8 weights + a fp32 scale per row (SCB)
    // NF4 with double quantization: 4 bits, an 8-bit absmax per 64 weights, a fp32 scale (and
    // offset) per 256 absmax blocks
    const std::int64_t blocks = (n + 63) / 64;
    return (n + 1) / 2 + blocks + 8 * ((blocks + 255) / 256);
}

bool loraTarget(ParamRole role, LoraTargets t) {
    if (role == ParamRole::AttentionWeight) return t != LoraTargets::Mlp;
    if (role == ParamRole::MlpWeight) return t != LoraTargets::Attention;
    return false;
}

class StepSimulation {
public:
    // `earlierKernels`: the library kernels the earlier steps left (Ops::preloadGemmKernels);
    // -1 = none known, each is added when first run.
    StepSimulation(const ResolvedModel& model, const EstimateOptions& o, int earlierKernels = -1)
        : model_(model), o_(o), mem_(o.device, o.timeline, runtimeOverhead(model, o)), g_(mem_),
          ops_(g_, sim::OpsConfig{o.device, o.training, lowPrecision(), o.torch}), earlierKernels_(earlierKernels) {}

    // The library kernels the step made (first run) and whether a step before it ran the same.
    int kernelCount() const { return ops_.gemmKernelCount(); }
    bool afterEarlierSteps() const { return o_.training && stepNumber() >= 2; }

    Estimate run() {
        Estimate e;
        e.step = o_.training ? stepNumber() : 0;
        e.checkpointSegments = o_.training ? checkpointSegmentsFor(model_, o_.checkpoint) : 0;
        if (e.checkpointSegments == 1) e.checkpointSegments = 0;
        buildModelAndBatch();
        if (earlierKernels_ >= 0) ops_.preloadGemmKernels(earlierKernels_);
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
        const std::size_t n = model_.params.size();
        blocks_.quantized.assign(n, false);
        blocks_.loraA.resize(n);
        blocks_.loraB.resize(n);
        blocks_.flash = o_.attention == AttentionKind::Flash;
        blocks_.perLayer = o_.training && o_.checkpoint.mode == CheckpointMode::PerLayer;
        blocks_.selective = o_.training && o_.checkpoint.mode == CheckpointMode::Selective;
        blocks_.computeDtype = paramDtype();
        for (std::size_t i = 0; i < n; ++i) {
            const ParamInfo& p = model_.params[i];
            const bool matrix = p.role == ParamRole::AttentionWeight || p.role == ParamRole::MlpWeight;
            const bool quantized = matrix && o_.weights != WeightFormat::Full;
            const bool frozen = o_.lora.rank > 0 || p.topLevel < o_.frozenLayers || quantized;
            if (quantized) {
                blocks_.quantized[i] = true;
                params_.push_back(
                    g_.newLeaf({quantizedBytes(numel(p.shape), p.shape[0], o_.weights)}, DType::U8, Category::Parameters, false));
            } else {
                params_.push_back(g_.newLeaf(p.shape, paramDtype(), Category::Parameters, o_.training && !frozen));
                // An nn.Parameter requires grad in inference too: under no_grad autocast's cast
                // cache keeps its low-precision copy, as in training (not under inference_mode).
                g_.leaves[static_cast<std::size_t>(params_.back().leaf)].parameter = !frozen && !o_.inferenceMode;
            }
            if (o_.training && !frozen) trainable_.push_back(params_.back());
            if (o_.lora.rank > 0 && loraTarget(p.role, o_.lora.targets) && !unadaptedExpert(i)) { // lora_A (r x in), lora_B (out x r)
                const bool train = o_.training;
                blocks_.loraA[i] = g_.newLeaf({o_.lora.rank, p.shape[1]}, paramDtype(), Category::Parameters, train);
                blocks_.loraB[i] = g_.newLeaf({p.shape[0], o_.lora.rank}, paramDtype(), Category::Parameters, train);
                if (train) {
                    trainable_.push_back(blocks_.loraA[i]);
                    trainable_.push_back(blocks_.loraB[i]);
                }
            }
        }
        if (o_.training && !model_.layers.empty() && model_.layers[0].def.type == LayerType::Embedding &&
            model_.layers[0].firstParam >= 0 && !params_[static_cast<std::size_t>(model_.layers[0].firstParam)].requiresGrad())
            blocks_.inputRequiresGrad = true;
        for (const ParamInfo& b : model_.buffers) buffers_.push_back(g_.empty(b.shape, paramDtype(), Category::Parameters));
        if (const std::int64_t extra = model_.spec.unsimulatedParameters; extra > 0) { // held and trained like the others
            const bool train = o_.training && o_.lora.rank == 0 && o_.frozenLayers == 0;
            unsimulated_ = g_.newLeaf({extra}, paramDtype(), Category::Parameters, train);
            if (train) trainable_.push_back(unsimulated_);
        }
        if (model_.spec.bufferBytes > 0) // built with the model, kept whatever the dtype (a bool mask)
            buffers_.push_back(g_.empty({model_.spec.bufferBytes}, DType::U8, Category::Parameters));
        for (std::int64_t i = 0; i < model_.int64BufferCount(); ++i)
            buffers_.push_back(g_.empty({}, DType::I64, Category::Parameters));
        for (int i = 0; i < o_.cublasWorkspaces; ++i) // cached by the handle, never freed in a step
            buffers_.push_back(g_.empty({kCublasWorkspaceBytes}, DType::U8, Category::Temporaries));
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

    // An expert's weight of a MoE layer whose experts LoRA leaves alone
    bool unadaptedExpert(std::size_t param) const {
        const int top = model_.params[param].topLevel;
        if (top < 0) return false;
        const ResolvedLayer& l = model_.layers[static_cast<std::size_t>(top)];
        const std::int64_t k = static_cast<std::int64_t>(param) - l.firstParam;
        return l.def.type == LayerType::LlamaDecoderLayer && l.def.numExperts > 0 && l.def.expertLora == ExpertLora::None &&
               k >= llamaExpertParam(0) && k < llamaExpertParam(l.def.numExperts);
    }

    Tensor lossOf(const Tensor& out) {
        if (model_.spec.loss == Loss::Mse) return ops_.mseLoss(out, y_);
        return model_.spec.manualLoss ? ops_.manualCrossEntropy(out, y_) : ops_.crossEntropy(out, y_);
    }

    void mark(Estimate& e, const char* name) {
        mem_.sample(name);
        e.marks.push_back({name, mem_.sampleCount() - 1, mem_.liveBytes()});
    }

    // zero_grad(set_to_none=True); loss = loss_fn(model(x), y); loss.backward()
    void forwardBackward(Estimate& e, int segments) {
        mem_.setPhase(Phase::Forward);
        if (!o_.neverZeroGrad) {
            for (sim::Leaf& leaf : g_.leaves) leaf.grad.reset(); // set_to_none; x.grad = None
            g_.op("aten.zeros");                                 // zero_grad's profiler record_function
        }
        sim::ModelRunner runner(ops_, model_, params_, &blocks_);
        Tensor loss;
        {
            ops_.autocast = o_.amp;
            Tensor out = runner.forward(x_, segments);
            runner.endForward();
            if (o_.outputKept) keptOut_ = out; // the previous step's output goes only now
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

    // From here on the timeline and the marks are the reported step's (after stepsBefore).
    void beginReported(const Estimate& e) {
        reportedSample_ = static_cast<std::size_t>(mem_.sampleCount());
        reportedMark_ = e.marks.size();
        if (o_.outputDroppedBeforeReported) keptOut_ = Tensor();
    }

    void train(Estimate& e) {
        if (trainable_.empty()) throw std::invalid_argument("nothing to train: every parameter is frozen");
        if (o_.graphForwardOnly) { // logits = model(x) with autograd on, then nothing
            if (o_.stepsBefore > 0) throw std::invalid_argument("a graph-only forward is simulated without steps before it");
            mem_.setPhase(Phase::Forward);
            mark(e, "step start");
            sim::ModelRunner runner(ops_, model_, params_, &blocks_);
            ops_.autocast = o_.amp;
            Tensor out = runner.forward(x_, e.checkpointSegments);
            runner.endForward();
            mark(e, "forward end");
            ops_.autocast = false;
            ops_.clearAutocastCache();
            return;
        }
        const int before = o_.stepsBefore;
        if (before > 0 && o_.optimizer == OptimizerKind::Lbfgs)
            throw std::invalid_argument("steps before the reported one are not simulated for LBFGS");
        // With steps before it, the optimizer starts at step 1 and makes its state lazily.
        sim::OptimizerSim opt(g_, trainable_, o_.optimizer, optimizerImpl(), o_.lbfgsHistory, before > 0 ? 1 : stepNumber(),
                              o_.torch);
        opt.createState();
        if (before == 0 && stepNumber() >= 2 && !o_.zeroGradAfterStep) // the previous step's gradients live until zero_grad
            for (sim::Leaf& leaf : g_.leaves) // params, and x when checkpointing made it require grad
                if (leaf.requiresGrad) leaf.grad = g_.empty(leaf.value.shape(), leaf.value.dtype(), Category::Gradients);
        for (int s = 0; s < before; ++s) { // the warm-up: the same loop, through the same allocator
            forwardBackward(e, e.checkpointSegments);
            mem_.setPhase(Phase::Optimizer);
            opt.step();
            for (int leaf : blocks_.hookLeaves) g_.retireLeaf(leaf);
            blocks_.hookLeaves.clear();
            if (o_.zeroGradAfterStep)
                for (sim::Leaf& leaf : g_.leaves) leaf.grad.reset();
        }
        if (before > 0) beginReported(e);
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
        // the hooked embedding output and its .grad go with the graph, when `loss` is dropped
        for (int leaf : blocks_.hookLeaves) g_.retireLeaf(leaf);
        blocks_.hookLeaves.clear();
        mark(e, "step end");
    }

    OptimizerImpl optimizerImpl() const {
        if (o_.optimizerImpl != OptimizerImpl::Auto) return o_.optimizerImpl;
        return o_.device == DeviceKind::Cuda ? OptimizerImpl::Foreach : OptimizerImpl::ForLoop;
    }

    void infer(Estimate& e) {
        g_.gradEnabled = false;
        mem_.setPhase(Phase::Forward);
        if (o_.stepsBefore == 0) mark(e, "start");
        sim::ModelRunner runner(ops_, model_, params_, &blocks_);
        ops_.autocast = o_.amp;
        if (o_.stepsBefore > 0 && o_.kvCacheTokens > 0)
            throw std::invalid_argument("forwards before the reported one are not simulated with a KV cache");
        for (int s = 0; s < o_.stepsBefore; ++s) { // the warm-up forwards, through the same allocator
            Tensor out = runner.forward(x_, 0);
            runner.endForward();
            if (o_.outputKept) keptOut_ = out;
            ops_.clearAutocastCache();
        }
        if (o_.stepsBefore > 0) {
            beginReported(e);
            mark(e, "start");
        }
        if (o_.kvCacheTokens > 0) {
            allocateCache();
            {
                Tensor out = runner.forward(x_, 0); // prefill
                runner.endForward();
            }
            blocks_.cached = x_.dim(1);
            Tensor last = g_.alias(x_, {x_.dim(0), 1}, false); // x[:, -1:]: one decoding step
            Tensor out = runner.forward(last, 0);
            runner.endForward();
            mark(e, "forward end");
            return;
        }
        {
            Tensor out = runner.forward(x_, 0);
            runner.endForward();
            if (o_.outputKept) keptOut_ = out;
            mark(e, "forward end");
        }
    }

    // Per attention block a key and a value buffer [B, kv heads, capacity, head dim], capacity
    // rounded up to whole blocks of kvBlockTokens (vLLM's paged blocks).
    void allocateCache() {
        const std::int64_t blockTokens = o_.kvBlockTokens;
        const std::int64_t capacity = (o_.kvCacheTokens + blockTokens - 1) / blockTokens * blockTokens;
        for (const ResolvedLayer& l : model_.layers) {
            if (!isTransformerBlock(l.def.type)) continue;
            const std::int64_t kvh = l.def.numKvHeads ? l.def.numKvHeads : l.def.nhead, hd = headDimOf(l.def);
            // A sliding-window layer (Mistral, Gemma 2/3's local layers) keeps only its window.
            const std::int64_t window = l.def.kvWindow > 0 ? (l.def.kvWindow + blockTokens - 1) / blockTokens * blockTokens : capacity;
            if (l.def.cacheK > 0 || l.def.cacheV > 0) { // MLA's latent, or a state-space layer's states
                const std::int64_t tokens = l.def.cacheState ? 1 : std::min(capacity, window);
                blocks_.cacheK.push_back(g_.empty({o_.batch, 1, tokens, std::max<std::int64_t>(1, l.def.cacheK)}, paramDtype(), Category::KvCache));
                g_.op("aten.zeros");
                blocks_.cacheV.push_back(g_.empty({o_.batch, 1, tokens, std::max<std::int64_t>(1, l.def.cacheV)}, paramDtype(), Category::KvCache));
                g_.op("aten.zeros");
                continue;
            }
            for (std::vector<Tensor>* c : {&blocks_.cacheK, &blocks_.cacheV}) {
                c->push_back(g_.empty({o_.batch, kvh, std::min(capacity, window), hd}, paramDtype(), Category::KvCache));
                g_.op("aten.zeros");
            }
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
        e.parameterCount = model_.parameterCount() + model_.spec.unsimulatedParameters;
        e.parameterBytes = unsimulated_.defined() ? unsimulated_.bytes() : 0;
        for (const Tensor& p : params_) e.parameterBytes += p.bytes();
        for (const Tensor& a : blocks_.loraA)
            if (a.defined()) e.adapterParameterCount += a.numel();
        for (const Tensor& b : blocks_.loraB)
            if (b.defined()) e.adapterParameterCount += b.numel();
        for (const Tensor& t : trainable_) e.trainableParameterCount += t.numel();
        e.opCount = mem_.sampleCount();
        e.timeline = mem_.timeline();
        if (reportedSample_ > 0 && e.timeline.size() >= reportedSample_) { // the reported step only (stepsBefore)
            e.timeline.erase(e.timeline.begin(), e.timeline.begin() + static_cast<std::ptrdiff_t>(reportedSample_));
            e.marks.erase(e.marks.begin(), e.marks.begin() + static_cast<std::ptrdiff_t>(reportedMark_));
            for (PhaseMark& m : e.marks) m.sample -= static_cast<int>(reportedSample_);
        }
        if (o_.training && model_.spec.input.dtype == DType::I64 && e.checkpointSegments > 1)
            e.warnings.push_back("integer input: the first layer (the embedding) runs outside the checkpointed segments "
                                 "(checkpoint_sequential over the whole model would leave the first segment without gradients)");
    }

    const ResolvedModel& model_;
    EstimateOptions o_;
    MemorySim mem_;
    Graph g_;
    sim::Ops ops_;
    int earlierKernels_ = -1;
    sim::BlockConfig blocks_;
    std::vector<Tensor> params_, buffers_, trainable_;
    Tensor unsimulated_; // ModelSpec::unsimulatedParameters, held and trained like the others
    Tensor x_, y_;
    Tensor keptOut_; // the loop variable holding the last output (outputKept)
    std::size_t reportedSample_ = 0, reportedMark_ = 0;
};

// The step, and again with the kernels the first run made alive from the start when earlier
// steps ran (the measured second step finds the first step's kernels cached).
Estimate simulate(const ResolvedModel& model, const EstimateOptions& options) {
    StepSimulation first(model, options);
    Estimate e = first.run();
    if (first.kernelCount() == 0 || !first.afterEarlierSteps()) return e;
    return StepSimulation(model, options, first.kernelCount()).run();
}
} // namespace

int checkpointSegmentsFor(const ResolvedModel& model, const Checkpointing& c) {
    const int n = model.topLevelLayerCount();
    switch (c.mode) {
    case CheckpointMode::None: return 0;
    case CheckpointMode::Sqrt: return std::max(1, static_cast<int>(std::lround(std::sqrt(static_cast<double>(n)))));
    case CheckpointMode::Segments: return std::clamp(c.segments, 1, n);
    case CheckpointMode::PerLayer:
    case CheckpointMode::Selective: return 0; // not checkpoint_sequential
    }
    return 0;
}

Estimate estimate(const ResolvedModel& model, const EstimateOptions& options) {
    if (options.seqLen > 0 && (model.spec.input.shape.empty() || model.spec.input.shape[0] != options.seqLen)) {
        const ResolvedModel resized = resolveModel(withSequenceLength(model.spec, options.seqLen));
        validate(resized, options);
        return simulate(resized, options);
    }
    validate(model, options);
    return simulate(model, options);
}

ModelSpec withSequenceLength(const ModelSpec& spec, std::int64_t seqLen) {
    if (seqLen <= 0) return spec;
    if (spec.input.dtype != DType::I64 || spec.input.shape.size() != 1)
        throw std::invalid_argument("--seq needs a token model (an int64 input of shape [S]); " + spec.name + " takes " +
                                    shapeText(spec.input.shape));
    ModelSpec s = spec;
    s.input.shape = {seqLen};
    if (s.target.shape.size() == 1) s.target.shape = {seqLen};
    try {
        resolveModel(s);
    } catch (const SpecError& e) {
        throw std::invalid_argument("--seq " + std::to_string(seqLen) + ": " + e.what());
    }
    return s;
}

Estimate estimate(const ModelSpec& spec, const EstimateOptions& options) { return estimate(resolveModel(spec), options); }

} // namespace memviz::costmodel

// SPDX-License-Identifier: MIT
#include "costmodel/FitPlan.h"

#include <algorithm>
#include <cmath>
#include <functional>
#include <optional>

#include "costmodel/OptionNames.h"
#include "costmodel/ResolvedModel.h"
#include "words/Units.h"

namespace memviz::costmodel {

namespace {

std::string num(std::int64_t v) { return std::to_string(v); }

std::int64_t scaled(std::int64_t bytes, double fraction) {
    return fraction == 1.0 ? bytes : static_cast<std::int64_t>(std::llround(static_cast<double>(bytes) * fraction));
}

// Largest x in [1, hi] with ok(x), ok monotone (true then false); 0 when ok(1) is false.
std::int64_t bisect(std::int64_t hi, const std::function<bool(std::int64_t)>& ok) {
    if (!ok(1)) return 0;
    std::int64_t lo = 1, step = 2;
    while (step <= hi && ok(step)) {
        lo = step;
        step *= 2;
    }
    std::int64_t bad = std::min(step, hi + 1);
    if (bad == hi + 1 && lo < hi && ok(hi)) return hi;
    while (bad - lo > 1) {
        const std::int64_t mid = lo + (bad - lo) / 2;
        (ok(mid) ? lo : bad) = mid;
    }
    return lo;
}

} // namespace

const char* planPartName(PlanPart p) {
    switch (p) {
    case PlanPart::Parameters: return "parameters";
    case PlanPart::Gradients: return "gradients";
    case PlanPart::OptimizerState: return "optimizer state";
    case PlanPart::Activations: return "activations";
    case PlanPart::Input: return "input batch";
    case PlanPart::Temporaries: return "temporaries";
    case PlanPart::KvCache: return "KV cache";
    case PlanPart::AllocatorReserve: return "allocator reserve";
    case PlanPart::GradientBuckets: return "gradient buckets (DDP)";
    case PlanPart::GatheredLayers: return "gathered layers (ZeRO-3/FSDP)";
    case PlanPart::CudaContext: return "CUDA context";
    }
    return "?";
}

const char* planPartKey(PlanPart p) {
    switch (p) {
    case PlanPart::Parameters: return "parameters_bytes";
    case PlanPart::Gradients: return "gradients_bytes";
    case PlanPart::OptimizerState: return "optimizer_state_bytes";
    case PlanPart::Activations: return "activations_bytes";
    case PlanPart::Input: return "input_bytes";
    case PlanPart::Temporaries: return "temporaries_bytes";
    case PlanPart::KvCache: return "kv_cache_bytes";
    case PlanPart::AllocatorReserve: return "allocator_reserve_bytes";
    case PlanPart::GradientBuckets: return "gradient_buckets_bytes";
    case PlanPart::GatheredLayers: return "gathered_layers_bytes";
    case PlanPart::CudaContext: return "cuda_context_bytes";
    }
    return "?";
}

std::int64_t FitModel::sequence() const {
    if (hf && hf->family == HfFamily::Vit) return 0;
    if (spec.input.dtype == DType::I64 && spec.input.shape.size() == 1) return spec.input.shape[0];
    return 0;
}

std::int64_t FitModel::maxSequence() const {
    if (hf) return hf->family == HfFamily::Vit ? 0 : hf->maxPositions;
    for (const Layer& l : spec.layers)
        if (l.type == LayerType::PositionEmbedding) return l.numEmbeddings;
    return 0;
}

ModelSpec FitModel::at(std::int64_t seq, std::vector<std::string>* warnings) const {
    if (hf && hf->block.stack == HfStack::TextVision) return spec; // CLIP, SigLIP: image and text length fixed when built
    if (hf) {
        std::vector<std::string> w;
        ModelSpec s = hfModelSpec(*hf, hf->family == HfFamily::Vit ? 1 : seq, w); // a ViT takes its image
        applyParameterMatch(parameterMatch, s);
        if (warnings) warnings->insert(warnings->end(), w.begin(), w.end());
        return s;
    }
    if (!sequence() || seq == sequence()) return spec;
    const std::int64_t most = maxSequence();
    if (most > 0 && seq > most)
        throw SpecError("a sequence of " + num(seq) + " tokens is longer than the " + num(most) + " positions of " + spec.name);
    ModelSpec s = spec;
    s.input.shape[0] = seq;
    if (s.target.shape.size() == 1 && s.target.shape[0] == spec.input.shape[0]) s.target.shape[0] = seq;
    return s;
}

FitModel fitModelFromSpec(ModelSpec spec) {
    FitModel m;
    m.name = spec.name;
    m.spec = std::move(spec);
    return m;
}

FitModel fitModelFromHf(const HfModel& hf, std::int64_t sequence) {
    FitModel m;
    m.hf = hf;
    m.exactParameters = hf.parameterCount;
    m.spec = hfModelSpec(hf, sequence, m.hf->warnings);
    m.parameterMatch = matchParameterCount(hf, m.spec, m.hf->warnings);
    applyParameterMatch(m.parameterMatch, m.spec);
    m.name = m.spec.name;
    return m;
}

Plan planStep(const FitModel& model, const PlanOptions& o) {
    if (o.gradAccumulation < 1) throw std::invalid_argument("gradient accumulation needs at least 1 step");
    if (o.devices < 1) throw std::invalid_argument("the number of GPUs must be at least 1");
    if (o.devices > 1 && o.shard == ShardStrategy::None)
        throw std::invalid_argument("several GPUs need a way to share the work: ddp, zero1, zero2, zero3 or fsdp");
    Plan p;
    p.sequence = model.sequence() ? (o.sequence ? o.sequence : model.sequence()) : 0;
    const ModelSpec spec = model.at(p.sequence ? p.sequence : model.sequence(), &p.warnings);
    const ResolvedModel resolved = resolveModel(spec);
    EstimateOptions e = o.estimate;
    e.timeline = true;
    e.cudaContextBytes = 0; // the plan adds the context as its own part
    e.seqLen = 0;           // the spec is already at the plan's sequence
    // An encoder-decoder's decoding caches are added by planExtras, not simulated (the one stack
    // has no decoder of its own).
    const bool encoderDecoder = model.hf && model.hf->block.stack == HfStack::EncoderDecoder;
    if (encoderDecoder && !e.training) e.kvCacheTokens = 0;
    p.step = estimate(resolved, e);
    p.warnings.insert(p.warnings.end(), p.step.warnings.begin(), p.step.warnings.end());
    p.effectiveBatch = e.batch * o.gradAccumulation * o.devices;
    p.memoryBytes = o.memoryBytes;

    const ShardFractions f = shardFractions(o.shard, o.devices);
    const auto cat = [](const TimelineSample& s, Category c) { return s.byCategory[static_cast<std::size_t>(c)]; };
    std::int64_t fullGradients = 0;
    for (const TimelineSample& s : p.step.timeline) fullGradients = std::max(fullGradients, cat(s, Category::Gradients));
    if (!e.training) fullGradients = 0;
    // ZeRO-3 / FSDP gather a unit's full parameters to run it (and its gradients in backward):
    // the largest block, and the parameters outside the blocks (embeddings, head), which the
    // root unit keeps gathered through the step.
    std::int64_t gathered = 0;
    if (f.gathersLayers && p.step.parameterCount > 0) {
        std::int64_t block = 0, root = 0;
        if (model.hf) {
            block = model.hf->largestLayerParameters;
            const std::int64_t blocks = model.hf->layers + model.hf->decoderLayers;
            root = std::max<std::int64_t>(0, model.hf->parameterCount - blocks * block);
        } else {
            for (const ResolvedLayer& l : resolved.layers) block = std::max(block, parametersIn(resolved, l));
        }
        const double perParam = static_cast<double>(p.step.parameterBytes) / static_cast<double>(p.step.parameterCount);
        const double unit = static_cast<double>(std::min(block + root, p.step.parameterCount));
        gathered = static_cast<std::int64_t>(unit * perParam * (1.0 - 1.0 / o.devices));
        if (e.training) gathered += static_cast<std::int64_t>(static_cast<double>(block) * perParam);
    }
    const std::int64_t buckets = f.gradientBuckets && e.training ? fullGradients : 0;
    // Tensor parallelism: the blocks' weights split N ways, the rest replicated; KV heads split
    // (a head is never split: with fewer heads than GPUs each GPU keeps one).
    if (o.tensorParallel < 1) throw std::invalid_argument("tensor parallelism needs at least 1 GPU");
    if (o.tensorParallel > 1 && e.training) throw std::invalid_argument("tensor parallelism is modelled for inference only");
    double weightShare = 1.0, kvShare = o.fp8KvCache ? 1.0 / elementSize(e.dtype) : 1.0;
    if (o.tensorParallel > 1) {
        const double n = o.tensorParallel;
        std::int64_t inBlocks = 0, all = 0;
        if (model.hf) {
            all = model.hf->parameterCount;
            inBlocks = std::min(all, model.hf->largestLayerParameters * (model.hf->layers + model.hf->decoderLayers));
        } else {
            all = resolved.parameterCount();
            for (const ResolvedLayer& l : resolved.layers)
                if (isTransformerBlock(l.def.type)) inBlocks += parametersIn(resolved, l);
        }
        const double blocks = all > 0 ? static_cast<double>(inBlocks) / static_cast<double>(all) : 0.0;
        weightShare = (1.0 - blocks) + blocks / n;
        std::int64_t kvHeads = model.hf ? model.hf->kvHeads : 0;
        if (model.hf && model.hf->block.attention == HfAttention::Mla) kvHeads = 1; // the latent is shared by all heads
        if (kvHeads > 0) {
            const std::int64_t perGpu = (kvHeads + o.tensorParallel - 1) / o.tensorParallel;
            kvShare *= static_cast<double>(perGpu) / static_cast<double>(kvHeads);
        } else {
            kvShare /= n;
        }
    }

    const PlanExtras extras = planExtras(model, o, p.step, p.sequence ? p.sequence : model.sequence());
    p.offloadedLayers = extras.offloadedLayers;
    p.offloadCopyBytes = extras.copyBytes;

    // The peak per device is the largest total of any sample (CUDA: reserved memory, which the
    // caching allocator never gives back); the parts are shown where the tensors peak, as the
    // simulation does, and what reserved holds beyond them there is the allocator reserve.
    std::int64_t best = -1, bestTensors = -1;
    for (const TimelineSample& s : p.step.timeline) {
        PlanBytes b{};
        std::int64_t tensors = 0;
        for (int c = 0; c < kCategoryCount; ++c) tensors += s.byCategory[static_cast<std::size_t>(c)];
        const std::int64_t grads = o.gradAccumulation > 1 && e.training ? fullGradients : cat(s, Category::Gradients);
        b[0] = std::max<std::int64_t>(0, scaled(scaled(cat(s, Category::Parameters), f.parameters), weightShare) + extras.weights);
        b[1] = scaled(grads, f.gradients);
        b[2] = scaled(cat(s, Category::OptimizerState), f.optimizer);
        b[3] = cat(s, Category::Activations) + extras.activations;
        b[4] = cat(s, Category::Input);
        b[5] = cat(s, Category::Temporaries);
        b[6] = scaled(cat(s, Category::KvCache) + extras.kvCache, kvShare);
        b[7] = std::max<std::int64_t>(0, s.bytes - tensors) + cat(s, Category::Overhead);
        b[8] = buckets;
        b[9] = gathered;
        b[10] = o.contextBytes;
        std::int64_t total = 0;
        for (std::int64_t v : b) total += v;
        best = std::max(best, total);
        const std::int64_t live = total - b[7] - b[10];
        if (live > bestTensors) {
            bestTensors = live;
            p.perDevice = b;
            p.peakPhase = s.phase;
            p.peakOp = s.op;
        }
    }
    if (best >= 0) {
        std::int64_t shown = 0;
        for (std::int64_t v : p.perDevice) shown += v;
        p.perDevice[static_cast<std::size_t>(PlanPart::AllocatorReserve)] += best - shown;
    }
    p.peakBytes = std::max<std::int64_t>(0, best);
    p.fits = o.memoryBytes <= 0 || p.peakBytes <= o.memoryBytes;
    if (o.gradAccumulation > 1)
        p.warnings.push_back("gradient accumulation over " + num(o.gradAccumulation) +
                             " micro-batches: every gradient is counted alive through the step (from the second micro-batch on)");
    if (f.gradientBuckets && e.training)
        p.warnings.push_back("DDP keeps a flat copy of the trainable gradients in its buckets (measured with PyTorch's DDP over gloo, "
                             "with and without gradient_as_bucket_view: the step peaks in the backward)");
    if (o.shard == ShardStrategy::Zero1 || o.shard == ShardStrategy::Zero2)
        p.warnings.push_back("DeepSpeed's reduce buckets (reduce_bucket_size) are not counted");
    if (o.tensorParallel > 1)
        p.warnings.push_back("tensor parallel over " + num(o.tensorParallel) +
                             " GPUs: per GPU 1/" + num(o.tensorParallel) +
                             " of the blocks' weights and of the KV heads; embeddings, norms, the head and the activations counted whole"
                             " (an upper bound), communication buffers not counted");
    if (o.fp8KvCache) p.warnings.push_back("KV cache in fp8: one byte per element");
    p.warnings.insert(p.warnings.end(), extras.warnings.begin(), extras.warnings.end());
    return p;
}

std::int64_t largestMicroBatch(const FitModel& model, PlanOptions o, std::int64_t maxBatch) {
    if (o.memoryBytes <= 0) return 0;
    return bisect(maxBatch, [&](std::int64_t b) {
        o.estimate.batch = b;
        try {
            return planStep(model, o).peakBytes <= o.memoryBytes;
        } catch (const std::exception&) {
            return false;
        }
    });
}

std::int64_t largestSequence(const FitModel& model, PlanOptions o) {
    if (!model.sequence()) return -1;
    if (o.memoryBytes <= 0) return 0;
    const std::int64_t most = model.maxSequence() > 0 && (!model.hf || model.hf->family == HfFamily::Gpt2 ||
                                                          model.hf->family == HfFamily::Bert || !model.hf)
                                  ? model.maxSequence()
                                  : std::int64_t{1} << 20;
    return bisect(most, [&](std::int64_t s) {
        o.sequence = s;
        try {
            return planStep(model, o).peakBytes <= o.memoryBytes;
        } catch (const std::exception&) {
            return false;
        }
    });
}

// The same effective batch as `o` in smaller micro-batches: the largest micro-batch below the
// current one that fits with `changed`'s other settings, and as many accumulation steps as that
// takes. Empty when not even a micro-batch of one fits.
std::optional<PlanOptions> accumulated(const FitModel& model, const PlanOptions& o, PlanOptions changed) {
    changed.gradAccumulation = std::max(2, o.gradAccumulation);
    const std::int64_t micro = largestMicroBatch(model, changed, o.estimate.batch - 1);
    if (micro < 1) return std::nullopt;
    const std::int64_t effective = o.estimate.batch * o.gradAccumulation;
    changed.estimate.batch = micro;
    changed.gradAccumulation = static_cast<int>((effective + micro - 1) / micro);
    return changed;
}

std::vector<Fix> rankedFixes(const FitModel& model, const PlanOptions& o, const GpuCatalog& catalog) {
    std::vector<Fix> fixes;
    if (o.memoryBytes <= 0) return fixes;
    const Plan base = planStep(model, o);
    if (base.fits) return fixes;
    const auto tryFix = [&](std::string id, std::string description, std::string cost, const PlanOptions& changed) {
        Fix f{std::move(id), std::move(description), std::move(cost), changed, 0, false};
        try {
            const Plan p = planStep(model, changed);
            f.peakBytes = p.peakBytes;
            f.fits = p.peakBytes <= changed.memoryBytes;
        } catch (const std::exception&) {
            return;
        }
        fixes.push_back(std::move(f));
    };
    // The options of the fewest GPUs, doubling from `from`, whose plan fits; those of `most`
    // when none does; nothing when `from` is past `most` (tensor parallel, ZeRO-3 over more GPUs).
    const auto fewestGpusThatFit = [&](int from, int most, const auto& withGpus) -> std::optional<PlanOptions> {
        for (int n = from; n <= most; n *= 2) {
            PlanOptions c = withGpus(n);
            bool fits = false;
            try {
                fits = planStep(model, c).peakBytes <= c.memoryBytes;
            } catch (const std::exception&) {
            }
            if (fits || n * 2 > most) return c;
        }
        return std::nullopt;
    };
    const std::string onGpu = o.gpu.empty() ? std::string() : " (" + o.gpu + ")";
    const EstimateOptions& e = o.estimate;
    std::vector<PlanOptions> stepChanges; // single changes of the step, for the combination
    // 1. A smaller micro-batch with more accumulation steps: the same effective batch.
    if (e.training && e.batch > 1) {
        if (const auto a = accumulated(model, o, o)) {
            const std::int64_t micro = a->estimate.batch;
            tryFix("grad-accum",
                   "micro-batch " + num(micro) + " x " + num(a->gradAccumulation) + " accumulation steps (effective batch " +
                       num(micro * a->gradAccumulation * o.devices) + ")",
                   "more, smaller steps: slower, same result", *a);
        }
    }
    bool transformer = false;
    for (const Layer& l : model.spec.layers) transformer = transformer || isTransformerBlock(l.type);
    // 2. Memory-efficient attention: no S x S scores.
    if (transformer && e.attention == AttentionKind::Eager && model.sequence()) {
        PlanOptions f = o;
        f.estimate.attention = AttentionKind::Flash;
        tryFix("flash", "flash / memory-efficient attention (SDPA) instead of eager", "none on recent GPUs (a kernel choice)", f);
        stepChanges.push_back(f);
    }
    // 3. Activation checkpointing: every block (Hugging Face's gradient_checkpointing), else sqrt(n).
    if (e.training && e.checkpoint.mode == CheckpointMode::None) {
        PlanOptions c = o;
        c.estimate.checkpoint = {transformer ? CheckpointMode::PerLayer : CheckpointMode::Sqrt, 0};
        tryFix("checkpoint", transformer ? "activation checkpointing of every block" : "activation checkpointing (sqrt(n) segments)",
               "about a third more compute", c);
        stepChanges.push_back(c);
    }
    // 3. bf16 weights and activations.
    const bool sixteenBitConfig = model.hf && (model.hf->torchDtype == "bfloat16" || model.hf->torchDtype == "float16");
    if (e.dtype == DType::F32 && !e.amp && (e.training || !sixteenBitConfig)) {
        PlanOptions b = o;
        b.estimate.dtype = DType::BF16;
        tryFix("bf16", e.training ? "bf16 weights, gradients, optimizer state and activations" : "bf16 weights and activations",
               "lower precision", b);
        stepChanges.push_back(b);
    }
    // 4. An 8-bit optimizer (bitsandbytes' Adam: 2 bytes of state per parameter instead of 8).
    if (e.training && (e.optimizer == OptimizerKind::Adam || e.optimizer == OptimizerKind::AdamW)) {
        PlanOptions a = o;
        a.estimate.optimizer = OptimizerKind::Adam8bit;
        tryFix("adam8bit", "8-bit Adam (bitsandbytes)", "another library; close to Adam in practice", a);
        stepChanges.push_back(a);
    }
    // 5. LoRA: the base frozen (no gradients, no optimizer state), then its weights in 4 bits (QLoRA).
    if (e.training && transformer && e.lora.rank == 0) {
        PlanOptions l = o;
        l.estimate.lora = {16, LoraTargets::All};
        tryFix("lora", "LoRA, rank 16 on every linear layer of the blocks", "a different fine-tune: adapters, not the full model", l);
        l.estimate.weights = WeightFormat::Nf4;
        tryFix("qlora", "QLoRA: LoRA rank 16 over a 4-bit (NF4) base", "a quantized base: some quality", l);
    } else if (e.training && e.lora.rank > 0 && e.weights == WeightFormat::Full) {
        PlanOptions l = o;
        l.estimate.weights = WeightFormat::Nf4;
        tryFix("qlora", "the frozen base in 4 bits (NF4, QLoRA)", "a quantized base: some quality", l);
    }
    // Inference: the changes serving stacks offer, cheapest first.
    if (!e.training) {
        if (e.dtype == DType::F32 && sixteenBitConfig) {
            PlanOptions b = o;
            b.estimate.dtype = model.hf->torchDtype == "bfloat16" ? DType::BF16 : DType::F16;
            tryFix("dtype", "load in the checkpoint's own " + model.hf->torchDtype, "none: the weights were published so", b);
        }
        if (e.kvCacheTokens > 0 && !o.fp8KvCache) {
            PlanOptions k = o;
            k.fp8KvCache = true;
            tryFix("fp8-kv", "an fp8 KV cache (vLLM kv_cache_dtype=\"fp8\")", "a little quality", k);
            stepChanges.push_back(k);
        }
        if (e.weights == WeightFormat::Full) {
            PlanOptions q = o;
            q.estimate.weights = WeightFormat::Int8;
            tryFix("int8", "int8 weights (bitsandbytes LLM.int8 / GPTQ 8-bit)", "slower matmuls, a little quality", q);
            q.estimate.weights = WeightFormat::Nf4;
            tryFix("int4", "4-bit weights (NF4; GPTQ/AWQ int4 are about the same size)", "some quality", q);
        }
        if (e.batch > 1) {
            PlanOptions b = o;
            b.estimate.batch = std::max<std::int64_t>(1, largestMicroBatch(model, o, e.batch - 1));
            tryFix("sequences", num(b.estimate.batch) + " concurrent sequences instead of " + num(e.batch), "less throughput", b);
        }
        if (model.sequence()) {
            const std::int64_t s = largestSequence(model, o);
            const std::int64_t now = o.sequence ? o.sequence : model.sequence();
            if (s > 0 && s < now) {
                PlanOptions c = o;
                c.sequence = s;
                if (c.estimate.kvCacheTokens > 0) c.estimate.kvCacheTokens = s + std::max<std::int64_t>(1, c.estimate.kvCacheTokens - now);
                tryFix("context", "a context of " + num(s) + " tokens instead of " + num(now), "shorter prompts", c);
            }
        }
        if (const std::int64_t n = fewestOffloadedLayersThatFit(model, o); n > 0) {
            PlanOptions c = o;
            c.offloadLayers = n;
            const std::int64_t layers = offloadableLayers(model);
            const Plan off = planStep(model, c);
            tryFix("offload",
                   "CPU offload (accelerate device_map=\"auto\"): " + num(layers - n) + " of " + num(layers) + " layers on the GPU, " +
                       num(n) + " on the CPU",
                   "slow: every generated token copies " + formatBytes(static_cast<double>(off.offloadCopyBytes)) +
                       " of weights over PCIe (about " +
                       num(static_cast<std::int64_t>(std::ceil(static_cast<double>(off.offloadCopyBytes) / 25e6))) + " ms at 25 GB/s)",
                   c);
        }
        if (const auto t = fewestGpusThatFit(std::max(2, o.tensorParallel * 2), 16, [&](int n) {
                PlanOptions c = o;
                c.tensorParallel = n;
                return c;
            }))
            tryFix("tp", "tensor parallel over " + num(t->tensorParallel) + " GPUs" + onGpu, "more GPUs", *t);
    }
    // 6. Sharding: a stronger one over the same GPUs, or ZeRO-3 over more of them.
    if (e.training && o.devices > 1 && o.shard != ShardStrategy::Zero3 && o.shard != ShardStrategy::Fsdp) {
        for (ShardStrategy s : {ShardStrategy::Zero2, ShardStrategy::Zero3}) {
            if (s == ShardStrategy::Zero2 && o.shard == ShardStrategy::Zero2) continue;
            PlanOptions z = o;
            z.shard = s;
            tryFix("shard", std::string(shardName(s)) + " over the " + num(o.devices) + " GPUs", "communication: slower steps", z);
        }
    }
    if (e.training && o.devices < 64) {
        if (const auto z = fewestGpusThatFit(std::max(2, o.devices * 2), 64, [&](int n) {
                PlanOptions c = o;
                c.devices = n;
                c.shard = ShardStrategy::Zero3;
                return c;
            }))
            tryFix("gpus", "zero3 over " + num(z->devices) + " GPUs" + onGpu, "more GPUs", *z);
    }
    // 7. A GPU with more memory (the smallest one that fits).
    for (const GpuInfo& g : catalog.gpus()) {
        if (g.memoryBytes <= o.memoryBytes) continue;
        PlanOptions b = o;
        b.memoryBytes = g.memoryBytes;
        b.contextBytes = g.contextBytes;
        b.gpu = g.id;
        bool fits = false;
        try {
            fits = planStep(model, b).peakBytes <= b.memoryBytes;
        } catch (const std::exception&) {
        }
        if (fits || &g == &catalog.gpus().back()) {
            tryFix("gpu", "GPU: " + g.name + " (" + g.id + ")", "a bigger GPU", b);
            break;
        }
    }
    // 8. No single change of the step is enough: combine them, cheapest first.
    const bool stepFixFits = std::any_of(fixes.begin(), fixes.end(), [](const Fix& f) {
        return f.fits && f.id != "gpu" && f.id != "gpus" && f.id != "shard";
    });
    if (!stepFixFits && !stepChanges.empty()) {
        PlanOptions c = o;
        std::string what;
        const auto add = [&what](const char* w) { what += std::string(what.empty() ? "" : " + ") + w; };
        for (const PlanOptions& s : stepChanges) {
            if (s.estimate.attention != e.attention) c.estimate.attention = s.estimate.attention, add("flash attention");
            if (s.estimate.checkpoint.mode != e.checkpoint.mode) c.estimate.checkpoint = s.estimate.checkpoint, add("checkpointing");
            if (s.estimate.dtype != e.dtype) c.estimate.dtype = s.estimate.dtype, add("bf16");
            if (s.estimate.optimizer != e.optimizer) c.estimate.optimizer = s.estimate.optimizer, add("8-bit Adam");
            if (s.fp8KvCache != o.fp8KvCache) c.fp8KvCache = s.fp8KvCache, add("fp8 KV cache");
        }
        if (e.training && c.estimate.batch > 1) {
            if (const auto a = accumulated(model, o, c)) {
                c = *a;
                what += " + micro-batch " + num(c.estimate.batch) + " x " + num(c.gradAccumulation) + " steps";
            }
        }
        tryFix("combined", what, "the costs of each", c);
    }
    // A change that neither fits nor lowers the peak is no step towards fitting (flash attention
    // when the peak is in the optimizer phase, say): not offered.
    std::erase_if(fixes, [&base](const Fix& f) { return !f.fits && f.peakBytes >= base.peakBytes; });
    std::stable_sort(fixes.begin(), fixes.end(), [](const Fix& a, const Fix& b) { return a.fits > b.fits; });
    return fixes;
}

FitAnswer answerFit(const FitModel& model, const PlanOptions& options, const GpuCatalog& catalog) {
    FitAnswer a;
    a.plan = planStep(model, options);
    if (options.memoryBytes > 0) {
        a.largestMicroBatch = largestMicroBatch(model, options);
        a.largestSequence = largestSequence(model, options);
        if (!a.plan.fits) a.fixes = rankedFixes(model, options, catalog);
    } else {
        a.largestSequence = model.sequence() ? 0 : -1;
    }
    return a;
}

} // namespace memviz::costmodel

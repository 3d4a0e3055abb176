// SPDX-License-Identifier: MIT
// What a planned step holds beyond the simulated spec (FitPlan.h, PlanExtras): an encoder-decoder's
// decoding caches, DeepSeek-V3's multi-token-prediction layers' cache when counted, and the weights
// CPU offload takes off the GPU. (The weights the simulated layers
// lack, cross-attention and DeepSeek-V3's counted multi-token-prediction layers among them, are in
// the spec: hfModelSpec.) docs/costmodel.md ("Will it fit").
#include <algorithm>
#include <cmath>
#include <stdexcept>
#include <string>

#include "costmodel/FitPlan.h"
#include "costmodel/ResolvedModel.h"
#include "words/Units.h"

namespace memviz::costmodel {

namespace {

std::string num(std::int64_t v) { return std::to_string(v); }

// The blocks of a model that is not a config: how many, and the parameters of the largest.
std::pair<std::int64_t, std::int64_t> specBlocks(const FitModel& model) {
    const ResolvedModel r = resolveModel(model.spec);
    std::int64_t count = 0, largest = 0;
    for (const ResolvedLayer& l : r.layers)
        if (isTransformerBlock(l.def.type)) {
            ++count;
            largest = std::max(largest, parametersIn(r, l));
        }
    return {count, largest};
}

// A host-to-device copy over PCIe 4.0 x16 from pinned memory moves about 25 GB/s (pageable
// memory, accelerate's default for an offloaded state dict, is slower).
constexpr double kPcieBytesPerSecond = 25e9;

} // namespace

std::int64_t offloadableLayers(const FitModel& model) {
    if (model.hf) {
        const HfStack s = model.hf->block.stack;
        if (s == HfStack::Vision || s == HfStack::TextVision) return 0;
        return model.hf->layers + model.hf->decoderLayers;
    }
    return specBlocks(model).first;
}

PlanExtras planExtras(const FitModel& model, const PlanOptions& o, const Estimate& step, std::int64_t sequence) {
    PlanExtras x;
    const EstimateOptions& e = o.estimate;
    const double perParam = step.parameterCount > 0
                                ? static_cast<double>(step.parameterBytes) / static_cast<double>(step.parameterCount)
                                : static_cast<double>(elementSize(e.dtype));
    const auto weightBytes = [perParam](std::int64_t params) {
        return static_cast<std::int64_t>(std::llround(static_cast<double>(params) * perParam));
    };
    const HfModel* hf = model.hf ? &*model.hf : nullptr;

    // An encoder-decoder decoding (BART, T5, Whisper). The simulation runs one stack of encoder and
    // decoder layers over the same tokens (the decoder's cross-attention weights are held as the
    // spec's unsimulated parameters, hfModelSpec), so the caches transformers' EncoderDecoderCache
    // keeps are missing from it: per decoder layer the self-attention keys and values of every token
    // so far and the cross-attention keys and values of the encoder's output (its whole length:
    // Whisper's 1,500 frames after the conv front, the source tokens of T5 and BART), and the encoder
    // output itself, held while the decoder runs.
    if (hf && hf->block.stack == HfStack::EncoderDecoder && !e.training) {
        if (e.kvCacheTokens > 0) {
            if (e.kvCacheTokens < sequence + 1)
                throw std::invalid_argument("--kv-cache " + num(e.kvCacheTokens) + " must hold the " + num(sequence) +
                                            " prompt tokens and one more (--seq sets the prompt)");
            const std::int64_t block = std::max<std::int64_t>(1, e.kvBlockTokens);
            const std::int64_t selfTokens = (e.kvCacheTokens + block - 1) / block * block;
            const std::int64_t source = hf->block.melBins > 0 ? hf->block.sourcePositions : sequence;
            const std::int64_t width = hf->heads * hf->headDim;
            // In the activations' dtype: planStep scales the KV cache part for fp8 and tensor parallelism.
            x.kvCache = hf->decoderLayers * e.batch * width * elementSize(e.dtype) * 2 * (selfTokens + source);
            x.activations += e.batch * source * hf->hidden * elementSize(e.dtype);
            x.warnings.push_back("encoder-decoder cache: per decoder layer the self-attention keys and values of " + num(selfTokens) +
                                 " tokens and the cross-attention keys and values of the encoder's " + num(source) +
                                 (hf->block.melBins > 0 ? " frames (max_source_positions)" : " source tokens (--seq)") +
                                 ", and the encoder's output, held through the decoding (added to the simulated forward)");
        }
    }

    // DeepSeek-V3's multi-token-prediction layers, when counted (--with-mtp): a serving engine runs
    // them as the draft model of speculative decoding, each with its own cache of the same latent and
    // rotary key per token as a decoder layer (the weights are in the spec, hfModelSpec).
    if (hf && hf->mtpCounted && !e.training && e.kvCacheTokens > 0 && hf->block.attention == HfAttention::Mla) {
        const std::int64_t block = std::max<std::int64_t>(1, e.kvBlockTokens);
        const std::int64_t tokens = (e.kvCacheTokens + block - 1) / block * block;
        x.kvCache += hf->mtpLayers * e.batch * tokens * (hf->block.kvLoraRank + hf->block.qkRopeDim) * elementSize(e.dtype);
    }

    // CPU offload (accelerate's dispatch_model over a device_map with "cpu" entries): an offloaded
    // layer's AlignDevicesHook copies its weights to the execution device (the first GPU) in
    // pre_forward and sets them back to meta in post_forward, so one offloaded layer is on the GPU at
    // a time; infer_auto_device_map keeps the largest layer's size free on that GPU for it. The KV
    // cache of an offloaded layer is made on the execution device: all of it stays on the GPU.
    if (o.offloadLayers < 0) throw std::invalid_argument("the number of offloaded layers must be 0 or more");
    if (o.offloadLayers > 0) {
        if (e.training)
            throw std::invalid_argument("CPU offload is modelled for inference only (training's ZeRO-Offload of the optimizer state is not)");
        if (o.tensorParallel > 1) throw std::invalid_argument("CPU offload and tensor parallelism do not go together here");
        const std::int64_t layers = offloadableLayers(model);
        if (layers <= 0) throw std::invalid_argument("CPU offload needs a model with transformer blocks");
        const std::int64_t largest = hf ? hf->largestLayerParameters : specBlocks(model).second;
        const std::int64_t layerBytes = weightBytes(largest);
        x.offloadedLayers = std::min(o.offloadLayers, layers);
        x.copyBytes = x.offloadedLayers * layerBytes;
        x.weights -= x.copyBytes - layerBytes; // the offloaded layers, less the one in flight
        const double ms = static_cast<double>(x.copyBytes) / kPcieBytesPerSecond * 1e3;
        x.warnings.push_back("CPU offload (accelerate device_map=\"auto\" with max_memory): " + num(layers - x.offloadedLayers) + " of " +
                             num(layers) + " layers kept on the GPU, " + num(x.offloadedLayers) +
                             " on the CPU, one of them on the GPU at a time; every forward (every generated token) copies " +
                             formatBytes(static_cast<double>(x.copyBytes)) + " of weights over PCIe, about " +
                             std::to_string(static_cast<std::int64_t>(std::ceil(ms))) +
                             " ms at 25 GB/s; the embeddings, the head and the whole KV cache stay on the GPU");
    }
    return x;
}

std::int64_t fewestOffloadedLayersThatFit(const FitModel& model, const PlanOptions& o) {
    if (o.memoryBytes <= 0 || o.estimate.training || o.tensorParallel > 1 || o.offloadLayers > 0) return 0;
    const std::int64_t layers = offloadableLayers(model);
    if (layers <= 0) return 0;
    PlanOptions c = o;
    const auto fits = [&](std::int64_t n) {
        c.offloadLayers = n;
        try {
            return planStep(model, c).peakBytes <= c.memoryBytes;
        } catch (const std::exception&) {
            return false;
        }
    };
    if (!fits(layers)) return layers;
    std::int64_t bad = 0, good = layers; // the GPU's weights fall as more layers go: bisect
    while (good - bad > 1) {
        const std::int64_t mid = bad + (good - bad) / 2;
        (fits(mid) ? good : bad) = mid;
    }
    return good;
}

std::optional<DType> checkpointDType(const HfModel& hf) {
    const std::string& t = hf.torchDtype;
    if (t == "bfloat16") return DType::BF16;
    if (t == "float16") return DType::F16;
    if (t == "float32") return DType::F32;
    return std::nullopt;
}

std::optional<WeightFormat> simulatedQuantizedWeights(const HfModel& hf) {
    if (hf.quantizedWeightBytes <= 0) return std::nullopt;
    return hf.quantization.bits >= 8 ? WeightFormat::Int8 : WeightFormat::Nf4;
}

} // namespace memviz::costmodel

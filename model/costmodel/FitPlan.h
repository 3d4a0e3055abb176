// SPDX-License-Identifier: MIT
#pragma once
// "Will it fit?": the cost model's simulated step (CostModel.h), wrapped for planning on real
// GPUs. Over the one-device estimate of a micro-batch it applies gradient accumulation
// (gradients alive across micro-batches), data parallelism and sharding over N devices
// (Sharding.h), and adds the CUDA context; it gives the peak per device by category, the
// largest micro-batch and the longest sequence that fit a device, and the changes that make a
// step fit, ranked by what they cost the user. EstimateOptions is used as it is, never edited.
// docs/costmodel.md ("Will it fit").
#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "costmodel/CostModel.h"
#include "costmodel/GpuCatalog.h"
#include "costmodel/HfConfig.h"
#include "costmodel/Sharding.h"

namespace memviz::costmodel {

// A model the planner can rebuild at another sequence length.
struct FitModel {
    ModelSpec spec;            // at its own sequence length
    std::optional<HfModel> hf; // when it came from a config.json
    std::int64_t exactParameters = 0; // from the config or a safetensors header (0: the spec's own count)
    ParameterMatch parameterMatch;    // a config's: applied to its spec at every sequence
    std::string name;

    // The token sequence the spec takes (0 when its input is not a sequence of token ids).
    std::int64_t sequence() const;
    std::int64_t maxSequence() const; // the longest the model can take (0: no limit known)
    ModelSpec at(std::int64_t sequence, std::vector<std::string>* warnings) const;
};
FitModel fitModelFromSpec(ModelSpec spec);
FitModel fitModelFromHf(const HfModel& hf, std::int64_t sequence);

struct PlanOptions {
    EstimateOptions estimate; // estimate.batch is the micro-batch; the device's CUDA context is added here, not there
    std::int64_t sequence = 0; // 0: the model's own
    int gradAccumulation = 1;
    int devices = 1;
    ShardStrategy shard = ShardStrategy::None;
    std::int64_t memoryBytes = 0;  // one device's memory (0: no limit)
    std::int64_t contextBytes = 0; // CUDA context per device
    std::string gpu;               // catalog id, for messages ("" when none)
    // Inference across GPUs (Megatron-style tensor parallelism, as vLLM and TGI serve): each of
    // the `tensorParallel` GPUs holds 1/N of every block's weights and of the KV heads (a KV
    // head is replicated when there are fewer than N); embeddings, norms, the head and the
    // activations are counted whole on every GPU (an upper bound).
    int tensorParallel = 1;
    bool fp8KvCache = false; // the KV cache in 8-bit floats (vLLM's kv_cache_dtype="fp8")
    // Inference with whole decoder layers on the CPU, as accelerate's device_map="auto" with
    // max_memory places them: the GPU keeps the other layers, the embeddings, the head and the KV
    // cache of every layer; each offloaded layer's weights are copied to the GPU for its forward
    // and dropped after it (one layer in flight). FitPlanExtras.cpp.
    std::int64_t offloadLayers = 0;
};

enum class PlanPart {
    Parameters,
    Gradients,
    OptimizerState,
    Activations,
    Input,
    Temporaries,
    KvCache,          // inference with a KV cache
    AllocatorReserve, // the simulation's allocator overhead (CUDA: reserved but not allocated)
    GradientBuckets,  // DDP's flat copy of the gradients
    GatheredLayers,   // ZeRO-3 / FSDP: the full parameters (and gradients) of the unit being run
    CudaContext,
};
inline constexpr int kPlanPartCount = 11;
const char* planPartName(PlanPart p); // "allocator reserve"
const char* planPartKey(PlanPart p);  // "allocator_reserve_bytes"
using PlanBytes = std::array<std::int64_t, kPlanPartCount>;

struct Plan {
    Estimate step;              // the simulated step on one device at the micro-batch (timeline kept)
    PlanBytes perDevice{};      // per device where the tensors peak, the allocator reserve up to the
                                // peak (CUDA's reserved memory never shrinks); sums to peakBytes
    std::int64_t peakBytes = 0; // per device
    Phase peakPhase = Phase::Forward; // where the tensors peak
    std::string peakOp;
    std::int64_t sequence = 0;       // 0: not a sequence model
    std::int64_t effectiveBatch = 0; // micro-batch x accumulation x devices
    std::int64_t memoryBytes = 0;
    bool fits = true;
    std::int64_t offloadedLayers = 0;         // of offloadableLayers(model), on the CPU
    std::int64_t offloadCopyBytes = 0;        // host-to-GPU copies of their weights in each forward (each generated token)
    std::vector<std::string> warnings;
};

// What one step holds that the simulated spec does not, and what CPU offload moves off the GPU
// (FitPlanExtras.cpp): added to every sample of the step's timeline by planStep.
struct PlanExtras {
    std::int64_t weights = 0;     // may be negative: CPU offload
    std::int64_t activations = 0; // an encoder-decoder's encoder output, held while the decoder runs
    std::int64_t kvCache = 0;     // an encoder-decoder's self- and cross-attention caches
    std::int64_t offloadedLayers = 0, copyBytes = 0;
    std::vector<std::string> warnings;
};
PlanExtras planExtras(const FitModel& model, const PlanOptions& options, const Estimate& step, std::int64_t sequence);
// What inference from a config loads unless told otherwise, for the command line and the what-if
// box alike: the checkpoint's torch_dtype (what from_pretrained loads with torch_dtype="auto" and
// what serving stacks use; nullopt when the config names none or one the simulation does not
// model), and for a quantized checkpoint the nearest weight format the simulation has (8-bit,
// else 4-bit; its exact bytes are HfQuant's; nullopt when not quantized).
std::optional<DType> checkpointDType(const HfModel& hf);
std::optional<WeightFormat> simulatedQuantizedWeights(const HfModel& hf);
// A KV cache when planning is served paged, as vLLM and TGI do: blocks of this many tokens (the
// spec estimate keeps 1: transformers' preallocated cache).
inline constexpr std::int64_t kServedKvBlockTokens = 16;
// The decoder layers CPU offload can move (0: none known).
std::int64_t offloadableLayers(const FitModel& model);
// The fewest layers to offload for the step to fit (offloadableLayers when none fits; 0 when not offered).
std::int64_t fewestOffloadedLayersThatFit(const FitModel& model, const PlanOptions& options);

// Throws std::invalid_argument for impossible options, HfConfigError / SpecError for a model
// that cannot take the sequence.
Plan planStep(const FitModel& model, const PlanOptions& options);

// The largest micro-batch whose peak per device fits options.memoryBytes (0: not even 1).
std::int64_t largestMicroBatch(const FitModel& model, PlanOptions options, std::int64_t maxBatch = std::int64_t{1} << 20);
// The longest sequence that fits at the options' micro-batch (0: not even 1 token; -1: the
// model takes no token sequence).
std::int64_t largestSequence(const FitModel& model, PlanOptions options);

struct Fix {
    std::string id;          // "grad-accum", "checkpoint", "bf16", "shard", "gpu", "combined", ...
    std::string description; // "micro-batch 2 x 8 accumulation steps (same effective batch 16)"
    std::string cost;        // what it costs the user
    PlanOptions options;     // the options with the change
    std::int64_t peakBytes = 0;
    bool fits = false;
};
// The changes worth making when the step does not fit (empty when it fits or no limit is set),
// fitting ones first, each group in order of what it costs the user. Training: gradient
// accumulation with a smaller micro-batch, flash attention, checkpointing, bf16, an 8-bit
// optimizer, LoRA (then QLoRA's 4-bit base), sharding, ZeRO-3 over more GPUs; inference: flash
// attention, the config's 16-bit dtype, an fp8 KV cache, int8 or 4-bit weights, fewer concurrent
// sequences, a shorter context, CPU offload of whole layers, tensor parallelism over N GPUs. Then a bigger GPU from
// `catalog`; and, when no single change of the step is enough, those changes combined.
std::vector<Fix> rankedFixes(const FitModel& model, const PlanOptions& options, const GpuCatalog& catalog);

// The whole answer, as `memviz estimate --config ... --device ...` prints it and the what-if
// panel shows it: the plan, the largest micro-batch and sequence that fit (when a limit is set)
// and the ranked fixes (when the step does not fit).
struct FitAnswer {
    Plan plan;
    std::int64_t largestMicroBatch = 0; // 0: none fits, or no limit
    std::int64_t largestSequence = 0;   // -1: not a sequence model; 0: none fits, or no limit
    std::vector<Fix> fixes;
};
FitAnswer answerFit(const FitModel& model, const PlanOptions& options, const GpuCatalog& catalog);

} // namespace memviz::costmodel

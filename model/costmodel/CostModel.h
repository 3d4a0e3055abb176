// SPDX-License-Identifier: MIT
#pragma once
// The cost model's public interface: the memory of one training (or inference) step of a model,
// simulated op by op. The one source of truth for `memviz estimate`, the what-if panel and the
// lessons. Pure C++, no Qt. See docs/costmodel.md.
#include <cstdint>
#include <string>
#include <vector>

#include "costmodel/MemorySim.h"
#include "costmodel/ModelSpec.h"
#include "costmodel/Optimizer.h"
#include "costmodel/ResolvedModel.h"
#include "costmodel/Types.h"

namespace memviz::costmodel {

enum class CheckpointMode { None, Sqrt, Segments };

struct Checkpointing {
    CheckpointMode mode = CheckpointMode::None;
    int segments = 0; // for Segments: checkpoint_sequential's K
};

// The CUDA context a process pays on its first CUDA call, outside PyTorch's allocator, when a
// user asks for one without giving its size (the what-if panel's "Add a CUDA context").
inline constexpr std::int64_t kDefaultCudaContextBytes = 500 * 1024 * 1024;

struct EstimateOptions {
    std::int64_t batch = 1;
    DType dtype = DType::F32; // parameters and activations; int8 only for inference
    bool amp = false;         // autocast: fp32 weights, fp16 (CUDA) / bf16 (CPU) compute
    OptimizerKind optimizer = OptimizerKind::Adam;
    OptimizerImpl optimizerImpl = OptimizerImpl::Auto; // CPU: for-loop (1.13); CUDA: foreach
    int lbfgsHistory = 100;
    Checkpointing checkpoint;
    bool training = true;
    DeviceKind device = DeviceKind::Cpu;
    std::int64_t cudaContextBytes = 0; // added on CUDA (the context is outside PyTorch's allocator)
    int step = 0;                      // which training step; 0 = the steady state (2; LBFGS: full history)
    bool timeline = true;              // keep the per-op timeline
};

struct PhaseMark {
    std::string name; // "step start", "forward end", "backward end", "step end"
    int sample = 0;   // index into the timeline
    std::int64_t bytes = 0;
};

struct Estimate {
    std::int64_t peakBytes = 0; // the largest heap between two ops (CUDA: reserved + context)
    Phase peakPhase = Phase::Forward;
    std::string peakOp;
    CategoryBytes breakdown{};      // live bytes by category at the peak; sums to peakBytes
    std::int64_t truePeakBytes = 0; // also counting scratch allocated and freed inside one op
    std::int64_t parameterCount = 0;
    std::int64_t parameterBytes = 0;
    int checkpointSegments = 0; // K actually used (0: none)
    int step = 0;               // the training step simulated
    int opCount = 0;            // simulated op samples
    std::vector<TimelineSample> timeline;
    std::vector<PhaseMark> marks;
    std::vector<std::string> warnings;
};

// Throws std::invalid_argument for impossible options (int8 training, batch < 1, ...).
Estimate estimate(const ResolvedModel& model, const EstimateOptions& options);
Estimate estimate(const ModelSpec& spec, const EstimateOptions& options);

// Largest batch whose peak fits in `limitBytes` (0 when not even batch 1 fits); searches up to
// `maxBatch`.
std::int64_t largestBatchThatFits(const ResolvedModel& model, EstimateOptions options, std::int64_t limitBytes,
                                  std::int64_t maxBatch = std::int64_t{1} << 40);

// The single changes of one knob worth trying from `options`, as options: the batch halved, bf16,
// AMP, plain SGD, checkpointing (sqrt), inference only. Knob ids as in KnobSaving.
struct KnobChange {
    std::string knob;
    std::string description;
    EstimateOptions options; // `options` with the one change (timeline off)
};
std::vector<KnobChange> knobChanges(const ResolvedModel& model, const EstimateOptions& options);

struct KnobSaving {
    std::string knob; // "batch/2", "bf16", "amp", "sgd", "checkpoint sqrt", "inference"
    std::string description;
    std::int64_t peakBytes = 0;
    std::int64_t savedBytes = 0; // base peak - this peak (negative: it costs memory)
};
// What each single change of a knob would do to the peak, from `options`.
std::vector<KnobSaving> knobSavings(const ResolvedModel& model, const EstimateOptions& options);

// The number of checkpoint segments `options` asks for on `model` (sqrt: round(sqrt(n))).
int checkpointSegmentsFor(const ResolvedModel& model, const Checkpointing& checkpoint);

// accelerate's `estimate-memory` rule, for comparison: the weights in the dtype, and for Adam
// training four times that (16 bytes per fp32 parameter), independent of batch and activations.
std::int64_t accelerateEstimate(std::int64_t parameterCount, DType dtype, bool training);

} // namespace memviz::costmodel

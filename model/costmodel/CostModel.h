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

// None; Sqrt and Segments: checkpoint_sequential over the top-level layers (K = round(sqrt(n))
// or K); PerLayer: every transformer block checkpointed on its own (Hugging Face's
// gradient_checkpointing); Selective: only the core attention (QK^T, softmax, ·V) of every
// block is recomputed (Korthikanti et al. 2022's selective recomputation).
enum class CheckpointMode { None, Sqrt, Segments, PerLayer, Selective };

struct Checkpointing {
    CheckpointMode mode = CheckpointMode::None;
    int segments = 0; // for Segments: checkpoint_sequential's K
};

// Eager: the B·H·S² scores and probabilities are materialised (and saved in training);
// Flash: memory-efficient / flash attention (SDPA): only the output and a B·H·S log-sum-exp.
enum class AttentionKind { Eager, Flash };

// Storage of the frozen linear weights of transformer blocks: the training dtype, bitsandbytes'
// LLM.int8 (1 byte + a fp32 scale per row) or NF4 with double quantization (QLoRA: 4 bits + an
// 8-bit absmax per 64 weights + a fp32 scale per 256 absmax). Quantized weights never train.
enum class WeightFormat { Full, Int8, Nf4 };

// Which linear layers of the transformer blocks get LoRA adapters.
enum class LoraTargets { Attention, Mlp, All };

struct Lora {
    int rank = 0; // 0 = no LoRA (full fine-tune, or frozen layers)
    LoraTargets targets = LoraTargets::Attention;
};

// The CUDA context a process pays on its first CUDA call, outside PyTorch's allocator, when a
// user asks for one without giving its size (the what-if panel's "Add a CUDA context").
inline constexpr std::int64_t kDefaultCudaContextBytes = 500 * 1024 * 1024;

struct EstimateOptions {
    std::int64_t batch = 1;
    DType dtype = DType::F32; // parameters and activations; int8 only for inference
    bool amp = false;         // autocast: fp32 weights, fp16 (CUDA) / bf16 (CPU) compute
    OptimizerKind optimizer = OptimizerKind::Adam;
    OptimizerImpl optimizerImpl = OptimizerImpl::Auto; // CPU: for-loop (1.13 and 2.x); CUDA: foreach
    TorchVersion torch = TorchVersion::V2;              // whose habits, where releases differ
    int lbfgsHistory = 100;
    Checkpointing checkpoint;
    bool training = true;
    DeviceKind device = DeviceKind::Cpu;
    std::int64_t cudaContextBytes = 0; // added on CUDA (the context is outside PyTorch's allocator)
    int step = 0;                      // which training step; 0 = the steady state (2; LBFGS: full history)
    bool timeline = true;              // keep the per-op timeline
    // Sequence length of a token model (the spec's input is [S] per sample); 0 = the spec's.
    std::int64_t seqLen = 0;
    // LoRA: the base weights are frozen (no gradients, no optimizer state), adapters A (r x in)
    // and B (out x r) train beside the targeted linear layers of every transformer block.
    Lora lora;
    int frozenLayers = 0; // the first N top-level layers get no gradients (requires_grad=False)
    AttentionKind attention = AttentionKind::Eager;
    WeightFormat weights = WeightFormat::Full; // Int8/Nf4: needs LoRA or inference
    // Inference with a KV cache: room for this many tokens of context per sequence (prefill of
    // the input, then one decoding step), rounded up to whole blocks of kvBlockTokens (vLLM's
    // paged attention uses 16). 0 = no cache (a plain forward).
    std::int64_t kvCacheTokens = 0;
    int kvBlockTokens = 1;
    // The loop calls zero_grad(set_to_none=True) after optimizer.step(), so no gradients are
    // alive while the next forward runs (the default keeps last step's until the forward starts).
    bool zeroGradAfterStep = false;
    // The loop never calls zero_grad (a benchmark that only runs forward and backward, or steps
    // without it): the gradients stay alive through the forward and the backward adds into them
    // in place (steady state: step 2 on).
    bool neverZeroGrad = false;
    // Inference under torch.inference_mode() rather than torch.no_grad(): autocast keeps no cast
    // cache there (the weights' low-precision copies go after each use).
    bool inferenceMode = false;
    // cuBLAS workspaces alive in the caching allocator from the first matmul on: one per
    // cuBLAS handle (one per thread that ran a matmul: the forward's, and the autograd engine's
    // once a backward ran). 0 = not modelled (the default).
    int cublasWorkspaces = 0;
    // Steps (training) or forwards (inference) the loop ran before the reported one, through
    // the same caching allocator, whose segments stay cached (a snapshot recorded after a
    // warm-up). The timeline and the marks are the reported step's; the reserved peak
    // (`peakBytes` on CUDA) covers every step. 0: the reported step alone, its state made up front.
    int stepsBefore = 0;
    // The loop keeps the model's output in a variable (`out = model(x)`), alive until the next
    // forward returns; `outputDroppedBeforeReported`: deleted (or its function returned) before
    // the reported step.
    bool outputKept = false;
    bool outputDroppedBeforeReported = false;
    // With `training`: the forward alone with autograd on (the parameters require grad, the
    // graph keeps what its backward would need), no loss, no backward, no step: a script that
    // records `logits = model(x)` without no_grad.
    bool graphForwardOnly = false;
};

// PyTorch 2.x's default cuBLAS workspace through the caching allocator (CUBLAS_WORKSPACE_CONFIG
// unset), as the CUDA snapshots record it: one block of this size per handle
// (docs/costmodel.md, "CUDA figures of the cost model").
inline constexpr std::int64_t kCublasWorkspaceBytes = 8519680;

// The spec with its sequence length set to `seqLen` (a token model: input [S], target [S]);
// unchanged for 0. Throws std::invalid_argument for a model without a sequence.
ModelSpec withSequenceLength(const ModelSpec& spec, std::int64_t seqLen);

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
    std::int64_t parameterCount = 0;          // the model's own parameters (LoRA adapters not included)
    std::int64_t parameterBytes = 0;          // in the training dtype (quantized weights: their real bytes)
    std::int64_t adapterParameterCount = 0;   // LoRA's A and B matrices
    std::int64_t trainableParameterCount = 0; // what gets gradients and optimizer state
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

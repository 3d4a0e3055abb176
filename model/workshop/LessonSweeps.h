// SPDX-License-Identifier: MIT
#pragma once
// The model lessons' numbers, all from the cost model: one estimate per point of a sweep
// (batch sizes, dtypes, optimizers, checkpoint segments, AMP on/off), summarised for tables
// and plots. Pure C++, no Qt.
#include <cstdint>
#include <string>
#include <vector>

#include "costmodel/CostModel.h"

namespace memviz::workshop {

// One estimate reduced to what the lessons show.
// The breakdown is what is alive at the moment of the peak.
struct Footprint {
    std::int64_t batch = 0;
    std::int64_t peakBytes = 0;
    costmodel::CategoryBytes breakdown{};
    costmodel::Phase peakPhase = costmodel::Phase::Forward;
    std::int64_t parameterBytes = 0; // the weights (every gradient together is as large)

    std::int64_t at(costmodel::Category c) const { return breakdown[static_cast<std::size_t>(c)]; }
    // Parameters, the gradients alive at the peak and optimizer state.
    std::int64_t modelStateBytes() const;
    // Parameters (and buffers) and optimizer state: alive for the whole step, whatever the
    // batch. The gradients are not: zero_grad(set_to_none=True) frees them and backward makes
    // them again, last layer first, so a peak early in backward (a large batch) sees few.
    std::int64_t persistentBytes() const;
    // Activations, the input batch and temporaries: what grows with the batch.
    std::int64_t batchBytes() const;
};

Footprint footprint(const costmodel::Estimate& e, std::int64_t batch);
// estimate() without the per-op timeline.
costmodel::Estimate quickEstimate(const costmodel::ResolvedModel& model, costmodel::EstimateOptions options);

// 1, 2, 4, ... up to maxBatch (included even when not a power of two).
std::vector<std::int64_t> batchSteps(std::int64_t maxBatch);
std::vector<Footprint> batchSweep(const costmodel::ResolvedModel& model, const costmodel::EstimateOptions& base,
                                  const std::vector<std::int64_t>& batches);

struct DTypeRow {
    std::string id; // "fp32", "bf16", "fp16", "fp64", "amp", "int8"
    costmodel::DType dtype = costmodel::DType::F32;
    bool amp = false;
    bool training = true; // int8 is inference only
    std::int64_t parameterBytes = 0;
    std::int64_t peakBytes = 0;
    std::int64_t inferencePeakBytes = 0;
};
// fp64, fp32, bf16, fp16, AMP (fp32 weights, low-precision compute), int8 (inference only).
std::vector<DTypeRow> dtypeComparison(const costmodel::ResolvedModel& model, const costmodel::EstimateOptions& base);

struct OptimizerRow {
    costmodel::OptimizerKind kind = costmodel::OptimizerKind::Sgd;
    double stateElementsPerParameter = 0; // momentum 1, Adam 2, LBFGS 2 + 2H
    std::int64_t stateBytes = 0;          // state elements * parameters * element size
    double bytesPerParameter = 0;         // weight + gradient + state, per parameter
    Footprint footprint;                  // the cost model's step with this optimizer
};
std::vector<OptimizerRow> optimizerComparison(const costmodel::ResolvedModel& model, const costmodel::EstimateOptions& base);

struct CheckpointRow {
    int segments = 1;           // K of checkpoint_sequential (1: no checkpointing)
    int recomputedLayers = 0;   // run twice: (K - 1) * (n / K)
    double recomputedShare = 0; // of the n top-level layers
    Footprint footprint;
};
// K = 1 .. n top-level layers.
std::vector<CheckpointRow> checkpointSweep(const costmodel::ResolvedModel& model, const costmodel::EstimateOptions& base);
// The row with the smallest peak (the fewest segments among equals).
const CheckpointRow* lowestPeak(const std::vector<CheckpointRow>& rows);

struct AmpRow {
    std::int64_t batch = 0;
    Footprint fp32, amp;
    std::int64_t savedBytes() const { return fp32.peakBytes - amp.peakBytes; }
    double savedShare() const { return fp32.peakBytes ? double(savedBytes()) / double(fp32.peakBytes) : 0.0; }
};
std::vector<AmpRow> ampSweep(const costmodel::ResolvedModel& model, const costmodel::EstimateOptions& base,
                             const std::vector<std::int64_t>& batches);

} // namespace memviz::workshop

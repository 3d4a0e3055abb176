// SPDX-License-Identifier: MIT
// Questions answered with several simulations: the largest batch that fits, what each knob
// saves, and accelerate's rule for comparison.
#include "costmodel/CostModel.h"

namespace memviz::costmodel {

std::int64_t largestBatchThatFits(const ResolvedModel& model, EstimateOptions options, std::int64_t limitBytes,
                                  std::int64_t maxBatch) {
    options.timeline = false;
    auto fits = [&](std::int64_t batch) {
        options.batch = batch;
        return estimate(model, options).peakBytes <= limitBytes;
    };
    if (!fits(1)) return 0;
    // The peak grows with the batch: double until it does not fit, then bisect.
    std::int64_t lo = 1, hi = 2;
    while (hi <= maxBatch && fits(hi)) {
        lo = hi;
        hi *= 2;
    }
    if (hi > maxBatch) {
        if (fits(maxBatch)) return maxBatch;
        hi = maxBatch;
    }
    while (hi - lo > 1) {
        const std::int64_t mid = lo + (hi - lo) / 2;
        (fits(mid) ? lo : hi) = mid;
    }
    return lo;
}

std::vector<KnobChange> knobChanges(const ResolvedModel& model, const EstimateOptions& base) {
    EstimateOptions quiet = base;
    quiet.timeline = false;
    std::vector<KnobChange> out;
    auto tryKnob = [&](const char* knob, const char* description, const EstimateOptions& changed) {
        out.push_back({knob, description, changed});
    };
    if (base.batch > 1) {
        EstimateOptions o = quiet;
        o.batch = std::max<std::int64_t>(1, base.batch / 2);
        tryKnob("batch/2", "halve the batch size", o);
    }
    if (base.dtype == DType::F32 || base.dtype == DType::F64) {
        if (!base.amp) {
            EstimateOptions o = quiet;
            o.dtype = DType::BF16;
            tryKnob("bf16", "parameters and activations in bf16", o);
            if (base.training) {
                o = quiet;
                o.amp = true;
                tryKnob("amp", "mixed precision (autocast)", o);
            }
        }
    }
    if (base.training) {
        if (base.optimizer != OptimizerKind::Sgd) {
            EstimateOptions o = quiet;
            o.optimizer = OptimizerKind::Sgd;
            tryKnob("sgd", "plain SGD instead (no optimizer state)", o);
        }
        if (base.checkpoint.mode == CheckpointMode::None && model.topLevelLayerCount() >= 4) {
            EstimateOptions o = quiet;
            o.checkpoint.mode = CheckpointMode::Sqrt;
            tryKnob("checkpoint sqrt", "checkpoint_sequential with K = sqrt(layers) segments", o);
        }
        EstimateOptions o = quiet;
        o.training = false;
        o.checkpoint = {}; // nothing to recompute without a backward pass
        tryKnob("inference", "inference only (torch.no_grad)", o);
    }
    return out;
}

std::vector<KnobSaving> knobSavings(const ResolvedModel& model, const EstimateOptions& base) {
    EstimateOptions quiet = base;
    quiet.timeline = false;
    const std::int64_t basePeak = estimate(model, quiet).peakBytes;
    std::vector<KnobSaving> out;
    for (const KnobChange& c : knobChanges(model, base)) {
        const std::int64_t peak = estimate(model, c.options).peakBytes;
        out.push_back({c.knob, c.description, peak, basePeak - peak});
    }
    return out;
}

std::int64_t accelerateEstimate(std::int64_t parameterCount, DType dtype, bool training) {
    const std::int64_t weights = parameterCount * elementSize(dtype);
    return training ? 4 * weights : weights;
}

} // namespace memviz::costmodel

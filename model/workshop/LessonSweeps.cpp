// SPDX-License-Identifier: MIT
#include "workshop/LessonSweeps.h"

#include <stdexcept>

#include "workshop/CheckpointPlan.h"

namespace memviz::workshop {

using namespace costmodel;

std::int64_t Footprint::modelStateBytes() const {
    return at(Category::Parameters) + at(Category::Gradients) + at(Category::OptimizerState);
}

std::int64_t Footprint::persistentBytes() const { return at(Category::Parameters) + at(Category::OptimizerState); }

std::int64_t Footprint::batchBytes() const { return at(Category::Activations) + at(Category::Input) + at(Category::Temporaries); }

Footprint footprint(const Estimate& e, std::int64_t batch) {
    return {batch, e.peakBytes, e.breakdown, e.peakPhase, e.parameterBytes};
}

Estimate quickEstimate(const ResolvedModel& model, EstimateOptions options) {
    options.timeline = false;
    return estimate(model, options);
}

std::vector<std::int64_t> batchSteps(std::int64_t maxBatch) {
    std::vector<std::int64_t> out;
    for (std::int64_t b = 1; b < maxBatch; b *= 2) out.push_back(b);
    if (maxBatch >= 1) out.push_back(maxBatch);
    return out;
}

std::vector<Footprint> batchSweep(const ResolvedModel& model, const EstimateOptions& base,
                                  const std::vector<std::int64_t>& batches) {
    std::vector<Footprint> out;
    for (std::int64_t b : batches) {
        EstimateOptions o = base;
        o.batch = b;
        out.push_back(footprint(quickEstimate(model, o), b));
    }
    return out;
}

std::vector<DTypeRow> dtypeComparison(const ResolvedModel& model, const EstimateOptions& base) {
    struct Choice {
        const char* id;
        DType dtype;
        bool amp;
    };
    const Choice choices[] = {{"fp64", DType::F64, false}, {"fp32", DType::F32, false}, {"bf16", DType::BF16, false},
                              {"fp16", DType::F16, false}, {"amp", DType::F32, true},   {"int8", DType::I8, false}};
    std::vector<DTypeRow> out;
    for (const Choice& c : choices) {
        DTypeRow row{c.id, c.dtype, c.amp, c.dtype != DType::I8};
        EstimateOptions o = base;
        o.dtype = c.dtype;
        o.amp = c.amp;
        o.training = false;
        const Estimate inference = quickEstimate(model, o);
        row.inferencePeakBytes = inference.peakBytes;
        row.parameterBytes = inference.parameterBytes;
        if (row.training) {
            o.training = true;
            row.peakBytes = quickEstimate(model, o).peakBytes;
        }
        out.push_back(row);
    }
    return out;
}

std::vector<OptimizerRow> optimizerComparison(const ResolvedModel& model, const EstimateOptions& base) {
    const OptimizerKind kinds[] = {OptimizerKind::Sgd,     OptimizerKind::Momentum, OptimizerKind::Adam, OptimizerKind::AdamW,
                                   OptimizerKind::Adagrad, OptimizerKind::RMSprop,  OptimizerKind::Lbfgs};
    const int element = elementSize(base.amp ? DType::F32 : base.dtype);
    std::vector<OptimizerRow> out;
    for (OptimizerKind k : kinds) {
        OptimizerRow row;
        row.kind = k;
        row.stateElementsPerParameter = stateElementsPerParameter(k, base.lbfgsHistory);
        row.stateBytes = static_cast<std::int64_t>(row.stateElementsPerParameter * double(model.parameterCount()) * element);
        row.bytesPerParameter = (2.0 + row.stateElementsPerParameter) * element;
        EstimateOptions o = base;
        o.optimizer = k;
        o.training = true;
        row.footprint = footprint(quickEstimate(model, o), base.batch);
        out.push_back(row);
    }
    return out;
}

std::vector<CheckpointRow> checkpointSweep(const ResolvedModel& model, const EstimateOptions& base) {
    const int n = model.topLevelLayerCount();
    std::vector<CheckpointRow> out;
    for (int k = 1; k <= n; ++k) {
        CheckpointRow row;
        row.segments = k;
        row.recomputedLayers = recomputedLayers(n, k);
        row.recomputedShare = n ? double(row.recomputedLayers) / n : 0.0;
        EstimateOptions o = base;
        o.training = true;
        o.checkpoint = {k == 1 ? CheckpointMode::None : CheckpointMode::Segments, k};
        row.footprint = footprint(quickEstimate(model, o), base.batch);
        out.push_back(row);
    }
    return out;
}

const CheckpointRow* lowestPeak(const std::vector<CheckpointRow>& rows) {
    const CheckpointRow* best = nullptr;
    for (const CheckpointRow& r : rows)
        if (!best || r.footprint.peakBytes < best->footprint.peakBytes) best = &r;
    return best;
}

std::vector<AmpRow> ampSweep(const ResolvedModel& model, const EstimateOptions& base, const std::vector<std::int64_t>& batches) {
    std::vector<AmpRow> out;
    for (std::int64_t b : batches) {
        EstimateOptions o = base;
        o.batch = b;
        o.training = true;
        o.dtype = DType::F32;
        o.amp = false;
        AmpRow row;
        row.batch = b;
        row.fp32 = footprint(quickEstimate(model, o), b);
        o.amp = true;
        row.amp = footprint(quickEstimate(model, o), b);
        out.push_back(row);
    }
    return out;
}

} // namespace memviz::workshop

#include "workshop/ModelFixes.h"

#include <algorithm>

#include "workshop/LessonSweeps.h"

namespace memviz::workshop {

using namespace costmodel;

ModelFixes modelFixes(const ResolvedModel& model, const EstimateOptions& base) {
    ModelFixes out;
    out.basePeakBytes = quickEstimate(model, base).peakBytes;
    const auto tryFix = [&](const char* id, const char* lesson, EstimateOptions o) {
        const std::int64_t peak = quickEstimate(model, o).peakBytes;
        out.fixes.push_back({id, lesson, o, peak, out.basePeakBytes - peak});
    };
    if (base.batch > 1) {
        EstimateOptions o = base;
        o.batch = std::max<std::int64_t>(1, base.batch / 2);
        tryFix("smaller-batch", "batch-size", o);
    }
    if (!base.amp && (base.dtype == DType::F32 || base.dtype == DType::F64)) {
        EstimateOptions o = base;
        o.dtype = DType::BF16;
        tryFix("bf16", "dtype", o);
        if (base.training) {
            o = base;
            o.amp = true;
            tryFix("mixed-precision", "mixed-precision", o);
        }
    }
    if (base.training) {
        if (base.checkpoint.mode == CheckpointMode::None && model.topLevelLayerCount() >= 4) {
            EstimateOptions o = base;
            o.checkpoint.mode = CheckpointMode::Sqrt;
            tryFix("checkpointing", "checkpointing", o);
        }
        // A lighter optimizer: Adam's two states -> SGD with momentum's one; one state -> plain SGD.
        const double state = stateElementsPerParameter(base.optimizer, base.lbfgsHistory);
        if (state > 0) {
            EstimateOptions o = base;
            o.optimizer = state > 1 && base.optimizer != OptimizerKind::Lbfgs ? OptimizerKind::Momentum : OptimizerKind::Sgd;
            tryFix("lighter-optimizer", "optimizers", o);
        }
        EstimateOptions o = base;
        o.training = false;
        o.checkpoint = {};
        tryFix("no-grad", "freeing", o);
    }
    std::stable_sort(out.fixes.begin(), out.fixes.end(),
                     [](const ModelFix& a, const ModelFix& b) { return a.savedBytes > b.savedBytes; });
    return out;
}

} // namespace memviz::workshop

// SPDX-License-Identifier: MIT
#include "workshop/ModelFixes.h"

#include <algorithm>

#include "workshop/LessonSweeps.h"

namespace memviz::workshop {

using namespace costmodel;

ModelFixes modelFixes(const ResolvedModel& model, const EstimateOptions& base) {
    ModelFixes out;
    out.basePeakBytes = quickEstimate(model, base).peakBytes;
    // The cost model's single-knob changes, named for the decoder and linked to their lessons.
    struct Named {
        const char* knob;
        const char* id;
        const char* lesson;
    };
    static constexpr Named kNames[] = {{"batch/2", "smaller-batch", "batch-size"},
                                       {"bf16", "bf16", "dtype"},
                                       {"amp", "mixed-precision", "mixed-precision"},
                                       {"sgd", "lighter-optimizer", "optimizers"},
                                       {"checkpoint sqrt", "checkpointing", "checkpointing"},
                                       {"inference", "no-grad", "freeing"}};
    for (const KnobChange& c : knobChanges(model, base)) {
        const auto named = std::find_if(std::begin(kNames), std::end(kNames), [&](const Named& n) { return c.knob == n.knob; });
        if (named == std::end(kNames)) continue;
        EstimateOptions o = c.options;
        o.timeline = base.timeline;
        if (c.knob == "sgd") {
            // One step lighter rather than straight to plain SGD: Adam's two states -> SGD with
            // momentum's one; one state (or LBFGS' history) -> plain SGD.
            const double state = stateElementsPerParameter(base.optimizer, base.lbfgsHistory);
            if (state <= 0) continue;
            o.optimizer = state > 1 && base.optimizer != OptimizerKind::Lbfgs ? OptimizerKind::Momentum : OptimizerKind::Sgd;
        }
        const std::int64_t peak = quickEstimate(model, o).peakBytes;
        out.fixes.push_back({named->id, named->lesson, o, peak, out.basePeakBytes - peak});
    }
    std::stable_sort(out.fixes.begin(), out.fixes.end(),
                     [](const ModelFix& a, const ModelFix& b) { return a.savedBytes > b.savedBytes; });
    return out;
}

} // namespace memviz::workshop

// SPDX-License-Identifier: MIT
#include "costmodel/Calibration.h"

#include <cmath>

namespace memviz::costmodel {

std::optional<Category> categoryForRecordedName(const std::string& name) {
    if (name == "parameter") return Category::Parameters;
    if (name == "optimizer state") return Category::OptimizerState;
    if (name == "input") return Category::Input;
    if (name == "temporary" || name == "autograd detail") return Category::Temporaries;
    if (name == "activation") return Category::Activations;
    if (name == "gradient") return Category::Gradients;
    return std::nullopt;
}

CalibratedProjection project(const RecordedBaseline& recorded, const Estimate& base, const Estimate& chosen) {
    CalibratedProjection p;
    p.peakRatio = base.peakBytes > 0 ? static_cast<double>(chosen.peakBytes) / static_cast<double>(base.peakBytes) : 1.0;
    p.modelledVsRecorded = recorded.peakBytes > 0 ? static_cast<double>(base.peakBytes) / static_cast<double>(recorded.peakBytes)
                                                  : 1.0;
    auto scaled = [](std::int64_t v, double r) { return static_cast<std::int64_t>(std::llround(static_cast<double>(v) * r)); };
    if (recorded.categories.empty()) {
        p.projectedPeakBytes = scaled(recorded.peakBytes, p.peakRatio);
    } else {
        // Model categories shared by several recorded ones (temporary, autograd detail) scale
        // alike; the sum over categories is the projected peak.
        for (const RecordedCategory& c : recorded.categories) {
            double r = p.peakRatio;
            if (c.category) {
                const auto i = static_cast<std::size_t>(*c.category);
                if (base.breakdown[i] > 0) r = static_cast<double>(chosen.breakdown[i]) / static_cast<double>(base.breakdown[i]);
            }
            p.categoryRatios.push_back(r);
            p.projectedCategoryBytes.push_back(scaled(c.bytesAtPeak, r));
            p.projectedPeakBytes += p.projectedCategoryBytes.back();
        }
    }
    // The timeline keeps its recorded shape, scaled so that its peak lands on the projection.
    const double timelineRatio = recorded.peakBytes > 0
                                     ? static_cast<double>(p.projectedPeakBytes) / static_cast<double>(recorded.peakBytes)
                                     : p.peakRatio;
    for (const auto& [t, b] : recorded.timeline) p.projectedTimeline.emplace_back(t, scaled(b, timelineRatio));
    return p;
}

} // namespace memviz::costmodel

// SPDX-License-Identifier: MIT
#pragma once
// Calibration on a recorded trace: the recording is the baseline (what was measured), the cost
// model supplies only ratios (what was modelled). With the model run once at the settings of
// the recording and once at the chosen settings, each recorded category is scaled by the
// model's ratio for that category, and the recorded timeline by the ratio of the peaks:
//
//   projected_c = recorded_c * modelled_c(chosen) / modelled_c(recorded settings)
//
// A category the model does not have at the recorded settings (or a trace without categories)
// is scaled by the ratio of the modelled peaks. docs/costmodel.md describes the method.
#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "costmodel/CostModel.h"

namespace memviz::costmodel {

struct RecordedCategory {
    std::string name; // as the recording names it ("activation", "gradient", ...)
    std::int64_t bytesAtPeak = 0;
    std::optional<Category> category; // our category, when there is one
};

struct RecordedBaseline {
    std::string source; // file name, for labels
    std::string device; // the device whose peak is the baseline
    std::int64_t peakBytes = 0;
    std::int64_t peakTimeNs = 0;
    std::vector<RecordedCategory> categories;                    // empty when the format has none
    std::vector<std::pair<std::int64_t, std::int64_t>> timeline; // (t ns, bytes), coarse
};

// PyTorch's memory-timeline categories (parameter, optimizer state, input, temporary,
// activation, gradient, autograd detail, unknown) as ours.
std::optional<Category> categoryForRecordedName(const std::string& name);

struct CalibratedProjection {
    double peakRatio = 1;          // modelled peak, chosen / recorded settings
    double modelledVsRecorded = 1; // modelled peak at the recorded settings / recorded peak
    std::int64_t projectedPeakBytes = 0;
    std::vector<std::int64_t> projectedCategoryBytes; // per RecordedBaseline::categories
    std::vector<double> categoryRatios;               // the factor applied to each
    std::vector<std::pair<std::int64_t, std::int64_t>> projectedTimeline;
};

CalibratedProjection project(const RecordedBaseline& recorded, const Estimate& atRecordedSettings, const Estimate& atChosen);

} // namespace memviz::costmodel

// SPDX-License-Identifier: MIT
#pragma once
// The OOM decoder's fixes for a chosen model, each a single change of the training setup,
// with the peak the cost model predicts after it and what it saves, most saving first.
#include <cstdint>
#include <string>
#include <vector>

#include "costmodel/CostModel.h"

namespace memviz::workshop {

struct ModelFix {
    std::string id;     // "smaller-batch", "bf16", "mixed-precision", "checkpointing", "lighter-optimizer", "no-grad"
    std::string lesson; // the lesson that explains it
    costmodel::EstimateOptions options; // the setup after the change
    std::int64_t peakBytes = 0;
    std::int64_t savedBytes = 0; // base peak - peak
};

struct ModelFixes {
    std::int64_t basePeakBytes = 0;
    std::vector<ModelFix> fixes; // most saving first
};

// Throws std::invalid_argument for options the cost model rejects.
ModelFixes modelFixes(const costmodel::ResolvedModel& model, const costmodel::EstimateOptions& base);

} // namespace memviz::workshop

// SPDX-License-Identifier: MIT
#pragma once
// A cost-model estimate kept as a trace in a store (`memviz estimate --save STORE`), so that
// two estimates (or an estimate and a recording) can be compared like any two traces: one
// training step, sample by sample (the time axis counts simulated ops: timeKind "index"), the
// device's bytes as the primary series and the cost model's categories as stacked series, so
// `memviz diff` and the Compare window list each category at each peak (issue 13: the cost
// model's breakdown).
#include <cstdint>
#include <string>

#include "costmodel/CostModel.h"

namespace memviz {
class Database;
}

namespace memviz::costmodel {

// The name a saved estimate's trace gets: "estimate: resnet18, batch 32, fp32, adam, cpu".
std::string estimateDescription(const std::string& model, const EstimateOptions& options, const Estimate& e);

// Writes `e` (estimated with options.timeline set: it needs the per-op samples) as a new trace
// of format format_id::kEstimate named `description`; returns its id. Throws
// std::invalid_argument when the estimate has no timeline.
std::int64_t saveEstimateTrace(Database& db, const std::string& description, const EstimateOptions& options, const Estimate& e);

} // namespace memviz::costmodel

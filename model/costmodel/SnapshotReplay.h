// SPDX-License-Identifier: MIT
#pragma once
// Model replay of a recorded CUDA snapshot (docs/costmodel.md, "Model replay"): a replay spec
// (bench/snapshot_replay/specs/*.json) names the snapshot, the public code it was read from
// and how that code runs the model (sizes, autocast, batch, context, optimizer and its
// implementation, which phase was recorded); the cost model predicts the allocated bytes per
// phase, which the table and tst_snapshot_model_replay set beside the recorded ones.
#include <cstdint>
#include <string>
#include <vector>

#include "costmodel/CostModel.h"

namespace memviz::costmodel {

struct ReplaySpec {
    std::string snapshot;   // the snapshot's file name in the shared fixtures' wild/ folder
    std::string repository; // owner/name of the public repository holding the file and the code
    std::string commit;     // the code's commit the spec was read from
    std::string gpu;        // as far as the repository says; "not recorded" otherwise
    std::string pytorch;    // the release the repository pins (uv.lock, pyproject.toml)
    std::vector<std::string> source; // file:lines of the code each setting was read from
    std::string recorded;   // what the script recorded: "forward" or "full step"
    std::vector<std::string> compare; // the phases compared (PhaseAllocated keys)
    ModelSpec model;
    EstimateOptions options; // device cuda, the step's knobs
};

// Reads a replay spec; throws SpecError naming the file and the field.
ReplaySpec readReplaySpec(const std::string& path);

// Allocated bytes (requested sizes, as a snapshot's trace records them) per phase of an
// estimate with its timeline.
struct PhaseAllocated {
    std::int64_t forwardEnd = 0;   // after the loss, before the backward (training)
    std::int64_t forwardPeak = 0;  // highest during the forward (the step's start included)
    std::int64_t backwardPeak = 0; // highest during the backward (0 without one)
    std::int64_t stepPeak = 0;     // highest during the optimizer step (0 without one)
    std::int64_t peak = 0;         // highest of the step
};
PhaseAllocated phaseAllocated(const Estimate& e);
// The value of one key: forward_end, forward_peak, backward_peak, step_peak, peak; -1 otherwise.
std::int64_t phaseValue(const PhaseAllocated& p, const std::string& key);

} // namespace memviz::costmodel

// SPDX-License-Identifier: MIT
#pragma once
// Call trees of a CUDA memory snapshot (formats/StackSources.h picks this provider): the
// requested bytes of the allocations alive at a moment (default: each device's peak), or
// allocated in a time range, by the frames the snapshot recorded for each allocation.
#include <cstdint>
#include <vector>

#include "formats/StackSources.h"

namespace memviz {

std::vector<StackMetric> snapshotStackMetrics();
// True when some allocation of the trace has frames.
bool snapshotHasStacks(Database& db, std::int64_t traceId);
StackTree snapshotStackTree(Database& db, std::int64_t traceId, const StackRequest& request, const Progress* progress);

} // namespace memviz

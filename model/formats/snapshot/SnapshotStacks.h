// SPDX-License-Identifier: MIT
#pragma once
// Call trees of a CUDA memory snapshot (formats/StackSources.h picks this provider): the
// requested bytes of the allocations alive at a moment (default: each device's peak), or
// allocated in a time range, by the frames the snapshot recorded for each allocation; grouped
// by compile context, user metadata or forward stack when asked (the key is the root level).
#include <cstdint>
#include <vector>

#include "formats/StackSources.h"

namespace memviz {

std::vector<StackMetric> snapshotStackMetrics();
// The grouping keys the trace's entries carry: "compile-context" (other than 'N/A'),
// "user-metadata", "forward-stack".
std::vector<StackGrouping> snapshotStackGroupings(Database& db, std::int64_t traceId);
// True when some allocation of the trace has frames.
bool snapshotHasStacks(Database& db, std::int64_t traceId);
StackTree snapshotStackTree(Database& db, std::int64_t traceId, const StackRequest& request, const Progress* progress);

} // namespace memviz

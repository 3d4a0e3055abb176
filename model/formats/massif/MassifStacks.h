// SPDX-License-Identifier: MIT
#pragma once
// Call trees of a massif import (formats/StackSources.h picks this provider): the heap tree of
// one detailed snapshot, the one at or before the requested moment, else the peak snapshot.
#include <cstdint>
#include <vector>

#include "formats/StackSources.h"

namespace memviz {

std::vector<StackMetric> massifStackMetrics();
// The detailed snapshot a request shows (-1: the trace has none).
std::int64_t massifSnapshotFor(Database& db, std::int64_t traceId, const std::optional<std::int64_t>& at);
StackTree massifStackTree(Database& db, std::int64_t traceId, const StackRequest& request);

} // namespace memviz

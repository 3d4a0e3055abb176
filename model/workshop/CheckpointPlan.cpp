// SPDX-License-Identifier: MIT
#include "workshop/CheckpointPlan.h"

#include <algorithm>
#include <cmath>

namespace memviz::workshop {

int checkpointSegmentSize(int layers, int segments) { return segments > 0 ? layers / segments : 0; }

int recomputedLayers(int layers, int segments) {
    if (segments <= 1) return 0;
    return (segments - 1) * checkpointSegmentSize(layers, segments);
}

std::vector<int> checkpointSegmentLayers(int layers, int segments) {
    if (segments <= 1 || layers <= 0) return {std::max(layers, 0)};
    const int size = checkpointSegmentSize(layers, segments);
    std::vector<int> out(static_cast<std::size_t>(segments - 1), size);
    out.push_back(layers - (segments - 1) * size);
    return out;
}

int sqrtSegments(int layers) { return std::max(1, static_cast<int>(std::lround(std::sqrt(static_cast<double>(layers))))); }

} // namespace memviz::workshop

// SPDX-License-Identifier: MIT
#pragma once
// Lesson 5's arithmetic of torch.utils.checkpoint.checkpoint_sequential(functions, segments):
// the n layers are cut into segments of n // K layers; the first K - 1 segments run without
// keeping activations and are run again in the backward pass, the last segment (the rest of
// the layers) runs normally. K = 1 is no checkpointing. The memory it keeps is about
// K segment inputs plus one segment's activations, smallest near K = sqrt(n).
#include <vector>

namespace memviz::workshop {

// Layers per checkpointed segment: n / K (0 when K > n).
int checkpointSegmentSize(int layers, int segments);
// Layers run twice: (K - 1) * (n / K).
int recomputedLayers(int layers, int segments);
// The layers of each segment, the last one taking the remainder: n = 10, K = 3 -> 3, 3, 4.
std::vector<int> checkpointSegmentLayers(int layers, int segments);
// round(sqrt(n)), at least 1: the K of the cost model's "sqrt" policy.
int sqrtSegments(int layers);

} // namespace memviz::workshop

// SPDX-License-Identifier: MIT
#pragma once
// Stacking of step series for the timeline: a stacked series is drawn at its own value plus
// the value of the stack below it, both read as steps (a value holds until the next point).
#include <vector>

#include "store/ChunkCodec.h"

namespace memviz {

// Points at every time of either input, valued below(t) + own(t); before a series' first
// point its value counts as 0.
std::vector<SeriesPoint> stackOnto(const std::vector<SeriesPoint>& below, const std::vector<SeriesPoint>& own);

} // namespace memviz

// SPDX-License-Identifier: MIT
#pragma once
// A call tree (trace/StackTree.h) as a static SVG icicle for the HTML report: the root on top,
// widths proportional to inclusive values, frames narrower than half a pixel left out (and at
// most `maxFrames` drawn), each frame with a <title> tooltip (frame, value, share).
#include <string>

#include "trace/StackTree.h"

namespace memviz {

std::string flameSvg(const StackTree& tree, bool bytes, std::size_t maxFrames = 4000);

} // namespace memviz

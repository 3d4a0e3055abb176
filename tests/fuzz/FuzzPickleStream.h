// SPDX-License-Identifier: MIT
#pragma once
// Checks of the streaming pickle and snapshot readers against the whole-tree readers, for
// the pickle and snapshot fuzz targets (FuzzPickleStream.cpp). Disagreement aborts (a finding).
#include <string_view>

#include "FuzzTargets.h"

namespace memviz::fuzz {

// `whole`: what pickle::parse() made of the same bytes.
void checkPickleStream(std::string_view data, const Outcome& whole);
void checkSnapshotStream(std::string_view data);

} // namespace memviz::fuzz

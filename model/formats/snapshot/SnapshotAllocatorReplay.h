// SPDX-License-Identifier: MIT
#pragma once
// The allocator replay (costmodel/AllocatorReplay.h) of one device of a stored CUDA snapshot:
// its final segments and blocks, its trace entries and its allocator_settings read from the
// store, for `memviz allocator-replay`, `memviz summary --json` and the tests.
#include <cstdint>

#include "costmodel/AllocatorReplay.h"

namespace memviz {

class Database;

costmodel::AllocatorReplayInput loadAllocatorReplayInput(Database& db, std::int64_t traceId, int device);

} // namespace memviz

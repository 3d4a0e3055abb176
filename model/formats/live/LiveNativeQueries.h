// SPDX-License-Identifier: MIT
#pragma once
// Read side of live_native_sites (LiveNativeSchema.h): the top allocation sites a native
// recording (memviz record --native) last stored.
#include <cstdint>
#include <string>
#include <vector>

namespace memviz {

class Database;

struct LiveNativeSite {
    int rank = 0;
    std::int64_t t = 0;
    std::string function, location;
    std::int64_t bytes = 0, peakBytes = 0, calls = 0;
};

// By rank (most bytes held first); empty for a trace that is not a native recording.
std::vector<LiveNativeSite> listLiveNativeSites(Database& db, std::int64_t traceId);

} // namespace memviz

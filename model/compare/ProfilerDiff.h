// SPDX-License-Identifier: MIT
#pragma once
// Two profiler traces compared by their key_averages columns (`memviz diff`, issue 13): per
// operator the calls, and per device the memory (CPU Mem / CUDA Mem: inclusive), the self
// memory (Self CPU Mem / Self CUDA Mem) and the allocations, as `memviz ops` shows them for
// one trace (formats/profiler/ProfilerQuery.h). Operators match by name, devices by name; a
// row in one trace only has zeros for the other. B - A throughout (TraceDiff.h).
#include <cstdint>
#include <string>
#include <vector>

#include "compare/TraceDiff.h"
#include "formats/profiler/ProfilerQuery.h"

namespace memviz {

struct OpMemoryDiff {
    std::string device;
    DiffValue mem, selfMem, allocs, allocBytes;
};

struct ProfilerOpDiff {
    std::string name;
    DiffValue calls;
    std::vector<OpMemoryDiff> devices; // every device of A, then those only in B
    // The largest |delta| of self memory over the devices (the order of the rows).
    std::int64_t largestSelfChange() const;
};

// Rows whose figures all stay the same are left out. Largest |delta of self memory| first,
// then largest |delta of calls|, then by name. `device` ("" = every device) keeps one device.
std::vector<ProfilerOpDiff> diffProfilerOps(const ProfilerOpsTable& a, const ProfilerOpsTable& b, const std::string& device);

} // namespace memviz

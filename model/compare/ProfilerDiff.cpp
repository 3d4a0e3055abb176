// SPDX-License-Identifier: MIT
#include "compare/ProfilerDiff.h"

#include <algorithm>
#include <cstdlib>
#include <map>
#include <strings.h>

namespace memviz {

std::int64_t ProfilerOpDiff::largestSelfChange() const {
    std::int64_t most = 0;
    for (const OpMemoryDiff& d : devices) most = std::max<std::int64_t>(most, std::llabs(d.selfMem.delta()));
    return most;
}

std::vector<ProfilerOpDiff> diffProfilerOps(const ProfilerOpsTable& a, const ProfilerOpsTable& b, const std::string& device) {
    // The devices compared, by name: A's, then B's others.
    std::vector<std::string> names;
    for (const ProfilerOpsTable* t : {&a, &b})
        for (const std::string& n : t->devices)
            if ((device.empty() || strcasecmp(n.c_str(), device.c_str()) == 0) &&
                std::find(names.begin(), names.end(), n) == names.end())
                names.push_back(n);
    std::map<std::string, ProfilerOpDiff> byName;
    auto add = [&](const ProfilerOpsTable& t, bool isB) {
        for (const ProfilerOpRow& r : t.rows) {
            ProfilerOpDiff& d = byName[r.name];
            if (d.devices.empty()) {
                d.name = r.name;
                for (const std::string& n : names) d.devices.push_back(OpMemoryDiff{n, {}, {}, {}, {}});
            }
            (isB ? d.calls.b : d.calls.a) += r.calls;
            for (std::size_t i = 0; i < r.memory.size() && i < t.devices.size(); ++i) {
                const auto it = std::find(names.begin(), names.end(), t.devices[i]);
                if (it == names.end()) continue;
                OpMemoryDiff& m = d.devices[static_cast<std::size_t>(it - names.begin())];
                const OpMemory& v = r.memory[i];
                (isB ? m.mem.b : m.mem.a) += v.bytes;
                (isB ? m.selfMem.b : m.selfMem.a) += v.selfBytes;
                (isB ? m.allocs.b : m.allocs.a) += v.allocs;
                (isB ? m.allocBytes.b : m.allocBytes.a) += v.allocBytes;
            }
        }
    };
    add(a, false);
    add(b, true);
    std::vector<ProfilerOpDiff> out;
    for (auto& [name, d] : byName) {
        bool changed = d.calls.delta() != 0;
        for (const OpMemoryDiff& m : d.devices)
            changed = changed || m.mem.delta() || m.selfMem.delta() || m.allocs.delta() || m.allocBytes.delta();
        if (changed) out.push_back(std::move(d));
    }
    std::stable_sort(out.begin(), out.end(), [](const ProfilerOpDiff& x, const ProfilerOpDiff& y) {
        if (x.largestSelfChange() != y.largestSelfChange()) return x.largestSelfChange() > y.largestSelfChange();
        return std::llabs(x.calls.delta()) > std::llabs(y.calls.delta());
    });
    return out;
}

} // namespace memviz

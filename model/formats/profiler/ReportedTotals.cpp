// SPDX-License-Identifier: MIT
#include "formats/profiler/ReportedTotals.h"

#include <algorithm>
#include <unordered_map>

namespace memviz {

bool ReportedTotals::agrees(std::int64_t runningSum, std::int64_t totalAllocated) const {
    return wrappingSub(totalAllocated, runningSum) == offset;
}

ReportedTotals reportedTotals(const std::vector<const MemoryRecord*>& memory) {
    // Per offset: how many events say it, and the first of them. The most frequent wins, the
    // earliest on a tie; every other offset's events disagree, the earliest of them first.
    struct Seen {
        std::int64_t count = 0;
        std::size_t first = 0;
    };
    std::unordered_map<std::int64_t, Seen> seen;
    std::int64_t running = 0;
    for (std::size_t i = 0; i < memory.size(); ++i) {
        running = wrappingAdd(running, memory[i]->bytes);
        auto [it, fresh] = seen.try_emplace(wrappingSub(memory[i]->totalAllocated, running), Seen{0, i});
        ++it->second.count;
    }
    ReportedTotals r;
    const Seen* best = nullptr;
    for (const auto& [offset, s] : seen)
        if (!best || s.count > best->count || (s.count == best->count && s.first < best->first)) {
            best = &s;
            r.offset = offset;
        }
    std::size_t firstDisagreeing = memory.size();
    for (const auto& [offset, s] : seen)
        if (&s != best) {
            r.disagreeing += s.count;
            firstDisagreeing = std::min(firstDisagreeing, s.first);
        }
    if (r.disagreeing > 0) r.firstDisagreeingT = memory[firstDisagreeing]->t;
    return r;
}

} // namespace memviz

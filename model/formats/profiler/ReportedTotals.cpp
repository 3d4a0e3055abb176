// SPDX-License-Identifier: MIT
#include "formats/profiler/ReportedTotals.h"

#include <unordered_map>
#include <utility>

namespace memviz {

bool ReportedTotals::agrees(std::int64_t runningSum, std::int64_t totalAllocated) const {
    return wrappingSub(totalAllocated, runningSum) == offset;
}

ReportedTotals reportedTotals(const std::vector<const MemoryRecord*>& memory) {
    // Each offset's count and its first event: the most frequent wins, the earliest on a tie.
    std::unordered_map<std::int64_t, std::pair<std::int64_t, std::size_t>> seen;
    std::int64_t running = 0;
    for (std::size_t i = 0; i < memory.size(); ++i) {
        running = wrappingAdd(running, memory[i]->bytes);
        auto [it, fresh] = seen.try_emplace(wrappingSub(memory[i]->totalAllocated, running), 0, i);
        ++it->second.first;
    }
    ReportedTotals r;
    std::int64_t best = 0;
    std::size_t bestFirst = 0;
    for (const auto& [offset, countAndFirst] : seen)
        if (countAndFirst.first > best || (countAndFirst.first == best && countAndFirst.second < bestFirst)) {
            best = countAndFirst.first;
            bestFirst = countAndFirst.second;
            r.offset = offset;
        }
    running = 0;
    for (const MemoryRecord* m : memory) {
        running = wrappingAdd(running, m->bytes);
        if (r.agrees(running, m->totalAllocated)) continue;
        if (r.disagreeing++ == 0) r.firstDisagreeingT = m->t;
    }
    return r;
}

} // namespace memviz

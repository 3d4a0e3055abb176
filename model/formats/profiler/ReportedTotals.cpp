// SPDX-License-Identifier: MIT
#include "formats/profiler/ReportedTotals.h"


namespace memviz {

bool ReportedTotals::agrees(std::int64_t runningSum, std::int64_t totalAllocated) const {
    return wrappingSub(totalAllocated, runningSum) == offset;
}

void ReportedTotalsCounter::add(const MemoryRecord& m) {
    running_ = wrappingAdd(running_, m.bytes);
    auto [it, fresh] = seen_.try_emplace(wrappingSub(m.totalAllocated, running_), Seen{0, events_, m.t});
    ++it->second.count;
    ++events_;
}

ReportedTotals ReportedTotalsCounter::result() const {
    // The most frequent offset wins, the earliest on a tie; every other offset's events
    // disagree, the earliest of them first.
    ReportedTotals r;
    const Seen* best = nullptr;
    for (const auto& [offset, s] : seen_)
        if (!best || s.count > best->count || (s.count == best->count && s.first < best->first)) {
            best = &s;
            r.offset = offset;
        }
    const Seen* firstDisagreeing = nullptr;
    for (const auto& [offset, s] : seen_)
        if (&s != best) {
            r.disagreeing += s.count;
            if (!firstDisagreeing || s.first < firstDisagreeing->first) firstDisagreeing = &s;
        }
    if (firstDisagreeing) r.firstDisagreeingT = firstDisagreeing->firstT;
    return r;
}

} // namespace memviz

// SPDX-License-Identifier: MIT
#include "trace/ActiveMemoryLayout.h"

#include <algorithm>
#include <numeric>

namespace memviz {

namespace {

struct LayoutEvent {
    std::int64_t seq = 0;
    std::int64_t x = 0;
    std::size_t span = 0;
    bool alloc = true;
};

} // namespace

ActiveLayout layoutActiveMemory(const std::vector<ActiveSpan>& spans, std::size_t maxBands) {
    ActiveLayout out;
    // Which allocations get a band: the largest, the earlier one first among equals.
    std::vector<std::size_t> bySize(spans.size());
    std::iota(bySize.begin(), bySize.end(), std::size_t{0});
    const std::size_t banded = std::min(maxBands, spans.size());
    std::partial_sort(
        bySize.begin(), bySize.begin() + static_cast<std::ptrdiff_t>(banded), bySize.end(),
        [&](std::size_t a, std::size_t b) { return spans[a].size != spans[b].size ? spans[a].size > spans[b].size : a < b; });
    std::vector<bool> hasBand(spans.size(), false);
    for (std::size_t i = 0; i < banded; ++i) hasBand[bySize[i]] = true;
    out.smallestBand = banded > 0 ? spans[bySize[banded - 1]].size : 0;
    out.summarisedCount = spans.size() - banded;

    // Entries in order; allocations alive before the trace come first, frees before allocations
    // of the same entry cannot happen (one entry is one action).
    std::vector<LayoutEvent> events;
    events.reserve(2 * spans.size());
    for (std::size_t i = 0; i < spans.size(); ++i) {
        const ActiveSpan& s = spans[i];
        events.push_back({s.allocSeq, s.xAlloc, i, true});
        if (s.freeSeq) events.push_back({*s.freeSeq, s.xFree, i, false});
    }
    std::stable_sort(events.begin(), events.end(), [](const LayoutEvent& a, const LayoutEvent& b) { return a.seq < b.seq; });

    std::vector<std::size_t> stack; // indexes into out.bands, bottom first
    std::vector<std::size_t> bandOf(spans.size(), 0);
    std::int64_t total = 0, summarised = 0;
    const auto note = [&](std::int64_t x) {
        if (!out.summary.empty() && out.summary.back().x == x) out.summary.back() = {x, total, summarised};
        else out.summary.push_back({x, total, summarised});
        out.maxTotal = std::max(out.maxTotal, total + summarised);
    };
    for (const LayoutEvent& e : events) {
        const ActiveSpan& s = spans[e.span];
        if (!hasBand[e.span]) {
            summarised += e.alloc ? s.size : -s.size;
        } else if (e.alloc) {
            bandOf[e.span] = out.bands.size();
            out.bands.push_back({e.span, s.size, {{e.x, total}}});
            stack.push_back(out.bands.size() - 1);
            total += s.size;
        } else {
            const auto at = std::find(stack.begin(), stack.end(), bandOf[e.span]);
            ActiveBand& gone = out.bands[*at];
            gone.bottom.emplace_back(e.x, gone.bottom.back().second); // where it ends
            // Everything above drops by its size from here on.
            for (auto above = at + 1; above != stack.end(); ++above) {
                ActiveBand& b = out.bands[*above];
                const std::int64_t offset = b.bottom.back().second - s.size;
                if (b.bottom.back().first == e.x) b.bottom.back().second = offset;
                else b.bottom.emplace_back(e.x, offset);
            }
            stack.erase(at);
            total -= s.size;
        }
        note(e.x);
    }
    // Bands alive at the end run to their end on the axis.
    for (const std::size_t b : stack) {
        ActiveBand& band = out.bands[b];
        band.bottom.emplace_back(spans[band.span].xFree, band.bottom.back().second);
    }
    return out;
}

std::int64_t bandOffsetAt(const ActiveBand& band, std::int64_t x) {
    // The last point at or before x (points are in x order).
    const auto after = std::upper_bound(
        band.bottom.begin(), band.bottom.end(), x,
        [](std::int64_t v, const std::pair<std::int64_t, std::int64_t>& p) { return v < p.first; });
    return after == band.bottom.begin() ? band.bottom.front().second : std::prev(after)->second;
}

std::optional<std::size_t> bandAt(const ActiveLayout& layout, std::int64_t x, std::int64_t bytes) {
    for (std::size_t i = 0; i < layout.bands.size(); ++i) {
        const ActiveBand& b = layout.bands[i];
        if (x < b.bottom.front().first || x >= b.bottom.back().first) continue;
        const std::int64_t offset = bandOffsetAt(b, x);
        if (bytes >= offset && bytes < offset + b.size) return i;
    }
    return std::nullopt;
}

} // namespace memviz

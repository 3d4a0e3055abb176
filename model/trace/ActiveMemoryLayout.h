// SPDX-License-Identifier: MIT
#pragma once
// The stacked "active memory timeline" of a CUDA memory snapshot, the view memory_viz opens
// with: every allocation a band from its allocation to its free, stacked in allocation order,
// so that when one is freed the bands above it drop by its size. The largest allocations get
// a band each; the rest are summed into one band on top of them (as memory_viz does), so the
// bands never move when a small allocation comes or goes.
#include <cstddef>
#include <cstdint>
#include <optional>
#include <vector>

namespace memviz {

// One allocation on the axis of the view (time in ns, or the entry index).
struct ActiveSpan {
    std::int64_t allocSeq = -1;          // entry of the allocation; -1: alive before the trace began
    std::optional<std::int64_t> freeSeq; // entry of the free; none: alive at the end
    std::int64_t xAlloc = 0, xFree = 0;  // where they are on the axis (xFree: the end when alive at the end)
    std::int64_t size = 0;
};

struct ActiveBand {
    std::size_t span = 0; // index into the spans given
    std::int64_t size = 0;
    // The band's lower edge: from x on, it sits at offset (until the next point); the last
    // point is where the band ends.
    std::vector<std::pair<std::int64_t, std::int64_t>> bottom; // (x, offset)
};

struct ActiveSummaryPoint {
    std::int64_t x = 0;
    std::int64_t base = 0;  // the bands' total: the summary sits on top of them
    std::int64_t bytes = 0; // the summarised allocations' total
};

struct ActiveLayout {
    std::vector<ActiveBand> bands;           // in allocation order
    std::vector<ActiveSummaryPoint> summary; // a step line, one point per change
    std::size_t summarisedCount = 0;         // allocations in the summary
    std::int64_t smallestBand = 0;           // allocations of this size and more have a band
    std::int64_t maxTotal = 0;               // the highest point of the stack
};

// Lays out `spans`, giving the `maxBands` largest a band each (ties: the earlier one).
ActiveLayout layoutActiveMemory(const std::vector<ActiveSpan>& spans, std::size_t maxBands);

// Where a band's lower edge is at x (the band must be alive there).
std::int64_t bandOffsetAt(const ActiveBand& band, std::int64_t x);
// The band covering (x, bytes) on the chart, if any.
std::optional<std::size_t> bandAt(const ActiveLayout& layout, std::int64_t x, std::int64_t bytes);

} // namespace memviz

// SPDX-License-Identifier: MIT
#pragma once
// The exact highest value of a series (a device's live bytes) over a time window [t0, t1]:
// the Ranks window's "peak in selection" (issue 13), read from the store rather than from the
// lane's curve (a few thousand points, which can miss a short spike near the window's edges).
// The value the series holds when the window begins counts (the step line holds it there).
// Bounded work for any window: the level-of-detail buckets wholly inside the window give their
// maxima (the coarsest level that fits, then finer ones only at the two edges), and only the
// raw points of the chunks at the edges are decoded.
#include <cstdint>
#include <optional>

#include "store/SeriesQuery.h"

namespace memviz {

class Database;

// nullopt when the series has no point at or before `range.end`.
std::optional<std::int64_t> seriesPeakIn(Database& db, std::int64_t seriesId, TimeRange range);

} // namespace memviz

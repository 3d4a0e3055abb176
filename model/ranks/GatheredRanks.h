// SPDX-License-Identifier: MIT
#pragma once
// A rank set gathered into one small store (issue 55): `memviz ranks --gather` reads every
// rank's own store one at a time (the stores the Slurm tasks or `memviz ranks --local` wrote)
// and keeps per rank what the Ranks window and `memviz ranks` show — peak, its time, final
// bytes, the operator holding the most at the peak, the curve at a fixed resolution, and the
// path of the rank's full store — plus the set's device, clock and imbalance. Opening it reads
// no rank store. Plain C++; tables in GatheredRanksSchema.h.
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "ranks/RankSet.h"

namespace memviz {

class Database;
class Progress;

// Columns of each rank's curve in a gathered store (its points: about two per column).
inline constexpr int kGatheredCurveColumns = 1000;

// One rank for the gather: its store (one trace: its latest is read) and the file it came from.
struct GatherInput {
    std::string storePath;
    std::string source;
};

// True when the store holds a gathered rank set.
bool hasGatheredRanks(Database& db);

// Reads the stores one at a time (never two open together) and computes the set as
// readRankSet would over them all. `onRank(i)` is called after each (progress). Throws
// RankSetError naming a store that is missing, or StoreError/RankSetError from reading it.
RankSet gatherRankSet(const std::vector<GatherInput>& inputs, const std::string& device, const Progress& progress,
                      int curveColumns = kGatheredCurveColumns, const std::function<void(std::size_t)>& onRank = {});

// Writes `set` into the store at `path` atomically: into a file beside it, then renamed over
// it, so a reader (or an interrupted gather) never sees half a set.
void writeGatheredRanksFile(const std::string& path, const RankSet& set, int curveColumns = kGatheredCurveColumns);

// The set a gathered store holds. Throws RankSetError when it holds none or a row is damaged.
RankSet readGatheredRanks(Database& db);

} // namespace memviz

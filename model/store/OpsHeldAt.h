// SPDX-License-Identifier: MIT
#pragma once
// The bytes each operator holds at one moment on one device ("the operator holding the most at
// the peak"): where every allocation has an address, the allocations alive then, each counted
// for the operator that made it (exact: a free pairs with its allocation whatever operator frees
// it); otherwise — a trace whose events are each operator's change of the device's bytes — the
// net of the operator's calls up to then (what it allocated less what was freed inside it), which
// can exceed what the operator really holds.
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

namespace memviz {

class Database;
class Progress;

struct OpsHeldAt {
    // Per operator, most bytes first ("(no operator)" included, as the ops table names it).
    std::vector<std::pair<std::string, std::int64_t>> ops;
    // True: bytes alive at the moment, paired by address. False: net of each operator's calls.
    bool paired = false;
};

// What each operator holds on `device` at time `t` (ns from the trace's start): every event up
// to t, and of the events at t exactly the prefix that holds the most (the moment the series'
// peak is drawn from). Paired when every allocation up to then has an address; a free whose
// allocation is not in the trace (before it started) takes nothing from anyone.
OpsHeldAt opsHeldAt(Database& db, std::int64_t traceId, int device, std::int64_t t, const Progress* progress = nullptr);

} // namespace memviz

// SPDX-License-Identifier: MIT
#pragma once
// The figures of one stored trace that budgets are checked against (BudgetCheck.h) and the HTML
// report shows: the summary's devices, the stacked categories at each device's peak, the
// operators, the allocation sites (heaptrack: each site's peak as heaptrack_print counts it;
// massif: the peak snapshot's allocation sites as ms_print lists them) and the leaked bytes.
// Read from the store through the formats' own queries; what is not asked for is not read.
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "store/OpsQuery.h"
#include "store/TraceQueries.h"

namespace memviz {

class Database;

struct CategoryFact {
    std::string device, name;
    std::int64_t bytesAtPeak = 0; // the category's value at its device's peak
};

struct SiteFact {
    std::string function, file, module;
    std::int64_t line = 0;
    std::int64_t bytes = 0;
    std::string label() const; // "function  file:line" (or the module when unresolved)
};

struct TraceFacts {
    TraceSummary summary;
    bool hasCategories = false; // the format records stacked categories (memory timeline, massif, estimate)
    std::vector<CategoryFact> categories;
    bool opsRead = false;
    std::vector<OpRow> ops; // every device, largest bytes allocated first
    bool hasSites = false;  // heaptrack or massif
    std::string sitesWhat;  // what a site's bytes are
    std::vector<SiteFact> sites; // largest first
    // Bytes allocated during the trace and alive at its end: heaptrack's "leaked" (suppressions
    // applied) for heaptrack, else per device the summary's final bytes.
    std::optional<std::int64_t> heaptrackLeaked;
};

struct FactsWanted {
    bool categories = true, ops = true, sites = true;
};

TraceFacts loadTraceFacts(Database& db, std::int64_t traceId, const FactsWanted& wanted = {});

// True when no device recorded an event or any bytes (an empty trace checks nothing).
bool emptyTrace(const TraceSummary& s);

} // namespace memviz

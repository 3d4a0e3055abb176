// SPDX-License-Identifier: MIT
#pragma once
// Read side of the heaptrack tables: heaptrack_print's headline figures, the bottom-up
// allocation sites, and the backtraces behind a site.
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace memviz {

class Database;

struct HeaptrackSummary {
    std::int64_t heaptrackVersion = 0;
    std::int64_t fileVersion = 0;
    std::string command;
    std::int64_t calls = 0;     // calls to allocation functions
    std::int64_t temporary = 0; // temporary memory allocations
    std::int64_t peakBytes = 0; // peak heap memory consumption
    std::int64_t peakTimeMs = 0;
    std::int64_t leakedBytes = 0; // total memory leaked (suppressions applied)
    std::int64_t suppressedBytes = 0;
    std::int64_t peakRssBytes = 0;
    std::int64_t totalTimeMs = 0;
};

struct AllocationSite {
    std::int64_t id = 0;
    std::string function; // empty when unresolved; then `address` names it
    std::string module;
    std::string file;
    std::int64_t line = 0;
    std::int64_t address = 0;
    std::int64_t allocations = 0;
    std::int64_t temporary = 0;
    std::int64_t peakBytes = 0;
    std::int64_t leakedBytes = 0;
    std::int64_t stacks = 0; // backtraces merged into the site
};

struct StackFrame {
    std::string function;
    std::string module;
    std::string file;
    std::int64_t line = 0;
    std::int64_t address = 0;
    bool inlined = false; // inlined into the frame before it
};

struct SiteStack {
    std::int64_t nodeId = 0;
    std::int64_t allocations = 0;
    std::int64_t temporary = 0;
    std::int64_t peakBytes = 0;
    std::int64_t leakedBytes = 0;
    std::vector<StackFrame> frames; // the site's frame first, then its callers
};

// An allocation info: what a heaptrack event's address stands for.
struct HeaptrackAllocInfo {
    std::int64_t size = 0;
    std::int64_t nodeId = 0; // its backtrace (queryBacktrace)
};

// Allocation infos are stored in chunks of this many.
constexpr std::size_t kHeaptrackInfosPerChunk = 65536;

// nullopt when the trace is not a heaptrack import.
std::optional<HeaptrackSummary> loadHeaptrackSummary(Database& db, std::int64_t traceId);
// Sorted by peak bytes, then allocations, largest first.
std::vector<AllocationSite> queryAllocationSites(Database& db, std::int64_t traceId);
// The backtraces of one site, sorted by peak bytes, then allocations; at most `limit` of
// them when limit > 0.
std::vector<SiteStack> querySiteStacks(Database& db, std::int64_t traceId, std::int64_t siteId, std::int64_t limit = 0);
// The frames of a backtrace node and its callers, innermost first.
std::vector<StackFrame> queryBacktrace(Database& db, std::int64_t traceId, std::int64_t nodeId);

// nullopt for an info the trace does not have.
std::optional<HeaptrackAllocInfo> lookupAllocInfo(Database& db, std::int64_t traceId, std::int64_t infoId);

// "fn", or "0x7f3a…" for an unresolved frame.
std::string frameFunctionText(const std::string& function, std::int64_t address);

} // namespace memviz

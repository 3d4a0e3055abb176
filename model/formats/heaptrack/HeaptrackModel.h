// SPDX-License-Identifier: MIT
#pragma once
// What a heaptrack data file defines, held while it is read: interned strings, instruction
// pointers with their frames, the backtrace tree, allocation infos, and the cost of every
// backtrace (heaptrack's per-trace "Allocation"). Indices are heaptrack's own: strings, ips
// and trace nodes are 1-based (0 = none; element 0 of each vector is an empty sentinel),
// allocation infos 0-based.
#include <cstdint>
#include <deque>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "core/HugePages.h"
#include "trace/Event.h"

namespace memviz {

struct HeaptrackFrame {
    std::uint32_t function = 0; // string index
    std::uint32_t file = 0;     // string index
    std::uint32_t line = 0;
    bool operator==(const HeaptrackFrame&) const = default;
};

struct HeaptrackIp {
    std::uint64_t address = 0;
    std::uint32_t module = 0; // string index
    HeaptrackFrame frame;
    std::uint32_t inlinedBegin = 0; // into HeaptrackModel::inlined
    std::uint32_t inlinedCount = 0;
    std::int32_t site = -1; // allocation site (merged like heaptrack_print), assigned lazily
};

struct HeaptrackNode {
    std::uint32_t ip = 0;
    std::uint32_t parent = 0;
};

struct HeaptrackInfo {
    std::int64_t size = 0;
    std::uint32_t node = 0;
    std::int32_t op = kNoName; // the site's name in the trace's op names
    std::uint32_t cost = 0;    // the node's slot in HeaptrackModel::costs (one lookup less per `+`/`-`)
};

// Cost of one backtrace. `peak` is its live bytes at the moment the total first reached its
// maximum; `stamp` tells whether `peak` was captured for the latest maximum (see bump()).
struct HeaptrackCost {
    std::int64_t allocations = 0;
    std::int64_t temporary = 0;
    std::int64_t leaked = 0;
    std::int64_t peak = 0;
    std::uint32_t stamp = 0;
};

// heaptrack_print's headline figures.
struct HeaptrackTotals {
    std::int64_t calls = 0;
    std::int64_t temporary = 0;
    std::int64_t leaked = 0;
    std::int64_t peak = 0;
    std::int64_t peakTimeMs = 0;
    std::int64_t suppressed = 0;
    std::int64_t peakRssPages = 0;
};

struct HeaptrackSite {
    std::uint32_t ip = 0; // the first ip merged into it (heaptrack_print shows that one)
    HeaptrackCost cost;
    std::vector<std::uint32_t> nodes; // backtraces merged into it
};

class HeaptrackModel {
public:
    HeaptrackModel();

    const std::string& string(std::uint32_t index) const;
    const HeaptrackIp& ip(std::uint32_t index) const;
    HeaptrackNode node(std::uint32_t index) const;

    std::uint32_t addString(std::string_view s);
    // Adds a trace node, skipping operator new frames as heaptrack does.
    void addNode(std::uint32_t ip, std::uint32_t parent);
    void addInfo(std::int64_t size, std::uint32_t node);
    // The site of the backtrace's innermost frame, assigned on first use.
    std::int32_t siteOf(std::uint32_t node);
    // A short label for a site: "fn (file.c:12)" or "0x7f00 (in libfoo.so)".
    std::string siteLabel(std::int32_t site) const;

    // Moves a backtrace's live bytes by delta, capturing its value at the latest peak first.
    void bump(HeaptrackCost& cost, std::int64_t delta) const {
        if (cost.stamp != peakEpoch_) {
            cost.peak = cost.leaked;
            cost.stamp = peakEpoch_;
        }
        cost.leaked += delta;
    }
    // Called after every allocation: a new maximum starts a new peak epoch.
    void notePeakCandidate(std::int64_t timeMs) {
        if (totals.leaked > totals.peak) {
            totals.peak = totals.leaked;
            totals.peakTimeMs = timeMs;
            ++peakEpoch_;
        }
    }
    // Settles every backtrace's peak and merges backtraces into sites.
    void finish();

    // A deque: a string's address stays put as more come (HeaptrackStreamTables' jobs read them).
    std::deque<std::string> strings;
    std::vector<HeaptrackIp> ips;
    std::vector<HeaptrackFrame> inlined;
    // The big ones: reserved for a million or more once the recording is big, in huge pages.
    template <typename T>
    using BigVector = HugeVector<T>;
    BigVector<HeaptrackNode> nodes;
    BigVector<HeaptrackInfo> infos;
    // Costs only of the backtraces an allocation info names (a real recording has 3-4 times
    // more nodes than that, millions): nodeCosts gives a node's slot in costs, 0 = none.
    BigVector<HeaptrackCost> costs;
    BigVector<std::uint32_t> nodeCosts; // by node index
    HeaptrackCost& cost(std::uint32_t node) { return costs[nodeCosts[node]]; }
    const HeaptrackCost& cost(std::uint32_t node) const { return costs[nodeCosts[node]]; }
    std::vector<HeaptrackSite> sites;
    std::vector<std::string> suppressions;
    HeaptrackTotals totals;
    std::vector<std::uint32_t> opNewStrings; // string indices of operator new variants
    std::vector<std::uint32_t> opNewIps;

private:
    std::string siteKey(const HeaptrackIp& ip) const;

    std::uint32_t peakEpoch_ = 0;
    std::unordered_map<std::string, std::int32_t> siteByKey_;
};

} // namespace memviz

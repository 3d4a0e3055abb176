// SPDX-License-Identifier: MIT
#pragma once
// Call trees over any stored trace that has stacks: which metrics its format offers, how to
// record stacks when it has none, and the tree for one metric, time range or moment. Each
// format's provider lives in its own folder (formats/<f>/<F>Stacks.h); this file only picks
// the one that fits the trace. Used by the Flame tab and `memviz stacks`.
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "store/SeriesQuery.h"
#include "trace/FrameFolder.h"
#include "trace/StackTree.h"

namespace memviz {

class Database;
class Progress;

struct StackMetric {
    std::string id;          // what --metric takes: "peak", "allocated", "alive", ...
    std::string label;       // for menus: "Peak contribution"
    bool bytes = true;       // false: a count
    bool followsRange = false; // a time range selects what it counts
    bool followsMoment = false; // a moment selects what it counts
};

// What the root level of the tree is: "stack" (the stacks themselves, the default), or a key
// the format records beside its stacks whose values become the outermost frames
// (CUDA snapshots: "compile-context", "user-metadata", "forward-stack").
struct StackGrouping {
    std::string id;    // what --group-by takes
    std::string label; // for menus: "Compile context"
};

struct StackRequest {
    std::string metric; // empty: the format's first metric
    std::string groupBy; // empty or "stack": by stack only
    std::optional<TimeRange> range;
    std::optional<std::int64_t> at; // ns from the trace start
    FrameFolder folder;
};

struct StackAvailability {
    std::vector<StackMetric> metrics; // empty: the trace has no stacks
    std::string howToRecord;          // when empty metrics: how to record stacks for this format
    std::vector<StackGrouping> groupings; // "stack" first, then the keys this trace has
    bool hasStacks() const { return !metrics.empty(); }
    const StackMetric* find(const std::string& id) const;
};

StackAvailability stackAvailability(Database& db, std::int64_t traceId);
// Throws std::invalid_argument for a metric or grouping the trace does not offer, or a
// range/moment the metric cannot follow; std::runtime_error (howToRecord) when the trace has no stacks.
StackTree loadStackTree(Database& db, std::int64_t traceId, const StackRequest& request, const Progress* progress = nullptr);

// Brendan Gregg's collapsed stacks: "outer;...;inner value", one line per node with a self
// value (frames as frameLabel() writes them), in tree order.
std::string collapsedStacks(const StackTree& tree);

} // namespace memviz

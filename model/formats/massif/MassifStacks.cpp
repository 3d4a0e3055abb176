// SPDX-License-Identifier: MIT
#include "formats/massif/MassifStacks.h"

#include <stdexcept>

#include "formats/massif/MassifQueries.h"
#include <cstdlib>

namespace memviz {

std::vector<StackMetric> massifStackMetrics() { return {{"bytes", "Heap bytes at the snapshot", true, false, true}}; }

std::int64_t massifSnapshotFor(Database& db, std::int64_t traceId, const std::optional<std::int64_t>& at) {
    const std::vector<MassifSnapshot> snapshots = listMassifSnapshots(db, traceId);
    std::int64_t chosen = -1, peak = -1, last = -1, first = -1;
    for (const MassifSnapshot& s : snapshots) {
        if (!s.detailed()) continue;
        if (first < 0) first = s.number;
        last = s.number;
        if (s.peak()) peak = s.number;
        if (at && s.x <= *at) chosen = s.number;
    }
    if (at) return chosen >= 0 ? chosen : first;
    return peak >= 0 ? peak : last;
}

namespace {

StackFrameInfo massifFrame(const MassifNode& n) {
    StackFrameInfo f;
    f.function = n.function.empty() ? n.label : n.function;
    const std::string& loc = n.location;
    if (loc.rfind("in ", 0) == 0) {
        f.module = loc.substr(3);
    } else if (!loc.empty()) {
        const std::size_t colon = loc.rfind(':');
        f.file = colon == std::string::npos ? loc : loc.substr(0, colon);
        if (colon != std::string::npos) f.line = std::atoll(loc.c_str() + colon + 1);
    }
    return f;
}

} // namespace

StackTree massifStackTree(Database& db, std::int64_t traceId, const StackRequest& request) {
    if (!request.metric.empty() && request.metric != "bytes")
        throw std::invalid_argument("unknown massif metric \"" + request.metric + "\" (massif has: bytes)");
    if (request.range) throw std::invalid_argument("massif trees are per snapshot: use --at, not --range");
    StackTreeBuilder builder(request.folder);
    const std::int64_t snapshot = massifSnapshotFor(db, traceId, request.at);
    if (snapshot < 0) return builder.finish();
    const MassifTree tree = loadMassifTree(db, traceId, snapshot);
    if (tree.nodes.empty()) return builder.finish();
    // Depth-first from the root's children; the root is massif's "(heap allocation functions)"
    // (it stands for our root and gets no frame).
    struct Item {
        std::size_t node;
        std::size_t depth;
    };
    std::vector<Item> todo;
    std::vector<std::int32_t> path;
    const auto selfOf = [&](const MassifNode& n) {
        std::int64_t children = 0;
        for (std::size_t c : n.children) children += tree.nodes[c].bytes;
        return n.bytes - children;
    };
    if (const std::int64_t rootSelf = selfOf(tree.nodes[0]); rootSelf != 0) builder.add({}, rootSelf);
    for (auto it = tree.nodes[0].children.rbegin(); it != tree.nodes[0].children.rend(); ++it) todo.push_back({*it, 0});
    while (!todo.empty()) {
        const Item item = todo.back();
        todo.pop_back();
        const MassifNode& n = tree.nodes[item.node];
        path.resize(item.depth);
        path.push_back(builder.frameId(massifFrame(n)));
        // massif's tree is bottom-up: a path from the root lists the allocation's callers
        // innermost first, and a node's own bytes are the stacks that end with it.
        if (const std::int64_t self = selfOf(n); self != 0) builder.addInnermostFirst(path, self);
        for (auto it = n.children.rbegin(); it != n.children.rend(); ++it) todo.push_back({*it, item.depth + 1});
    }
    return builder.finish();
}

} // namespace memviz

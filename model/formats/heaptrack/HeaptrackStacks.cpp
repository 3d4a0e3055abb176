// SPDX-License-Identifier: MIT
#include "formats/heaptrack/HeaptrackStacks.h"

#include <algorithm>
#include <stdexcept>
#include <unordered_map>

#include "core/Progress.h"
#include "formats/heaptrack/HeaptrackChunks.h"
#include "formats/heaptrack/HeaptrackFrameChunks.h"
#include "formats/heaptrack/HeaptrackQueries.h"
#include "store/ChunkCodec.h"
#include "store/Database.h"
#include "trace/Event.h"

namespace memviz {

std::vector<StackMetric> heaptrackStackMetrics() {
    return {
        {"peak", "Peak contribution (bytes alive at the peak)", true, false, false},
        {"allocated", "Allocated bytes", true, true, false},
        {"allocations", "Allocation count", false, true, false},
        {"temporary", "Temporary allocations", false, false, false},
        {"leaked", "Leaked bytes", true, false, false},
    };
}

namespace {

// Values by backtrace node id (dense: node ids run from 0 to the node count), so that the tree
// is built in node order, parents before children, without hashing.
using NodeCosts = std::vector<std::int64_t>;

void addCost(NodeCosts& costs, std::int64_t node, std::int64_t value) {
    if (node <= 0 || value == 0) return;
    const auto i = static_cast<std::size_t>(node);
    if (costs.size() <= i) costs.resize(std::max(i + 1, costs.size() * 2), 0);
    costs[i] += value;
}

// Per-node values of a metric heaptrack_print computes for the whole run.
NodeCosts storedCosts(Database& db, std::int64_t traceId, std::int64_t HeaptrackSiteStackEntry::*column) {
    NodeCosts out;
    for (const HeaptrackSiteStackEntry& e : loadHeaptrackSiteStacks(db, traceId)) addCost(out, e.node, e.*column);
    return out;
}

// Allocated bytes (or allocation calls) per node from the allocation events in the range: an
// event's address is its allocation info, whose node is the backtrace.
NodeCosts eventCosts(Database& db, std::int64_t traceId, const std::optional<TimeRange>& range,
                                                         bool count, const Progress* progress) {
    std::vector<std::int64_t> infoNode;
    {
        Statement s(db, "SELECT first_info, data FROM heaptrack_alloc_info_chunks WHERE trace_id = ? ORDER BY first_info");
        s.bind(1, traceId);
        while (s.step()) {
            const auto first = static_cast<std::size_t>(s.int64(0));
            const std::vector<SeriesPoint> infos = decodePoints(s.blob(1));
            if (infoNode.size() < first + infos.size()) infoNode.resize(first + infos.size(), 0);
            for (std::size_t i = 0; i < infos.size(); ++i) infoNode[first + i] = infos[i].v;
        }
    }
    Statement s(db, "SELECT t_first, t_last, data FROM event_chunks WHERE trace_id = ? ORDER BY chunk");
    s.bind(1, traceId);
    NodeCosts out;
    while (s.step()) {
        if (range && (s.int64(1) < range->begin || s.int64(0) > range->end)) continue;
        if (progress) progress->checkCancelled();
        for (const Event& e : decodeEvents(s.blob(2))) {
            if (e.kind != EventKind::Alloc || (range && !range->contains(e.timeNs))) continue;
            if (e.address < 0 || static_cast<std::size_t>(e.address) >= infoNode.size()) continue;
            addCost(out, infoNode[static_cast<std::size_t>(e.address)], count ? 1 : e.size);
        }
    }
    return out;
}

} // namespace

StackTree heaptrackStackTree(Database& db, std::int64_t traceId, const StackRequest& request, const Progress* progress) {
    const std::string metric = request.metric.empty() ? std::string("peak") : request.metric;
    if (progress) progress->enterPhase(ProgressPhase::Reading);
    NodeCosts costs;
    if (metric == "allocated" || (metric == "allocations" && request.range))
        costs = eventCosts(db, traceId, request.range, metric == "allocations", progress);
    else if (request.range)
        throw std::invalid_argument("the heaptrack metric \"" + metric +
                                    "\" covers the whole run; a time range works with \"allocated\" and \"allocations\"");
    else if (metric == "peak") costs = storedCosts(db, traceId, &HeaptrackSiteStackEntry::peakBytes);
    else if (metric == "allocations") costs = storedCosts(db, traceId, &HeaptrackSiteStackEntry::allocations);
    else if (metric == "temporary") costs = storedCosts(db, traceId, &HeaptrackSiteStackEntry::temporary);
    else if (metric == "leaked") costs = storedCosts(db, traceId, &HeaptrackSiteStackEntry::leakedBytes);
    else throw std::invalid_argument("unknown heaptrack metric \"" + metric + "\"");

    StackTreeBuilder builder(request.folder);
    // Frames of every instruction pointer, in stored depth order (as queryBacktrace lists them).
    std::vector<std::vector<std::int32_t>> ipFrames;
    forEachHeaptrackIp(db, traceId, [&](std::int64_t ipId, std::vector<StackFrame>&& frames) {
        const auto ip = static_cast<std::size_t>(ipId);
        if (ipFrames.size() <= ip) ipFrames.resize(ip + 1);
        for (StackFrame& frame : frames) {
            StackFrameInfo f;
            f.function = frameFunctionText(frame.function, frame.address);
            f.module = std::move(frame.module);
            f.file = std::move(frame.file);
            f.line = frame.line;
            ipFrames[ip].push_back(builder.frameId(f));
        }
    });
    if (progress) progress->checkCancelled();
    const std::vector<HeaptrackStoredNode> nodes = loadHeaptrackNodes(db, traceId);
    // Each backtrace node maps to one tree node, built from its parent's: stacks share their
    // prefixes, so every node's frames are walked once.
    for (std::vector<std::int32_t>& frames : ipFrames) std::reverse(frames.begin(), frames.end()); // outermost first
    std::vector<std::int32_t> treeNodeOf(nodes.size(), -1);
    if (!treeNodeOf.empty()) treeNodeOf[0] = 0;
    std::vector<std::int64_t> chain;
    if (progress) progress->enterPhase(ProgressPhase::Building);
    for (std::size_t i = 1; i < costs.size(); ++i) {
        const auto node = static_cast<std::int64_t>(i);
        const std::int64_t value = costs[i];
        if (progress && i % 16384 == 0) progress->update(static_cast<std::int64_t>(i), static_cast<std::int64_t>(costs.size()));
        if (value == 0 || i >= nodes.size()) continue;
        chain.clear();
        std::int64_t n = node;
        // Parents come before their children (checked at import), so the walk ends.
        while (n > 0 && treeNodeOf[static_cast<std::size_t>(n)] < 0) {
            chain.push_back(n);
            const std::int64_t parent = nodes[static_cast<std::size_t>(n)].parent;
            n = parent < n && parent >= 0 ? parent : 0;
        }
        std::int32_t treeNode = treeNodeOf[static_cast<std::size_t>(n)];
        for (auto it = chain.rbegin(); it != chain.rend(); ++it) {
            const auto ip = static_cast<std::size_t>(nodes[static_cast<std::size_t>(*it)].ip);
            if (ip < ipFrames.size()) treeNode = builder.extend(treeNode, ipFrames[ip]);
            treeNodeOf[static_cast<std::size_t>(*it)] = treeNode;
        }
        builder.addAt(treeNodeOf[static_cast<std::size_t>(node)], value);
    }
    return builder.finish();
}

} // namespace memviz

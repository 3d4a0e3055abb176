// SPDX-License-Identifier: MIT
#include "formats/StackSources.h"

#include <algorithm>
#include <stdexcept>

#include "formats/FormatIds.h"
#include "formats/heaptrack/HeaptrackChunks.h"
#include "formats/heaptrack/HeaptrackStacks.h"
#include "formats/massif/MassifStacks.h"
#include "formats/profiler/ProfilerStacks.h"
#include "formats/snapshot/SnapshotStacks.h"
#include "store/Database.h"
#include "store/TraceQueries.h"
#include "trace/EventStacks.h"

namespace memviz {

namespace {

std::string formatOf(Database& db, std::int64_t traceId) {
    const auto t = findTrace(db, traceId);
    if (!t) throw std::invalid_argument("no trace " + std::to_string(traceId) + " in this store");
    return t->format;
}

std::vector<StackMetric> eventMetrics() {
    return {
        {"alive", "Bytes alive at the moment", true, false, true},
        {"allocated", "Bytes allocated in the range", true, true, false},
    };
}

std::string howToRecord(const std::string& format) {
    using namespace format_id;
    if (format == kHeaptrack)
        return "This heaptrack recording has no backtraces (heaptrack records one for every allocation; "
               "record the program again with `heaptrack PROGRAM`).";
    if (format == kMassif)
        return "This massif file has no detailed snapshot, so no heap tree. Record with "
               "`valgrind --tool=massif --detailed-freq=1 PROGRAM` to get a tree in every snapshot.";
    if (format == kSnapshot)
        return "This CUDA memory snapshot has no stacks. Record them with "
               "`torch.cuda.memory._record_memory_history(max_entries=100000, stacks=\"all\")` before the run "
               "(PyTorch 2.1+; older: `_record_memory_history(True, record_context=True)`).";
    if (format == kProfiler)
        return "This profiler trace has no call stacks. Record it with "
               "`torch.profiler.profile(profile_memory=True, with_stack=True)`, or record a CUDA memory snapshot "
               "with `torch.cuda.memory._record_memory_history(stacks=\"all\")` and `_dump_snapshot()`.";
    if (format == kMemoryTimeline)
        return "A memory timeline export has no stacks. Record a CUDA memory snapshot with "
               "`torch.cuda.memory._record_memory_history(stacks=\"all\")` and `_dump_snapshot()` instead.";
    if (format == kAllocLog)
        return "This allocation log has no `stack` column. Add one: frames separated by ';', outermost first "
               "(docs/formats.md).";
    return "This recording has no call stacks. Formats with stacks: heaptrack, massif, CUDA memory snapshots "
           "recorded with `_record_memory_history(stacks=\"all\")`, allocation logs with a `stack` column.";
}

} // namespace

const StackMetric* StackAvailability::find(const std::string& id) const {
    for (const StackMetric& m : metrics)
        if (m.id == id) return &m;
    return nullptr;
}

StackAvailability stackAvailability(Database& db, std::int64_t traceId) {
    const std::string format = formatOf(db, traceId);
    StackAvailability a;
    if (format == format_id::kHeaptrack) {
        if (heaptrackHasSiteStacks(db, traceId)) a.metrics = heaptrackStackMetrics();
    } else if (format == format_id::kMassif) {
        if (massifSnapshotFor(db, traceId, std::nullopt) >= 0) a.metrics = massifStackMetrics();
    } else if (format == format_id::kSnapshot) {
        if (snapshotHasStacks(db, traceId)) a.metrics = snapshotStackMetrics();
    } else if (eventsHaveStacks(db, traceId)) {
        a.metrics = format == format_id::kProfiler ? profilerStackMetrics(db, traceId) : eventMetrics();
    }
    if (a.metrics.empty()) a.howToRecord = howToRecord(format);
    else {
        a.groupings.push_back({"stack", "Stack"});
        if (format == format_id::kSnapshot)
            for (StackGrouping& g : snapshotStackGroupings(db, traceId)) a.groupings.push_back(std::move(g));
    }
    return a;
}

StackTree loadStackTree(Database& db, std::int64_t traceId, const StackRequest& request, const Progress* progress) {
    const StackAvailability a = stackAvailability(db, traceId);
    if (!a.hasStacks()) throw std::runtime_error(a.howToRecord);
    const StackMetric* metric = request.metric.empty() ? &a.metrics.front() : a.find(request.metric);
    if (!metric) {
        std::string known;
        for (const StackMetric& m : a.metrics) known += (known.empty() ? "" : ", ") + m.id;
        throw std::invalid_argument("this trace has no metric \"" + request.metric + "\" (metrics: " + known + ")");
    }
    if (request.range && !metric->followsRange)
        throw std::invalid_argument("the metric \"" + metric->id + "\" does not follow a time range");
    if (request.at && !metric->followsMoment)
        throw std::invalid_argument("the metric \"" + metric->id + "\" does not follow a moment (--at)");
    StackRequest r = request;
    r.metric = metric->id;
    if (r.groupBy == "stack") r.groupBy.clear();
    if (!r.groupBy.empty() &&
        std::none_of(a.groupings.begin(), a.groupings.end(), [&](const StackGrouping& g) { return g.id == r.groupBy; })) {
        std::string known;
        for (const StackGrouping& g : a.groupings) known += (known.empty() ? "" : ", ") + g.id;
        throw std::invalid_argument("this trace has nothing to group by \"" + r.groupBy + "\" (it can be grouped by: " + known +
                                    "; compile contexts, user metadata and forward stacks come from CUDA snapshots that "
                                    "recorded them)");
    }
    const std::string format = formatOf(db, traceId);
    if (format == format_id::kHeaptrack) return heaptrackStackTree(db, traceId, r, progress);
    if (format == format_id::kMassif) return massifStackTree(db, traceId, r);
    if (format == format_id::kSnapshot) return snapshotStackTree(db, traceId, r, progress);
    return eventStackTree(db, traceId, r.metric, r.range, r.at, r.folder, progress);
}

namespace {

std::string collapsedFrame(const StackFrameInfo& f) {
    std::string s = frameLabel(f);
    for (char& c : s)
        if (c == ';' || c == '\n' || c == '\r') c = c == ';' ? ',' : ' ';
    return s;
}

} // namespace

std::string collapsedStacks(const StackTree& tree) {
    std::string out;
    // (StackTreeBuilder gives bytes without frames a named frame, so the root has no self value.)
    if (tree.nodes[0].self != 0) out += std::string(StackTreeBuilder::kNoStackRecorded) + " " + std::to_string(tree.nodes[0].self) + "\n";
    // Depth-first, children largest first; `prefix` holds the path of the current node.
    struct Item {
        std::int32_t node;
        std::size_t prefixLength;
    };
    std::vector<Item> todo;
    for (auto it = tree.nodes[0].children.rbegin(); it != tree.nodes[0].children.rend(); ++it) todo.push_back({*it, 0});
    std::string prefix;
    while (!todo.empty()) {
        const Item item = todo.back();
        todo.pop_back();
        prefix.resize(item.prefixLength);
        if (!prefix.empty()) prefix += ';';
        prefix += collapsedFrame(tree.frameAt(item.node));
        const StackNode& n = tree.nodes[static_cast<std::size_t>(item.node)];
        if (n.self != 0) out += prefix + " " + std::to_string(n.self) + "\n";
        for (auto it = n.children.rbegin(); it != n.children.rend(); ++it) todo.push_back({*it, prefix.size()});
    }
    return out;
}

} // namespace memviz

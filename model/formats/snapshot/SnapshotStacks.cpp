// SPDX-License-Identifier: MIT
#include "formats/snapshot/SnapshotStacks.h"

#include <stdexcept>
#include <unordered_map>

#include "core/Progress.h"
#include "formats/snapshot/SnapshotContext.h"
#include "formats/snapshot/SnapshotQueries.h"
#include "store/Database.h"
#include "store/TraceQueries.h"

namespace memviz {

std::vector<StackMetric> snapshotStackMetrics() {
    return {
        {"alive", "Bytes alive at the moment", true, false, true},
        {"allocated", "Bytes allocated in the range", true, true, false},
    };
}

std::vector<StackGrouping> snapshotStackGroupings(Database& db, std::int64_t traceId) {
    const SnapshotContexts c = loadSnapshotContexts(db, traceId);
    std::vector<StackGrouping> g;
    if (c.hasCompileContext()) g.push_back({"compile-context", "Compile context"});
    if (c.hasUserMetadata()) g.push_back({"user-metadata", "User metadata"});
    if (c.hasForwardFrames()) g.push_back({"forward-stack", "Forward-pass stack"});
    return g;
}

namespace {

// The outermost frames an allocation gets for a grouping key, innermost first (appended to
// an innermost-first stack). The frame's module names the key, for the hover text.
void keyFrames(StackTreeBuilder& builder, const std::string& groupBy, const EntryContext& c, std::vector<std::int32_t>& stack) {
    if (groupBy == "compile-context") {
        stack.push_back(builder.frameId({c.compileContext.empty() ? "[no compile context]" : c.compileContext, {}, 0, "compile context"}));
    } else if (groupBy == "user-metadata") {
        stack.push_back(builder.frameId({c.userMetadata.empty() ? "[no user metadata]" : c.userMetadata, {}, 0, "user metadata"}));
    } else if (groupBy == "forward-stack") {
        const std::vector<FrameRow> forward = parseForwardFrames(c.forwardFrames);
        if (forward.empty()) {
            stack.push_back(builder.frameId({"[no forward stack]", {}, 0, "forward pass"}));
            return;
        }
        for (auto it = forward.rbegin(); it != forward.rend(); ++it) stack.push_back(builder.frameId({it->name, it->filename, it->line, "forward pass"}));
        stack.push_back(builder.frameId({"[forward pass]", {}, 0, "forward pass"}));
    }
}

// The key frames of each allocation, computed once per distinct text of the key.
class KeyFrames {
public:
    KeyFrames(StackTreeBuilder& builder, const std::string& groupBy, const SnapshotContexts& contexts)
        : builder_(builder), groupBy_(groupBy), contexts_(contexts) {}

    void append(int device, std::int64_t allocSeq, std::vector<std::int32_t>& stack) {
        const SnapshotContextRun* run = contexts_.runAt(device, allocSeq);
        std::int32_t id = -1;
        if (run) id = groupBy_ == "compile-context" ? run->compileContext : groupBy_ == "user-metadata" ? run->userMetadata : run->forwardFrames;
        if (groupBy_ == "compile-context" && isDefaultCompileContext(contexts_.text(id))) id = -1;
        auto it = cache_.find(id);
        if (it == cache_.end()) {
            EntryContext c;
            (groupBy_ == "compile-context" ? c.compileContext : groupBy_ == "user-metadata" ? c.userMetadata : c.forwardFrames) =
                contexts_.text(id);
            std::vector<std::int32_t> frames;
            keyFrames(builder_, groupBy_, c, frames);
            it = cache_.emplace(id, std::move(frames)).first;
        }
        stack.insert(stack.end(), it->second.begin(), it->second.end());
    }

private:
    StackTreeBuilder& builder_;
    const std::string& groupBy_;
    const SnapshotContexts& contexts_;
    std::unordered_map<std::int32_t, std::vector<std::int32_t>> cache_; // text id (-1: none) -> frames
};

} // namespace

bool snapshotHasStacks(Database& db, std::int64_t traceId) {
    Statement s(db, "SELECT 1 FROM stack_frames WHERE trace_id = ? LIMIT 1");
    s.bind(1, traceId);
    return s.step();
}

StackTree snapshotStackTree(Database& db, std::int64_t traceId, const StackRequest& request, const Progress* progress) {
    const std::string metric = request.metric.empty() ? std::string("alive") : request.metric;
    if (metric != "alive" && metric != "allocated")
        throw std::invalid_argument("unknown CUDA snapshot metric \"" + metric + "\" (alive, allocated)");
    if (metric == "alive" && request.range)
        throw std::invalid_argument("\"alive\" is per moment: use --at, or --metric allocated with --range");
    if (metric == "allocated" && request.at) throw std::invalid_argument("\"allocated\" counts a range: use --range");

    const StackCatalog catalog = loadStackCatalog(db, traceId);
    StackTreeBuilder builder(request.folder);
    // Blocks without frames were allocated before _record_memory_history started.
    builder.setNoStackLabel(StackTreeBuilder::kNoStackBeforeRecording);
    KeyFrames keys(builder, request.groupBy, catalog.contexts); // the catalog carries the entries' contexts
    std::vector<std::int32_t> frameIds(catalog.frames.size(), -1);
    std::vector<std::int32_t> stack;
    const TraceSummary summary = loadSummary(db, traceId);
    std::size_t devicesWithData = 0;
    for (const DeviceSummary& d : summary.devices) devicesWithData += d.allocs > 0 ? 1 : 0;

    for (const DeviceSummary& d : summary.devices) {
        if (d.allocs == 0) continue;
        if (progress) progress->checkCancelled();
        const std::vector<SnapshotAllocationRow> all = loadAllocations(db, traceId, d.device);
        std::vector<std::size_t> chosen;
        if (metric == "alive") {
            const std::int64_t t = request.at.value_or(d.peakTimeNs);
            chosen = aliveAt(all, entryAtTime(db, traceId, d.device, t));
        } else {
            for (std::size_t i = 0; i < all.size(); ++i)
                if (all[i].tAlloc && (!request.range || request.range->contains(*all[i].tAlloc))) chosen.push_back(i);
        }
        // With several devices, each one is a frame above its stacks.
        std::int32_t deviceFrame = -1;
        if (devicesWithData > 1) deviceFrame = builder.frameId({d.name, {}, 0, {}});
        for (std::size_t i : chosen) {
            const SnapshotAllocationRow& a = all[i];
            stack.clear();
            if (a.stack >= 0 && static_cast<std::size_t>(a.stack) < catalog.stacks.size())
                for (std::int32_t f : catalog.stacks[static_cast<std::size_t>(a.stack)]) {
                    if (f < 0 || static_cast<std::size_t>(f) >= catalog.frames.size()) continue;
                    std::int32_t& id = frameIds[static_cast<std::size_t>(f)];
                    if (id < 0) {
                        const FrameRow& r = catalog.frames[static_cast<std::size_t>(f)];
                        id = builder.frameId({r.name, r.filename == "??" ? std::string() : r.filename, r.line, {}});
                    }
                    stack.push_back(id);
                }
            if (stack.empty()) stack.push_back(builder.noStackFrame());
            if (deviceFrame >= 0) stack.push_back(deviceFrame); // innermost first: the device is outer
            if (!request.groupBy.empty()) keys.append(d.device, a.allocSeq, stack);
            builder.addInnermostFirst(stack, a.requestedSize);
        }
    }
    return builder.finish();
}

} // namespace memviz

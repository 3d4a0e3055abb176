// SPDX-License-Identifier: MIT
#include "formats/snapshot/SnapshotStacks.h"

#include <stdexcept>

#include "core/Progress.h"
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
            if (deviceFrame >= 0) stack.push_back(deviceFrame); // innermost first: the device is outermost
            builder.addInnermostFirst(stack, a.requestedSize);
        }
    }
    return builder.finish();
}

} // namespace memviz

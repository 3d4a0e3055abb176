// SPDX-License-Identifier: MIT
#include "formats/heaptrack/HeaptrackQueries.h"

#include <algorithm>
#include <cstdio>
#include <iterator>

#include "formats/heaptrack/HeaptrackChunks.h"
#include "formats/heaptrack/HeaptrackFrameChunks.h"
#include "store/ChunkCodec.h"
#include "store/Database.h"

namespace memviz {

std::string frameFunctionText(const std::string& function, std::int64_t address) {
    if (!function.empty()) return function;
    if (address == 0) return "??";
    char buf[24];
    std::snprintf(buf, sizeof buf, "0x%llx", static_cast<unsigned long long>(address));
    return buf;
}

std::optional<HeaptrackSummary> loadHeaptrackSummary(Database& db, std::int64_t traceId) {
    Statement s(db, "SELECT heaptrack_version, file_version, command, calls, temporary, peak_bytes, peak_time_ms, "
                    "leaked_bytes, suppressed_bytes, peak_rss_bytes, total_time_ms FROM heaptrack_totals WHERE trace_id = ?");
    s.bind(1, traceId);
    if (!s.step()) return std::nullopt;
    HeaptrackSummary h;
    h.heaptrackVersion = s.int64(0);
    h.fileVersion = s.int64(1);
    h.command = s.text(2);
    h.calls = s.int64(3);
    h.temporary = s.int64(4);
    h.peakBytes = s.int64(5);
    h.peakTimeMs = s.int64(6);
    h.leakedBytes = s.int64(7);
    h.suppressedBytes = s.int64(8);
    h.peakRssBytes = s.int64(9);
    h.totalTimeMs = s.int64(10);
    return h;
}

std::optional<HeaptrackAllocInfo> lookupAllocInfo(Database& db, std::int64_t traceId, std::int64_t infoId) {
    Statement s(db, "SELECT first_info, info_count, data FROM heaptrack_alloc_info_chunks "
                    "WHERE trace_id = ? AND first_info <= ? ORDER BY first_info DESC LIMIT 1");
    s.bind(1, traceId).bind(2, infoId);
    if (!s.step() || infoId < 0) return std::nullopt;
    const std::int64_t offset = infoId - s.int64(0);
    if (offset >= s.int64(1)) return std::nullopt;
    const std::vector<SeriesPoint> infos = decodePoints(s.blob(2));
    if (offset >= static_cast<std::int64_t>(infos.size())) return std::nullopt;
    const SeriesPoint& p = infos[static_cast<std::size_t>(offset)];
    return HeaptrackAllocInfo{p.t, p.v};
}

std::vector<AllocationSite> queryAllocationSites(Database& db, std::int64_t traceId) {
    Statement s(db, "SELECT s.site_id, s.function, s.module, s.file, s.line, s.ip_id, s.allocations, "
                    "s.temporary, s.peak_bytes, s.leaked_bytes, "
                    "coalesce(s.stacks, (SELECT count(*) FROM heaptrack_site_stacks k "
                    "WHERE k.trace_id = s.trace_id AND k.site_id = s.site_id)) "
                    "FROM heaptrack_sites s WHERE s.trace_id = ? ORDER BY s.peak_bytes DESC, s.allocations DESC, s.site_id");
    s.bind(1, traceId);
    std::vector<AllocationSite> out;
    HeaptrackFrameLookup frames(db, traceId);
    while (s.step()) {
        AllocationSite a;
        a.id = s.int64(0);
        a.function = s.text(1);
        a.module = s.text(2);
        a.file = s.text(3);
        a.line = s.int64(4);
        a.address = frames.address(s.int64(5)); // 0 when the trace has no frames for its ip
        a.allocations = s.int64(6);
        a.temporary = s.int64(7);
        a.peakBytes = s.int64(8);
        a.leakedBytes = s.int64(9);
        a.stacks = s.int64(10);
        out.push_back(std::move(a));
    }
    return out;
}

namespace {

// The frames of a backtrace whose nodes come from `nodes`, innermost first: every frame of a
// node's instruction pointer in stored depth order, then its caller's.
std::vector<StackFrame> backtrace(HeaptrackFrameLookup& frames, HeaptrackNodeLookup& nodes, std::int64_t nodeId) {
    std::vector<StackFrame> out;
    std::int64_t id = nodeId;
    for (HeaptrackStoredNode n = nodes.node(id); id > 0; id = n.parent < id ? n.parent : 0, n = nodes.node(id)) {
        // A node the trace does not have ends the walk (as the join did); so does the root.
        if (n == HeaptrackStoredNode{}) break;
        std::vector<StackFrame> f = frames.frames(n.ip);
        std::move(f.begin(), f.end(), std::back_inserter(out));
    }
    return out;
}

} // namespace

std::vector<StackFrame> queryBacktrace(Database& db, std::int64_t traceId, std::int64_t nodeId) {
    HeaptrackNodeLookup nodes(db, traceId);
    HeaptrackFrameLookup frames(db, traceId);
    return backtrace(frames, nodes, nodeId);
}

std::vector<SiteStack> querySiteStacks(Database& db, std::int64_t traceId, std::int64_t siteId, std::int64_t limit) {
    std::vector<SiteStack> out;
    if (siteId < 0) return out;
    for (const HeaptrackSiteStackEntry& e : loadHeaptrackSiteStacks(db, traceId, siteId))
        out.push_back({e.node, e.allocations, e.temporary, e.peakBytes, e.leakedBytes, {}});
    // Peak bytes, then allocations, largest first; node ids break ties.
    std::sort(out.begin(), out.end(), [](const SiteStack& a, const SiteStack& b) {
        if (a.peakBytes != b.peakBytes) return a.peakBytes > b.peakBytes;
        if (a.allocations != b.allocations) return a.allocations > b.allocations;
        return a.nodeId < b.nodeId;
    });
    if (limit > 0 && static_cast<std::int64_t>(out.size()) > limit) out.resize(static_cast<std::size_t>(limit));
    HeaptrackNodeLookup nodes(db, traceId);
    HeaptrackFrameLookup frames(db, traceId);
    for (SiteStack& k : out) k.frames = backtrace(frames, nodes, k.nodeId);
    return out;
}

} // namespace memviz

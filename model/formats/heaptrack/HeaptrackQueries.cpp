// SPDX-License-Identifier: MIT
#include "formats/heaptrack/HeaptrackQueries.h"

#include <cstdio>

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
    Statement s(db, "SELECT s.site_id, s.function, s.module, s.file, s.line, coalesce(f.address, 0), s.allocations, "
                    "s.temporary, s.peak_bytes, s.leaked_bytes, "
                    "(SELECT count(*) FROM heaptrack_site_stacks k WHERE k.trace_id = s.trace_id AND k.site_id = s.site_id) "
                    "FROM heaptrack_sites s LEFT JOIN heaptrack_frames f "
                    "ON f.trace_id = s.trace_id AND f.ip_id = s.ip_id AND f.depth = 0 "
                    "WHERE s.trace_id = ? ORDER BY s.peak_bytes DESC, s.allocations DESC, s.site_id");
    s.bind(1, traceId);
    std::vector<AllocationSite> out;
    while (s.step()) {
        AllocationSite a;
        a.id = s.int64(0);
        a.function = s.text(1);
        a.module = s.text(2);
        a.file = s.text(3);
        a.line = s.int64(4);
        a.address = s.int64(5);
        a.allocations = s.int64(6);
        a.temporary = s.int64(7);
        a.peakBytes = s.int64(8);
        a.leakedBytes = s.int64(9);
        a.stacks = s.int64(10);
        out.push_back(std::move(a));
    }
    return out;
}

std::vector<StackFrame> queryBacktrace(Database& db, std::int64_t traceId, std::int64_t nodeId) {
    // Parents are defined before their children (checked at import), so the walk ends.
    Statement s(db, "WITH RECURSIVE chain(node, parent, ip, n) AS ("
                    "  SELECT node_id, parent_id, ip_id, 0 FROM heaptrack_trace_nodes WHERE trace_id = ?1 AND node_id = ?2"
                    "  UNION ALL"
                    "  SELECT t.node_id, t.parent_id, t.ip_id, c.n + 1 FROM chain c JOIN heaptrack_trace_nodes t"
                    "  ON t.trace_id = ?1 AND t.node_id = c.parent WHERE c.parent <> 0 AND t.node_id < c.node) "
                    "SELECT f.depth, f.address, f.module, f.function, f.file, f.line FROM chain c "
                    "JOIN heaptrack_frames f ON f.trace_id = ?1 AND f.ip_id = c.ip ORDER BY c.n, f.depth");
    s.bind(1, traceId).bind(2, nodeId);
    std::vector<StackFrame> out;
    while (s.step()) {
        StackFrame f;
        f.inlined = s.int64(0) > 0;
        f.address = s.int64(1);
        f.module = s.text(2);
        f.function = s.text(3);
        f.file = s.text(4);
        f.line = s.int64(5);
        out.push_back(std::move(f));
    }
    return out;
}

std::vector<SiteStack> querySiteStacks(Database& db, std::int64_t traceId, std::int64_t siteId, std::int64_t limit) {
    Statement s(db, "SELECT node_id, allocations, temporary, peak_bytes, leaked_bytes FROM heaptrack_site_stacks "
                    "WHERE trace_id = ? AND site_id = ? ORDER BY peak_bytes DESC, allocations DESC, node_id LIMIT ?");
    s.bind(1, traceId).bind(2, siteId).bind(3, limit > 0 ? limit : std::int64_t(-1));
    std::vector<SiteStack> out;
    while (s.step()) {
        SiteStack k;
        k.nodeId = s.int64(0);
        k.allocations = s.int64(1);
        k.temporary = s.int64(2);
        k.peakBytes = s.int64(3);
        k.leakedBytes = s.int64(4);
        out.push_back(std::move(k));
    }
    for (SiteStack& k : out) k.frames = queryBacktrace(db, traceId, k.nodeId);
    return out;
}

} // namespace memviz

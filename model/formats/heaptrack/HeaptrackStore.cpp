// SPDX-License-Identifier: MIT
#include "formats/heaptrack/HeaptrackStore.h"

#include <algorithm>

#include "formats/FormatIds.h"
#include "formats/heaptrack/HeaptrackChunks.h"
#include "formats/heaptrack/HeaptrackModel.h"
#include "formats/heaptrack/HeaptrackQueries.h"
#include "formats/heaptrack/HeaptrackReader.h"
#include "store/ChunkCodec.h"
#include "store/Database.h"
#include "store/TraceWriter.h"

namespace memviz {

namespace {

void writeTotals(Database& db, std::int64_t traceId, const HeaptrackModel& m, const HeaptrackHeader& h,
                 std::int64_t totalTimeMs) {
    Statement s(db, "INSERT INTO heaptrack_totals(trace_id, heaptrack_version, file_version, command, calls, temporary, "
                    "peak_bytes, peak_time_ms, leaked_bytes, suppressed_bytes, peak_rss_bytes, total_time_ms) "
                    "VALUES (?,?,?,?,?,?,?,?,?,?,?,?)");
    s.bind(1, traceId)
        .bind(2, static_cast<std::int64_t>(h.heaptrackVersion))
        .bind(3, static_cast<std::int64_t>(h.fileVersion))
        .bind(4, h.command)
        .bind(5, m.totals.calls)
        .bind(6, m.totals.temporary)
        .bind(7, m.totals.peak)
        .bind(8, m.totals.peakTimeMs)
        .bind(9, m.totals.leaked)
        .bind(10, m.totals.suppressed)
        .bind(11, m.totals.peakRssPages * h.pageSize)
        .bind(12, totalTimeMs)
        .run();
}

void writeSites(Database& db, std::int64_t traceId, const HeaptrackModel& m) {
    Statement site(db, "INSERT INTO heaptrack_sites(trace_id, site_id, ip_id, function, module, file, line, allocations, "
                       "temporary, peak_bytes, leaked_bytes, stacks) VALUES (?,?,?,?,?,?,?,?,?,?,?,?)");
    HeaptrackSiteStackChunkWriter stacks(db, traceId);
    for (std::size_t i = 0; i < m.sites.size(); ++i) {
        const HeaptrackSite& s = m.sites[i];
        if (s.nodes.empty()) continue;
        const HeaptrackIp& ip = m.ip(s.ip);
        site.bind(1, traceId)
            .bind(2, static_cast<std::int64_t>(i))
            .bind(3, static_cast<std::int64_t>(s.ip))
            .bind(4, m.string(ip.frame.function))
            .bind(5, m.string(ip.module))
            .bind(6, m.string(ip.frame.file))
            .bind(7, static_cast<std::int64_t>(ip.frame.line))
            .bind(8, s.cost.allocations)
            .bind(9, s.cost.temporary)
            .bind(10, s.cost.peak)
            .bind(11, s.cost.leaked)
            .bind(12, static_cast<std::int64_t>(s.nodes.size()))
            .run();
        for (std::uint32_t node : s.nodes) {
            const HeaptrackCost& c = m.cost(node);
            stacks.add({static_cast<std::uint32_t>(i), node, c.allocations, c.temporary, c.peak, c.leaked});
        }
    }
    stacks.finish();
}

} // namespace

void writeHeaptrackTables(TraceWriter& out, const HeaptrackModel& model, const HeaptrackHeader& header,
                          std::int64_t totalTimeMs) {
    Database& db = out.database();
    const std::int64_t traceId = out.traceId();
    writeTotals(db, traceId, model, header, totalTimeMs);
    writeSites(db, traceId, model);
    out.setMetadata(metadata_key::kHeaptrackCommand, header.command);
    out.setMetadata(metadata_key::kHeaptrackFileVersion, std::to_string(header.fileVersion));
    if (header.attached) out.setMetadata(metadata_key::kHeaptrackAttached, "1");
}

} // namespace memviz

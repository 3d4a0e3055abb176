// SPDX-License-Identifier: MIT
#include "formats/heaptrack/HeaptrackStreamTables.h"

#include <algorithm>

#include "formats/heaptrack/HeaptrackChunks.h"
#include "formats/heaptrack/HeaptrackModel.h"
#include "formats/heaptrack/HeaptrackQueries.h"
#include "store/ChunkCodec.h"
#include "store/TraceWriter.h"

namespace memviz {

static_assert(kHeaptrackNodesPerChunk == 65536 && kHeaptrackInfosPerChunk == 65536,
              "HeaptrackStreamTables cuts chunks where the readers expect them");

HeaptrackStreamTables::HeaptrackStreamTables(TraceWriter& out)
    : out_(out), traceId_(out.traceId()),
      frames_(out.databaseForJobs(), "INSERT INTO heaptrack_frames(trace_id, ip_id, depth, address, module, function, "
                                     "file, line) VALUES (?,?,?,?,?,?,?,?)"),
      nodes_(out.databaseForJobs(),
             "INSERT INTO heaptrack_node_chunks(trace_id, first_node, node_count, codec, data) VALUES (?,?,?,?,?)"),
      infos_(out.databaseForJobs(), "INSERT INTO heaptrack_alloc_info_chunks(trace_id, first_info, info_count, codec, "
                                    "data) VALUES (?,?,?,?,?)") {}

void HeaptrackStreamTables::flushNodes(const HeaptrackModel& m) {
    while (nodesDone_ < m.nodes.size()) {
        const std::size_t count = std::min(kNodeChunk, m.nodes.size() - nodesDone_);
        std::vector<HeaptrackStoredNode> chunk = spareNodes_.take();
        chunk.reserve(count);
        for (std::size_t i = 0; i < count; ++i) chunk.push_back({m.nodes[nodesDone_ + i].ip, m.nodes[nodesDone_ + i].parent});
        const auto first = static_cast<std::uint32_t>(nodesDone_);
        out_.post([this, first, chunk = std::move(chunk)]() mutable {
            nodes_.bind(1, traceId_)
                .bind(2, static_cast<std::int64_t>(first))
                .bind(3, static_cast<std::int64_t>(chunk.size()))
                .bind(4, kCodecZstdColumns)
                .bindBlob(5, encodeHeaptrackNodes(chunk, first))
                .run();
            spareNodes_.give(std::move(chunk));
        });
        nodesDone_ += count;
    }
}

void HeaptrackStreamTables::flushInfos(const HeaptrackModel& m) {
    while (infosDone_ < m.infos.size()) {
        const std::size_t count = std::min(kInfoChunk, m.infos.size() - infosDone_);
        std::vector<SeriesPoint> chunk = spareInfos_.take();
        chunk.reserve(count);
        for (std::size_t i = 0; i < count; ++i)
            chunk.push_back({m.infos[infosDone_ + i].size, static_cast<std::int64_t>(m.infos[infosDone_ + i].node)});
        const auto first = static_cast<std::int64_t>(infosDone_);
        out_.post([this, first, chunk = std::move(chunk)]() mutable {
            infos_.bind(1, traceId_)
                .bind(2, first)
                .bind(3, static_cast<std::int64_t>(chunk.size()))
                .bind(4, kCodecZstdNarrowColumns)
                .bindBlob(5, encodePoints(chunk))
                .run();
            spareInfos_.give(std::move(chunk));
        });
        infosDone_ += count;
    }
}

void HeaptrackStreamTables::flushIps(const HeaptrackModel& m) {
    if (ipsDone_ >= m.ips.size()) return;
    std::vector<FrameRow> rows = spareRows_.take();
    rows.reserve(m.ips.size() - ipsDone_);
    for (std::size_t i = ipsDone_; i < m.ips.size(); ++i) {
        const HeaptrackIp& ip = m.ips[i];
        const auto add = [&](std::int64_t depth, const HeaptrackFrame& f) {
            rows.push_back({static_cast<std::int64_t>(i), depth, static_cast<std::int64_t>(ip.address),
                            static_cast<std::int64_t>(f.line), &m.string(ip.module), &m.string(f.function),
                            &m.string(f.file)});
        };
        add(0, ip.frame);
        for (std::uint32_t k = 0; k < ip.inlinedCount; ++k) add(k + 1, m.inlined[ip.inlinedBegin + k]);
    }
    ipsDone_ = m.ips.size();
    out_.post([this, rows = std::move(rows)]() mutable {
        for (const FrameRow& r : rows)
            frames_.bind(1, traceId_)
                .bind(2, r.ip)
                .bind(3, r.depth)
                .bind(4, r.address)
                .bind(5, *r.module)
                .bind(6, *r.function)
                .bind(7, *r.file)
                .bind(8, r.line)
                .run();
        spareRows_.give(std::move(rows));
    });
}

void HeaptrackStreamTables::finish(const HeaptrackModel& m) {
    flushIps(m);
    flushNodes(m);
    flushInfos(m);
}

} // namespace memviz

// SPDX-License-Identifier: MIT
#include "formats/heaptrack/HeaptrackStreamTables.h"

#include <algorithm>

#include "formats/heaptrack/HeaptrackChunks.h"
#include "formats/heaptrack/HeaptrackModel.h"
#include "formats/heaptrack/HeaptrackQueries.h"
#include "store/ChunkCodec.h"
#include "store/TraceWriter.h"

namespace memviz {

static_assert(kHeaptrackNodesPerChunk == 65536 && kHeaptrackInfosPerChunk == 65536 && kHeaptrackInfosPerChunk <= kPointsPerChunk,
              "HeaptrackStreamTables cuts chunks where the readers expect them");

HeaptrackStreamTables::HeaptrackStreamTables(TraceWriter& out)
    : out_(out), traceId_(out.traceId()),
      strings_(out.databaseForJobs(), "INSERT INTO heaptrack_string_chunks(trace_id, first_string, string_count, codec, "
                                      "data) VALUES (?,?,?,?,?)"),
      ips_(out.databaseForJobs(),
           "INSERT INTO heaptrack_frame_chunks(trace_id, first_ip, ip_count, codec, data) VALUES (?,?,?,?,?)"),
      nodes_(out.databaseForJobs(),
             "INSERT INTO heaptrack_node_chunks(trace_id, first_node, node_count, codec, data) VALUES (?,?,?,?,?)"),
      infos_(out.databaseForJobs(), "INSERT INTO heaptrack_alloc_info_chunks(trace_id, first_info, info_count, codec, "
                                    "data) VALUES (?,?,?,?,?)") {}

// One chunk row: (trace, first, count, codec, blob), the columns every chunk table here has.
void HeaptrackStreamTables::insertChunk(Statement& insert, std::int64_t first, std::size_t count, int codec,
                                        std::span<const unsigned char> blob) {
    insert.bind(1, traceId_)
        .bind(2, first)
        .bind(3, static_cast<std::int64_t>(count))
        .bind(4, codec)
        .bindBlob(5, blob)
        .run();
}

void HeaptrackStreamTables::flushNodes(const HeaptrackModel& m) {
    while (nodesDone_ < m.nodes.size()) {
        const std::size_t count = std::min(kNodeChunk, m.nodes.size() - nodesDone_);
        std::vector<HeaptrackStoredNode> chunk = spareNodes_.take();
        chunk.reserve(count);
        for (std::size_t i = 0; i < count; ++i) chunk.push_back({m.nodes[nodesDone_ + i].ip, m.nodes[nodesDone_ + i].parent});
        const auto first = static_cast<std::uint32_t>(nodesDone_);
        out_.post([this, first, chunk = std::move(chunk)]() mutable {
            insertChunk(nodes_, first, chunk.size(), kCodecZstdNarrowColumns, encodeHeaptrackNodes(chunk, first));
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
            insertChunk(infos_, first, chunk.size(), kCodecZstdNarrowColumns, encodePoints(chunk));
            spareInfos_.give(std::move(chunk));
        });
        infosDone_ += count;
    }
}

// The strings defined since the last call, in chunks of at most kHeaptrackStringsPerChunk
// strings or (about) kHeaptrackStringChunkText bytes. The jobs read them through views: a
// string in the deque stays put and unchanged once added.
void HeaptrackStreamTables::flushStrings(const HeaptrackModel& m) {
    while (stringsDone_ < m.strings.size()) {
        std::vector<std::string_view> chunk;
        std::size_t bytes = 0;
        for (std::size_t i = stringsDone_; i < m.strings.size() && chunk.size() < kHeaptrackStringsPerChunk &&
                                           bytes < kHeaptrackStringChunkText;
             ++i) {
            chunk.emplace_back(m.strings[i]);
            bytes += m.strings[i].size();
        }
        const auto first = static_cast<std::int64_t>(stringsDone_);
        stringsDone_ += chunk.size();
        out_.post([this, first, chunk = std::move(chunk)] {
            insertChunk(strings_, first, chunk.size(), kCodecZstdNarrowColumns, encodeHeaptrackStrings(chunk));
        });
    }
}

// The ips defined since the last call as one chunk, after the strings they name.
void HeaptrackStreamTables::flushIps(const HeaptrackModel& m) {
    flushStrings(m);
    if (ipsDone_ >= m.ips.size()) return;
    HeaptrackIpChunk chunk;
    chunk.ips.reserve(m.ips.size() - ipsDone_);
    chunk.inlined.reserve(pendingInlined_);
    for (std::size_t i = ipsDone_; i < m.ips.size(); ++i) {
        const HeaptrackIp& ip = m.ips[i];
        chunk.ips.push_back({static_cast<std::int64_t>(ip.address), ip.module, ip.frame, ip.inlinedCount});
        chunk.inlined.insert(chunk.inlined.end(), m.inlined.begin() + ip.inlinedBegin,
                             m.inlined.begin() + ip.inlinedBegin + ip.inlinedCount);
    }
    const auto first = static_cast<std::int64_t>(ipsDone_);
    ipsDone_ = m.ips.size();
    pendingInlined_ = 0;
    out_.post([this, first, chunk = std::move(chunk)] {
        insertChunk(ips_, first, chunk.ips.size(), kCodecZstdNarrowColumns, encodeHeaptrackIps(chunk));
    });
}

void HeaptrackStreamTables::finish(const HeaptrackModel& m) {
    flushIps(m);
    flushStrings(m); // those after the last ip too
    flushNodes(m);
    flushInfos(m);
}

} // namespace memviz

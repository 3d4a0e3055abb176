// SPDX-License-Identifier: MIT
#pragma once
// Writes the heaptrack tables whose rows are final as soon as the file defines them, while the
// file is still being read (issue 33): the string chunks (`s`), the instruction pointer chunks
// with their frames (`i`), the backtrace node chunks (`t`) and the allocation info chunks
// (`a`). The parser hands each full chunk over as a copy; encoding, compressing and inserting
// run as jobs on the TraceWriter's worker thread (TraceWriter::post), beside the event chunks.
#include <cstdint>
#include <mutex>
#include <span>
#include <string>
#include <vector>

#include "formats/heaptrack/HeaptrackChunks.h"
#include "formats/heaptrack/HeaptrackFrameChunks.h"
#include "formats/heaptrack/HeaptrackModel.h"
#include "store/ChunkCodec.h"
#include "store/Database.h"

namespace memviz {

class TraceWriter;

class HeaptrackStreamTables {
public:
    // Prepares the statements on the writer's connection (TraceWriter::databaseForJobs).
    explicit HeaptrackStreamTables(TraceWriter& out);
    // Hands over what filled a chunk since the last call; cheap when nothing did.
    void nodesAdded(const HeaptrackModel& m) {
        if (m.nodes.size() - nodesDone_ >= kNodeChunk) flushNodes(m);
    }
    void infosAdded(const HeaptrackModel& m) {
        if (m.infos.size() - infosDone_ >= kInfoChunk) flushInfos(m);
    }
    void ipsAdded(const HeaptrackModel& m) {
        pendingInlined_ += m.ips.back().inlinedCount;
        if (m.ips.size() - ipsDone_ >= kHeaptrackIpsPerChunk || pendingInlined_ >= kHeaptrackInlinedPerChunk - kHeaptrackMaxInlined)
            flushIps(m);
    }
    // Hands over the rest (after the last line).
    void finish(const HeaptrackModel& m);

private:
    static constexpr std::size_t kNodeChunk = 65536; // kHeaptrackNodesPerChunk
    static constexpr std::size_t kInfoChunk = 65536; // kHeaptrackInfosPerChunk
    // Buffers the jobs are done with, reused by the next chunk: a fresh half-megabyte buffer
    // per chunk costs its page faults again every time.
    template <typename T>
    struct Spare {
        std::mutex mutex;
        std::vector<std::vector<T>> buffers;
        std::vector<T> take() {
            const std::lock_guard lock(mutex);
            if (buffers.empty()) return {};
            std::vector<T> v = std::move(buffers.back());
            buffers.pop_back();
            return v;
        }
        void give(std::vector<T>&& v) {
            v.clear();
            const std::lock_guard lock(mutex);
            if (buffers.size() < 2) buffers.push_back(std::move(v));
        }
    };
    void flushNodes(const HeaptrackModel& m);
    void flushInfos(const HeaptrackModel& m);
    void flushIps(const HeaptrackModel& m);
    void flushStrings(const HeaptrackModel& m);
    void insertChunk(Statement& insert, std::int64_t first, std::size_t count, int codec, std::span<const unsigned char> blob);

    TraceWriter& out_;
    std::int64_t traceId_;
    Statement strings_, ips_, nodes_, infos_; // used only inside jobs
    Spare<HeaptrackStoredNode> spareNodes_;
    Spare<SeriesPoint> spareInfos_;
    std::size_t nodesDone_ = 1, infosDone_ = 0, ipsDone_ = 1, stringsDone_ = 1;
    std::size_t pendingInlined_ = 0; // frames inlined into the ips after ipsDone_
};

} // namespace memviz

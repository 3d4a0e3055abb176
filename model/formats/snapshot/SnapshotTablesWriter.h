// SPDX-License-Identifier: MIT
#pragma once
// Writes the CUDA memory snapshot tables of one trace through prepared statements, inside the
// TraceWriter's transaction (they commit or roll back with the trace).
#include <cstdint>
#include <optional>
#include <span>
#include <string_view>
#include <vector>

#include "formats/snapshot/SnapshotRows.h"
#include "store/Database.h"
#include "trace/Event.h"

namespace memviz {

class SnapshotTablesWriter {
public:
    SnapshotTablesWriter(Database& db, std::int64_t traceId);

    void addFrame(std::int64_t id, const FrameRow& frame);
    void addStackFrame(std::int64_t stack, std::int64_t depth, std::int64_t frame);
    void addDevice(const SnapshotDeviceStats& stats);
    void addActionCount(int device, std::string_view action, std::int64_t count);
    // One chunk of a device's trace entries as events (their index in the device's trace is
    // firstSeq + position).
    void addEntryChunk(int device, std::int64_t chunk, std::int64_t firstSeq, std::span<const Event> events);
    // The same row with its events already encoded (encodeEvents): the builder compresses on its
    // own thread and hands only the insert to the writer's worker.
    struct EncodedEntryChunk {
        int device = 0;
        std::int64_t chunk = 0, firstSeq = 0, count = 0, tFirst = 0, tLast = 0;
        std::vector<unsigned char> blob; // codec 2, or the event chunk's number (codec 3)
        std::int64_t codec = 0;
    };
    // `eventChunk`: the number of the trace's event chunk that holds the same events, when there
    // is one (one device, no inferred frees): the row names it instead of holding them again
    // (codec kCodecEntriesInEventChunk). Else the events are encoded here.
    static EncodedEntryChunk encodeEntryChunk(int device, std::int64_t chunk, std::int64_t firstSeq,
                                              std::span<const Event> events,
                                              std::optional<std::int64_t> eventChunk = std::nullopt);
    void addEntryChunk(const EncodedEntryChunk& encoded);
    void addSegment(const SnapshotSegmentRow& row);
    void addBlock(const SnapshotBlockRow& row);
    // One chunk of a device's allocations (at most kAllocationsPerChunk rows; chunk 0, 1, ...
    // hold the allocations in order).
    void addAllocationChunk(int device, std::int64_t chunk, std::int64_t rowCount, const std::vector<unsigned char>& encoded);
    void addAllocationChunk(int device, std::int64_t chunk, std::span<const SnapshotAllocationRow> rows);
    void addOom(const SnapshotOomRow& row);
    void addAnnotation(const SnapshotAnnotationRow& row);

private:
    std::int64_t traceId_;
    Statement frame_, stackFrame_, device_, action_, chunk_, segment_, block_, allocation_, oom_, annotation_;
};

} // namespace memviz

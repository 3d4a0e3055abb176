// SPDX-License-Identifier: MIT
#include "formats/snapshot/SnapshotTablesWriter.h"

#include <algorithm>
#include <cstring>

#include "formats/snapshot/SnapshotCodec.h"
#include "store/ChunkCodec.h"

namespace memviz {

SnapshotTablesWriter::SnapshotTablesWriter(Database& db, std::int64_t traceId)
    : traceId_(traceId), frame_(db, "INSERT INTO frames(trace_id, id, name, filename, line) VALUES (?,?,?,?,?)"),
      stackFrame_(db, "INSERT INTO stack_frames(trace_id, stack, depth, frame) VALUES (?,?,?,?)"),
      device_(db, "INSERT INTO snapshot_devices(trace_id, device, cuda_device, entries, baseline_bytes, baseline_blocks, "
                  "baseline_freed_blocks, peak_seq, peak_bytes, final_replayed_bytes, final_active_requested_bytes, "
                  "final_pending_requested_bytes, final_active_bytes, unmatched_live_allocations, size_mismatches, "
                  "reserved_initial_bytes, reserved_final_bytes, segments) VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?)"),
      action_(db, "INSERT INTO snapshot_action_counts(trace_id, device, action, count) VALUES (?,?,?,?)"),
      chunk_(db, "INSERT INTO snapshot_entry_chunks(trace_id, device, chunk, first_seq, entry_count, t_first, t_last, "
                 "codec, data) VALUES (?,?,?,?,?,?,?,?,?)"),
      segment_(db, "INSERT INTO snapshot_segments(trace_id, device, address, total_size, allocated_size, active_size, "
                   "requested_size, stream, segment_type, pool_id, is_expandable, stack) VALUES (?,?,?,?,?,?,?,?,?,?,?,?)"),
      block_(db, "INSERT INTO snapshot_blocks(trace_id, device, segment_address, address, size, requested_size, state, "
                 "stack) VALUES (?,?,?,?,?,?,?,?)"),
      allocation_(db, "INSERT INTO snapshot_allocation_chunks(trace_id, device, chunk, row_count, codec, data) "
                      "VALUES (?,?,?,?,?,?)"),
      oom_(db, "INSERT INTO snapshot_ooms(trace_id, device, seq, t, requested_bytes, device_free_bytes, stack) "
               "VALUES (?,?,?,?,?,?,?)"),
      annotation_(db, "INSERT INTO snapshot_annotations(trace_id, device, cuda_device, t, time_us, stage, name) "
                      "VALUES (?,?,?,?,?,?,?)") {}

void SnapshotTablesWriter::addFrame(std::int64_t id, const FrameRow& f) {
    frame_.bind(1, traceId_).bind(2, id).bind(3, f.name).bind(4, f.filename).bind(5, f.line).run();
}

void SnapshotTablesWriter::addStackFrame(std::int64_t stack, std::int64_t depth, std::int64_t frame) {
    stackFrame_.bind(1, traceId_).bind(2, stack).bind(3, depth).bind(4, frame).run();
}

void SnapshotTablesWriter::addDevice(const SnapshotDeviceStats& d) {
    device_.bind(1, traceId_)
        .bind(2, d.device)
        .bind(3, d.cudaDevice)
        .bind(4, d.entries)
        .bind(5, d.baselineBytes)
        .bind(6, d.baselineBlocks)
        .bind(7, d.baselineFreedBlocks)
        .bind(8, d.peakSeq)
        .bind(9, d.peakBytes)
        .bind(10, d.finalReplayed)
        .bind(11, d.finalActiveRequested)
        .bind(12, d.finalPendingRequested)
        .bind(13, d.finalActiveBytes)
        .bind(14, d.unmatchedLive)
        .bind(15, d.sizeMismatches)
        .bind(16, d.reservedInitial)
        .bind(17, d.reservedFinal)
        .bind(18, d.segments)
        .run();
}

void SnapshotTablesWriter::addActionCount(int device, std::string_view action, std::int64_t count) {
    action_.bind(1, traceId_).bind(2, device).bind(3, action).bind(4, count).run();
}

SnapshotTablesWriter::EncodedEntryChunk SnapshotTablesWriter::encodeEntryChunk(int device, std::int64_t chunk,
                                                                             std::int64_t firstSeq,
                                                                             std::span<const Event> events,
                                                                             std::optional<std::int64_t> eventChunk) {
    EncodedEntryChunk e;
    e.device = device;
    e.chunk = chunk;
    e.firstSeq = firstSeq;
    e.count = static_cast<std::int64_t>(events.size());
    if (events.empty()) return e;
    e.tFirst = events.front().timeNs;
    e.tLast = events.back().timeNs;
    if (eventChunk) {
        e.codec = kCodecEntriesInEventChunk;
        e.blob.resize(8);
        std::memcpy(e.blob.data(), &*eventChunk, 8); // little-endian host (x86-64, aarch64)
    } else {
        e.codec = kCodecZstdNarrowColumns;
        e.blob = encodeEvents(events);
    }
    return e;
}

void SnapshotTablesWriter::addEntryChunk(const EncodedEntryChunk& e) {
    if (e.count == 0) return;
    chunk_.bind(1, traceId_)
        .bind(2, e.device)
        .bind(3, e.chunk)
        .bind(4, e.firstSeq)
        .bind(5, e.count)
        .bind(6, e.tFirst)
        .bind(7, e.tLast)
        .bind(8, e.codec)
        .bindBlob(9, e.blob)
        .run();
}

void SnapshotTablesWriter::addEntryChunk(int device, std::int64_t chunk, std::int64_t firstSeq, std::span<const Event> events) {
    addEntryChunk(encodeEntryChunk(device, chunk, firstSeq, events));
}

void SnapshotTablesWriter::addSegment(const SnapshotSegmentRow& r) {
    segment_.bind(1, traceId_)
        .bind(2, r.device)
        .bind(3, r.address)
        .bind(4, r.totalSize)
        .bind(5, r.allocatedSize)
        .bind(6, r.activeSize)
        .bind(7, r.requestedSize)
        .bind(8, r.stream)
        .bind(9, r.segmentType)
        .bind(10, r.poolId)
        .bind(11, r.expandable ? 1 : 0)
        .bind(12, r.stack)
        .run();
}

void SnapshotTablesWriter::addBlock(const SnapshotBlockRow& r) {
    block_.bind(1, traceId_)
        .bind(2, r.device)
        .bind(3, r.segmentAddress)
        .bind(4, r.address)
        .bind(5, r.size)
        .bind(6, r.requestedSize)
        .bind(7, r.state)
        .bind(8, r.stack)
        .run();
}

void SnapshotTablesWriter::addAllocationChunk(int device, std::int64_t chunk, std::int64_t rowCount,
                                              const std::vector<unsigned char>& encoded) {
    allocation_.bind(1, traceId_)
        .bind(2, device)
        .bind(3, chunk)
        .bind(4, rowCount)
        .bind(5, kCodecZstdAllocationNarrowColumns)
        .bindBlob(6, encoded)
        .run();
}

void SnapshotTablesWriter::addAllocationChunk(int device, std::int64_t chunk, std::span<const SnapshotAllocationRow> rows) {
    addAllocationChunk(device, chunk, static_cast<std::int64_t>(rows.size()), encodeAllocations(rows));
}

void SnapshotTablesWriter::addOom(const SnapshotOomRow& r) {
    oom_.bind(1, traceId_).bind(2, r.device).bind(3, r.seq).bind(4, r.t).bind(5, r.requestedBytes);
    oom_.bindOptional(6, r.deviceFreeBytes);
    oom_.bind(7, r.stack).run();
}

void SnapshotTablesWriter::addAnnotation(const SnapshotAnnotationRow& r) {
    annotation_.bind(1, traceId_);
    annotation_.bindOptional(2, r.device);
    annotation_.bindOptional(3, r.cudaDevice);
    annotation_.bindOptional(4, r.t);
    annotation_.bindOptional(5, r.timeUs);
    annotation_.bind(6, r.stage).bind(7, r.name).run();
}

} // namespace memviz

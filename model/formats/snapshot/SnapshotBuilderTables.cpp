// SPDX-License-Identifier: MIT
// SnapshotBuilder, part two: the snapshot tables (docs/formats-snapshot.md) and metadata.
#include <algorithm>
#include <atomic>

#include "formats/FormatIds.h"
#include "formats/snapshot/SnapshotBuilder.h"
#include "formats/snapshot/SnapshotCodec.h"
#include "formats/snapshot/SnapshotContext.h"
#include "formats/snapshot/SnapshotTablesWriter.h"
#include "store/Database.h"
#include "store/TraceWriter.h"

namespace memviz::snapshot {

// Compressed here, inserted by the writer's worker while the next chunk is converted.
void SnapshotBuilder::postAllocationChunk(std::uint16_t device, std::int64_t chunk,
                                          std::span<const SnapshotAllocationRow> rows, SnapshotTablesWriter& tables) {
    out_.post([&tables, device, chunk, count = static_cast<std::int64_t>(rows.size()), blob = encodeAllocations(rows)] {
        tables.addAllocationChunk(device, chunk, count, blob);
    });
}

// Runs beside emitEvents() (see build()): it reads only what the replay and computeTimes() left,
// which the emit does not change, and hands its chunks to the writer's worker like the emit.
void SnapshotBuilder::writeAllocationChunks(SnapshotTablesWriter& tables, const std::atomic<bool>& stop) {
    for (const Device& d : devices_) {
        const DeviceReplay& r = d.replay;
        const auto timeAt = [&](std::int64_t seq) -> std::optional<std::int64_t> {
            if (seq < 0 || static_cast<std::size_t>(seq) >= d.entries->size()) return std::nullopt;
            return timeOf(d, static_cast<std::size_t>(seq));
        };
        // Rows for one chunk at a time (a row is twice an Allocation's size).
        std::vector<SnapshotAllocationRow> rows;
        rows.reserve(std::min(kAllocationsPerChunk, r.allocations.size()));
        std::int64_t chunk = 0;
        for (const Allocation& a : r.allocations) {
            SnapshotAllocationRow row;
            row.device = d.index;
            row.address = a.address;
            row.requestedSize = a.requestedSize;
            if (a.blockSize >= 0) row.blockSize = a.blockSize;
            row.allocSeq = a.allocSeq;
            if (a.freeSeq >= 0) row.freeSeq = a.freeSeq;
            row.tAlloc = timeAt(a.allocSeq);
            row.tFree = timeAt(a.freeSeq);
            row.stack = a.stack;
            row.freeStack = a.freeStack;
            row.origin = static_cast<int>(a.origin);
            rows.push_back(row);
            if (rows.size() == kAllocationsPerChunk) {
                if (stop.load(std::memory_order_relaxed)) return;
                postAllocationChunk(d.index, chunk++, rows, tables);
                rows.clear();
            }
        }
        if (!rows.empty()) postAllocationChunk(d.index, chunk++, rows, tables);
    }
}

void SnapshotBuilder::writeTables(SnapshotTablesWriter& tables) {
    for (const Device& d : devices_) {
        const DeviceReplay& r = d.replay;
        out_.database(); // the rows below are written from this thread
        for (const Segment* s : d.segments) {
            SnapshotSegmentRow seg;
            seg.device = d.index;
            seg.address = s->address;
            seg.totalSize = s->totalSize;
            seg.allocatedSize = s->allocatedSize;
            seg.activeSize = s->activeSize;
            seg.requestedSize = s->requestedSize;
            seg.stream = s->stream;
            seg.segmentType = s->segmentType;
            seg.poolId = s->poolId;
            seg.expandable = s->expandable;
            seg.stack = s->stack;
            tables.addSegment(seg);
            for (const Block& b : s->blocks)
                tables.addBlock({d.index, s->address, b.address, b.size, b.requestedSize, blockStateName(b.state), b.stack});
        }
        SnapshotDeviceStats st;
        st.device = d.index;
        st.cudaDevice = d.number;
        st.entries = static_cast<std::int64_t>(d.entries->size());
        st.baselineBytes = r.baselineBytes;
        st.baselineBlocks = r.baselineBlocks;
        st.baselineFreedBlocks = r.baselineFreedBlocks;
        st.peakSeq = r.peakSeq;
        st.peakBytes = r.peakBytes;
        st.finalReplayed = r.finalReplayed;
        st.finalActiveRequested = r.finalActiveRequested;
        st.finalPendingRequested = r.finalPendingRequested;
        st.finalActiveBytes = r.finalActiveBytes;
        st.unmatchedLive = r.unmatchedLive;
        st.sizeMismatches = r.sizeMismatches;
        st.reservedInitial = r.reservedInitial;
        st.reservedFinal = r.reservedFinal;
        st.segments = r.segments;
        tables.addDevice(st);
        for (std::size_t a = 0; a < r.actionCounts.size(); ++a)
            if (r.actionCounts[a] && static_cast<Action>(a) != Action::Unknown)
                tables.addActionCount(d.index, actionName(static_cast<Action>(a)), r.actionCounts[a]);
        for (std::size_t u = 0; u < r.unknownActionCounts.size(); ++u)
            if (r.unknownActionCounts[u]) {
                tables.addActionCount(d.index, data_.unknownActions[u], r.unknownActionCounts[u]);
                out_.warn("unknown_action", deviceName(d.number),
                          "entries with an action memviz does not know (\"" + data_.unknownActions[u] + "\"); kept as markers");
            }
    }

    // compile_context, user_metadata, forward_frames: runs of entries that share them.
    std::vector<SnapshotContextRun> runs;
    for (const Device& d : devices_) {
        const auto& extras = *d.extras;
        for (std::size_t i = 0; i < extras.size(); ++i) {
            const EntryExtras& x = extras[i].extras;
            const std::int64_t end = i + 1 < extras.size() ? extras[i + 1].firstSeq
                                                           : static_cast<std::int64_t>(d.entries->size());
            const SnapshotContextRun run{d.index, extras[i].firstSeq, end - 1, x.compileContext, x.userMetadata, x.forwardFrames};
            if (!run.hasAny()) continue;
            if (!runs.empty() && runs.back().device == run.device && runs.back().lastSeq + 1 == run.firstSeq &&
                runs.back().sameTexts(run))
                runs.back().lastSeq = run.lastSeq;
            else runs.push_back(run);
        }
    }
    writeSnapshotContexts(out_.database(), out_.traceId(), data_.contextTexts, runs);

    // The entries' streams other than the default one: runs of entries on the same stream.
    Statement streams(out_.database(), "INSERT INTO snapshot_entry_streams(trace_id, device, first_seq, last_seq, stream) VALUES (?,?,?,?,?)");
    for (const Device& d : devices_) {
        const auto& extras = *d.extras;
        for (std::size_t i = 0; i < extras.size();) {
            const std::int64_t stream = extras[i].extras.stream;
            std::size_t j = i + 1;
            while (j < extras.size() && extras[j].extras.stream == stream) ++j;
            const std::int64_t last = (j < extras.size() ? extras[j].firstSeq : static_cast<std::int64_t>(d.entries->size())) - 1;
            if (stream != 0 && last >= extras[i].firstSeq)
                streams.bind(1, out_.traceId()).bind(2, d.index).bind(3, extras[i].firstSeq).bind(4, last).bind(5, stream).run();
            i = j;
        }
    }

    const auto& frames = stacks_.frames();
    for (std::size_t i = 0; i < frames.size(); ++i)
        tables.addFrame(static_cast<std::int64_t>(i), {frames[i].name, frames[i].filename, frames[i].line});
    const auto& stacks = stacks_.stacks();
    for (std::size_t s = 0; s < stacks.size(); ++s)
        for (std::size_t depth = 0; depth < stacks[s].size(); ++depth)
            tables.addStackFrame(static_cast<std::int64_t>(s), static_cast<std::int64_t>(depth), stacks[s][depth]);

    for (const Annotation& a : data_.annotations) {
        SnapshotAnnotationRow row;
        row.cudaDevice = a.cudaDevice;
        row.timeUs = a.timeUs;
        row.stage = a.stage;
        row.name = a.name;
        for (const Device& d : devices_)
            if (a.cudaDevice && d.number == *a.cudaDevice) row.device = d.index;
        // Placed on the time axis when the trace has times (earlier ones at its start).
        std::int64_t deltaUs = 0, t = 0;
        if (timed_ && a.timeUs && !__builtin_sub_overflow(*a.timeUs, t0Us_, &deltaUs) &&
            !__builtin_mul_overflow(deltaUs, std::int64_t{1000}, &t))
            row.t = t < 0 ? 0 : t;
        tables.addAnnotation(row);
    }

    for (const auto& [key, value] : data_.settings) out_.setMetadata(key, value);
    out_.setMetadata(metadata_key::kSnapshotLayout, data_.legacySegmentList ? "segment list (2022)" : "dict");
    out_.setMetadata(metadata_key::kSnapshotTime, timed_ ? "time_us" : "entry number");
    if (pickleProtocol_) out_.setMetadata(metadata_key::kSnapshotPickleProtocol, std::to_string(pickleProtocol_));
    if (!data_.otherTopLevelKeys.empty()) {
        std::string keys;
        for (const std::string& k : data_.otherTopLevelKeys) keys += (keys.empty() ? "" : ", ") + k;
        out_.setMetadata(metadata_key::kSnapshotUnreadKeys, keys);
    }
}

} // namespace memviz::snapshot

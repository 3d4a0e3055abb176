// SPDX-License-Identifier: MIT
#pragma once
// Turns SnapshotData into a trace: one memviz device per CUDA device (and one for pinned host
// memory), its "allocated" series (primary: the summary's peak and final bytes) and
// "reserved" series, one event per trace entry in time order, and the snapshot tables
// (allocations with their lifetimes, final segments and blocks, frames, OOMs, annotations,
// the replay figures). Times are ns from the earliest entry's time_us, or entry numbers
// when the file has no times.
#include <atomic>
#include <cstdint>
#include <span>
#include <string>
#include <utility>
#include <vector>

#include "formats/snapshot/SnapshotData.h"
#include "formats/snapshot/SnapshotReplay.h"
#include "formats/snapshot/SnapshotRows.h"
#include "formats/snapshot/StackTable.h"

namespace memviz {
class Progress;
class SnapshotTablesWriter;
class TraceWriter;
} // namespace memviz

namespace memviz::snapshot {

class SnapshotBuilder {
public:
    SnapshotBuilder(TraceWriter& out, const StackTable& stacks, const SnapshotData& data);
    ~SnapshotBuilder();

    void build(const Progress& progress);
    // Replays made while the entries were read (SnapshotStream::takeReplays): a device whose
    // entries one of them replayed whole finishes it instead of replaying them again.
    void useReplays(std::vector<ReplayedEntries> replays) { replays_ = std::move(replays); }
    // How many entries build() took replayed from them.
    std::uint64_t entriesReplayedWhileReading() const { return replayedEarly_; }
    // Metadata the importer adds (e.g. the pickle protocol).
    void setPickleProtocol(int protocol) { pickleProtocol_ = protocol; }

private:
    struct Device {
        std::int64_t number = 0; // CUDA device, or kHostDevice
        std::uint16_t index = 0; // memviz device
        const EntryVector* entries = nullptr;
        const std::vector<ExtrasRun>* extras = nullptr;
        std::vector<const Segment*> segments;
        // Per entry, ns from t0, only when time_us goes backwards somewhere (each entry is then
        // drawn at the latest time so far); else timeOf() computes it from the entry.
        std::vector<std::int64_t> clampedTimes;
        DeviceReplay replay;
        std::int64_t allocatedSeries = 0, reservedSeries = 0;
        std::int64_t reserved = 0;
        std::size_t next = 0;     // next entry to emit
        std::int64_t nextTime = 0; // its time
        // While emitting: allocated bytes after the entry emitted last, the next allocation in
        // the replay's order, and the next free entry's place in the replay's frees. The replay
        // checked the allocated sums for overflow; added up again in another order here,
        // intermediate values may wrap (core/WrappingMath.h) and the result is exact.
        std::int64_t allocated = 0;
        std::size_t nextAllocation = 0;
        std::size_t nextFree = 0;
        std::vector<Event> chunk; // this device's entries, for snapshot_entry_chunks
        std::int64_t chunks = 0;
        std::size_t nextImplicit = 0; // into replay.implicitFrees
        std::int64_t outOfOrder = 0;
    };
    void createDevices();
    DeviceReplay replay(const Device& d);
    void computeTimes();
    // The entry's time on the axis: ns from t0, or its number when the trace is not timed.
    std::int64_t timeOf(const Device& d, std::size_t k) const;
    std::int32_t allocationFreedNext(Device& d);
    void startSeries();
    // Only jobs for the writer's worker and rows for its buffers: no statement on the connection
    // from this thread while the allocation chunks are written beside it.
    void emitEvents(SnapshotTablesWriter& tables, const Progress& progress);
    void emitEntry(Device& d, std::size_t k, SnapshotTablesWriter& tables);
    void postEntryChunk(Device& d, std::int64_t firstSeq, SnapshotTablesWriter& tables);
    std::int32_t opOf(std::int32_t stack);
    // The allocations table's chunks, on a thread of their own while the events are emitted
    // (issue 33: the emit keeps one core busy and the writer's worker only part of the other);
    // returns early once `stop` is set.
    void writeAllocationChunks(SnapshotTablesWriter& tables, const std::atomic<bool>& stop);
    void writeTables(SnapshotTablesWriter& tables); // the other tables, after the events
    void postAllocationChunk(std::uint16_t device, std::int64_t chunk, std::span<const SnapshotAllocationRow> rows,
                             SnapshotTablesWriter& tables);
    void writeWarnings(const Device& d);
    std::string where(const Device& d, std::int64_t seq) const;

    TraceWriter& out_;
    const StackTable& stacks_;
    const SnapshotData& data_;
    std::vector<Device> devices_;
    std::vector<std::int32_t> opOfStack_;
    std::vector<ReplayedEntries> replays_;
    std::uint64_t replayedEarly_ = 0;
    bool timed_ = false;
    int pickleProtocol_ = 0;
    std::int64_t t0Us_ = 0;
};

} // namespace memviz::snapshot

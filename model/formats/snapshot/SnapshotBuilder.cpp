// SPDX-License-Identifier: MIT
#include "formats/snapshot/SnapshotBuilder.h"

#include <algorithm>
#include <future>
#include <limits>

#include "core/Errors.h"
#include "core/PreviewSink.h"
#include "core/Progress.h"
#include "core/WrappingMath.h"
#include "formats/FormatIds.h"
#include "core/ImportStages.h"
#include "store/ChunkCodec.h"
#include "formats/snapshot/SnapshotTablesWriter.h"
#include "store/TraceWriter.h"

namespace memviz::snapshot {

namespace {

constexpr std::size_t kEntriesPerChunk = kEventsPerChunk; // their blobs are shared with the event chunks

EventKind eventKindOf(Action a) {
    switch (a) {
    case Action::Alloc: return EventKind::Alloc;
    case Action::FreeCompleted:
    case Action::Free: return EventKind::Free;
    case Action::FreeRequested: return EventKind::FreeRequested;
    case Action::SegmentAlloc: return EventKind::SegmentAlloc;
    case Action::SegmentFree: return EventKind::SegmentFree;
    case Action::SegmentMap: return EventKind::SegmentMap;
    case Action::SegmentUnmap: return EventKind::SegmentUnmap;
    case Action::Oom: return EventKind::Oom;
    default: return EventKind::Marker;
    }
}

} // namespace

SnapshotBuilder::SnapshotBuilder(TraceWriter& out, const StackTable& stacks, const SnapshotData& data)
    : out_(out), stacks_(stacks), data_(data), opOfStack_(stacks.stacks().size(), -2) {}

SnapshotBuilder::~SnapshotBuilder() = default;

std::string SnapshotBuilder::where(const Device& d, std::int64_t seq) const {
    const std::string list = d.number == kHostDevice ? "host_traces" : "device_traces[" + std::to_string(d.number) + "]";
    return seq < 0 ? deviceName(d.number) : list + "[" + std::to_string(seq) + "]";
}

void SnapshotBuilder::createDevices() {
    static const TraceEntries kNoEntries;
    std::vector<std::int64_t> numbers;
    for (const auto& [number, trace] : data_.traces)
        if (!trace.entries.empty()) numbers.push_back(number);
    for (const Segment& s : data_.segments) numbers.push_back(s.cudaDevice);
    // CUDA devices in order, pinned host memory last.
    std::sort(numbers.begin(), numbers.end(),
              [](std::int64_t a, std::int64_t b) { return (a == kHostDevice) != (b == kHostDevice) ? b == kHostDevice : a < b; });
    numbers.erase(std::unique(numbers.begin(), numbers.end()), numbers.end());
    devices_.resize(numbers.size());
    for (std::size_t i = 0; i < numbers.size(); ++i) {
        Device& d = devices_[i];
        d.number = numbers[i];
        d.index = out_.device(deviceName(d.number));
        const TraceEntries* trace = &kNoEntries;
        for (const auto& [number, t] : data_.traces)
            if (number == d.number && !t.entries.empty()) trace = &t;
        d.entries = &trace->entries;
        d.extras = &trace->extras;
        for (const Segment& s : data_.segments)
            if (s.cudaDevice == d.number) d.segments.push_back(&s);
    }
}

// Real time when every entry has time_us, else entry numbers (and the axis says so).
void SnapshotBuilder::computeTimes() {
    std::int64_t withTime = 0, total = 0;
    t0Us_ = std::numeric_limits<std::int64_t>::max();
    for (const Device& d : devices_)
        for (const Entry& e : *d.entries) {
            ++total;
            if (e.hasTime) {
                ++withTime;
                t0Us_ = std::min(t0Us_, e.timeUs);
            }
        }
    timed_ = total > 0 && withTime == total;
    if (withTime > 0 && !timed_)
        out_.warn("missing_time", "device_traces",
                  "entries without time_us among entries with it; the timeline uses entry numbers instead of time");
    if (!timed_) {
        out_.setTimeKind("index");
        t0Us_ = 0;
    } else {
        std::int64_t epochNs = 0;
        if (__builtin_mul_overflow(t0Us_, std::int64_t{1000}, &epochNs))
            throw ImportError("snapshot: time_us " + std::to_string(t0Us_) + " is out of range");
        out_.setEpochNs(epochNs);
    }
    if (!timed_) return; // entry numbers: nothing to check
    for (Device& d : devices_) {
        const auto& entries = *d.entries;
        std::int64_t last = 0;
        for (std::size_t k = 0; k < entries.size(); ++k) {
            std::int64_t deltaUs = 0, t = 0;
            if (__builtin_sub_overflow(entries[k].timeUs, t0Us_, &deltaUs) ||
                __builtin_mul_overflow(deltaUs, std::int64_t{1000}, &t))
                throw ImportError(where(d, static_cast<std::int64_t>(k)) + ": time_us " + std::to_string(entries[k].timeUs) +
                                  " is out of range");
            if (t < last) {
                if (!d.outOfOrder++)
                    out_.warn("out_of_order_time", where(d, static_cast<std::int64_t>(k)),
                              "entries with a time_us earlier than the entry before them; drawn at the earlier "
                              "entry's time");
                t = last;
            }
            last = t;
        }
        if (!d.outOfOrder) continue;
        // Rare: keep the clamped times rather than work them out again for every lookup.
        d.clampedTimes.resize(entries.size());
        last = 0;
        for (std::size_t k = 0; k < entries.size(); ++k)
            d.clampedTimes[k] = last = std::max(last, (entries[k].timeUs - t0Us_) * 1000);
    }
}

std::int64_t SnapshotBuilder::timeOf(const Device& d, std::size_t k) const {
    if (!d.clampedTimes.empty()) return d.clampedTimes[k];
    if (!timed_) return static_cast<std::int64_t>(k);
    return ((*d.entries)[k].timeUs - t0Us_) * 1000; // computeTimes() checked that it fits
}

std::int32_t SnapshotBuilder::opOf(std::int32_t stack) {
    if (stack < 0 || static_cast<std::size_t>(stack) >= opOfStack_.size()) return kNoName;
    std::int32_t& op = opOfStack_[static_cast<std::size_t>(stack)];
    if (op == -2) {
        const std::string site = stacks_.siteOf(stack);
        op = site.empty() ? kNoName : out_.name(NameKind::Op, site);
    }
    return op;
}

// The allocation that the free entry emitted now closes, as the replay matched it (entries are
// emitted in order); -1 for a free of an address already freed.
std::int32_t SnapshotBuilder::allocationFreedNext(Device& d) {
    const DeviceReplay& r = d.replay;
    if (d.nextFree >= r.frees.size()) return -1; // not reached: one per free entry
    const std::int32_t id = r.frees[d.nextFree++];
    // One made by the replay at this free (its alloc is not in the trace) comes next in the
    // replay's order of allocations.
    if (id >= 0 && r.allocations[static_cast<std::size_t>(id)].origin == Origin::BeforeTraceFreed)
        d.nextAllocation = static_cast<std::size_t>(id) + 1;
    return id;
}

void SnapshotBuilder::emitEntry(Device& d, std::size_t k, SnapshotTablesWriter& tables) {
    const Entry& en = (*d.entries)[k];
    const auto seq = static_cast<std::int64_t>(k);
    const std::int64_t t = d.nextTime;
    DeviceReplay& r = d.replay;

    // An alloc at a live address: the allocation it displaces counts as freed here.
    while (d.nextImplicit < r.implicitFrees.size() && r.implicitFrees[d.nextImplicit].first == seq) {
        const Allocation& old = r.allocations[static_cast<std::size_t>(r.implicitFrees[d.nextImplicit++].second)];
        d.allocated = wrappingSub(d.allocated, old.requestedSize);
        Event f;
        f.timeNs = t;
        f.address = old.address;
        f.size = old.requestedSize;
        f.op = opOf(old.stack);
        f.stack = old.stack;
        f.device = d.index;
        f.kind = EventKind::Free;
        f.flags = kFlagImplicit;
        out_.addEvent(f);
        out_.warn("alloc_over_live", where(d, seq),
                  "allocs at an address that was still allocated; the earlier allocation counts as freed there");
    }

    Event e;
    e.timeNs = t;
    e.address = en.addr;
    e.size = en.size;
    e.stack = en.stack;
    e.device = d.index;
    e.kind = eventKindOf(en.action);
    e.op = opOf(en.stack);
    if (e.kind == EventKind::Alloc) {
        // The replay made one allocation per alloc entry, in entry order.
        const auto id = static_cast<std::int32_t>(d.nextAllocation++);
        const Allocation& a = r.allocations[static_cast<std::size_t>(id)];
        d.allocated = wrappingAdd(d.allocated, a.requestedSize);
    } else if (e.kind == EventKind::Free) {
        const std::int32_t id = allocationFreedNext(d);
        if (id < 0) {
            e.size = 0;
            e.flags = kFlagUnmatched;
            out_.warn("double_free", where(d, seq), "frees of an address that was already freed; ignored");
        } else {
            const Allocation& a = r.allocations[static_cast<std::size_t>(id)];
            e.size = a.requestedSize;
            d.allocated = wrappingSub(d.allocated, a.requestedSize);
            if (a.origin == Origin::Traced) {
                e.op = opOf(a.stack); // memory per site: a free goes where its allocation came from
                if (en.size != a.requestedSize)
                    out_.warn("free_size_mismatch", where(d, seq),
                              "frees whose size differs from their alloc's; the alloc's size is used");
            } else {
                e.op = kNoName; // its alloc was not recorded
                e.flags = kFlagPreexisting;
            }
        }
    }
    out_.addEvent(e);
    if (e.kind == EventKind::Alloc || e.kind == EventKind::Free) out_.addPoint(d.allocatedSeries, t, d.allocated);
    if (e.kind >= EventKind::SegmentAlloc && e.kind <= EventKind::SegmentUnmap) {
        d.reserved += (e.kind == EventKind::SegmentAlloc || e.kind == EventKind::SegmentMap) ? en.size : -en.size;
        out_.addPoint(d.reservedSeries, t, d.reserved);
    }
    if (en.action == Action::Oom) {
        SnapshotOomRow oom;
        oom.device = d.index;
        oom.seq = seq;
        oom.t = t;
        oom.requestedBytes = en.size;
        if (en.hasAddr) oom.deviceFreeBytes = en.addr;
        oom.stack = en.stack;
        out_.post([&tables, oom] { tables.addOom(oom); });
    }
    d.chunk.push_back(e);
    if (d.chunk.size() == kEntriesPerChunk) {
        postEntryChunk(d, seq + 1 - static_cast<std::int64_t>(d.chunk.size()), tables);
        d.chunk.clear();
    }
}

// Posted to the writer's worker, which meanwhile writes the events' chunks and the series
// (issue 33: the whole build used to run on one core). With one device and no inferred frees
// the entries are the events, chunk for chunk: the row names the event chunk flushed a moment
// ago instead of holding the same events again (a third of a 1 GB snapshot's store).
void SnapshotBuilder::postEntryChunk(Device& d, std::int64_t firstSeq, SnapshotTablesWriter& tables) {
    const std::optional<std::int64_t> same = out_.eventChunkHolding(d.chunk);
    out_.post([&tables, row = SnapshotTablesWriter::encodeEntryChunk(d.index, d.chunks++, firstSeq, d.chunk, same)] {
        tables.addEntryChunk(row);
    });
}

// Every device's entries merged by time (ties: device order), so the event stream is in time order.
// Before the allocation chunks' thread starts: creating a series writes on the connection from
// this thread (TraceWriter::createSeries), which the writer's worker then must not be using.
void SnapshotBuilder::startSeries() {
    for (Device& d : devices_) {
        d.allocatedSeries = out_.createSeries(d.index, series_name::kAllocated, "bytes", true);
        d.reservedSeries = out_.createSeries(d.index, series_name::kReserved, "bytes", false);
        d.reserved = d.replay.reservedInitial;
        d.allocated = d.replay.baselineBytes;
        if (!d.entries->empty()) d.nextTime = timeOf(d, 0);
        // Before the first entry: what was allocated before the trace, and the reserved memory.
        out_.addPoint(d.allocatedSeries, 0, d.replay.baselineBytes);
        out_.addPoint(d.reservedSeries, 0, d.reserved);
    }
}

void SnapshotBuilder::emitEvents(SnapshotTablesWriter& tables, const Progress& progress) {
    std::int64_t emitted = 0;
    for (;;) {
        Device* best = nullptr;
        for (Device& d : devices_)
            if (d.next < d.entries->size() && (!best || d.nextTime < best->nextTime)) best = &d;
        if (!best) break;
        emitEntry(*best, best->next++, tables);
        if (best->next < best->entries->size()) best->nextTime = timeOf(*best, best->next);
        if ((++emitted & 0xffff) == 0) progress.checkCancelled();
    }
    for (Device& d : devices_) {
        if (!d.chunk.empty()) postEntryChunk(d, static_cast<std::int64_t>(d.entries->size() - d.chunk.size()), tables);
        d.chunk.clear();
        d.chunk.shrink_to_fit();
    }
}

void SnapshotBuilder::writeWarnings(const Device& d) {
    const DeviceReplay& r = d.replay;
    const std::string at = deviceName(d.number);
    for (std::int64_t i = 0; i < r.baselineBlocks && !d.entries->empty(); ++i)
        out_.warn("pre_existing_allocations", at,
                  "allocations whose alloc is not in the trace (recording began after them, or its ring buffer of "
                  "max_entries dropped the oldest entries); allocated bytes start from them as a baseline");
    if (r.reservedInitial < 0)
        out_.warn("reserved_inconsistent", at,
                  "the segments at the end hold less memory than the trace's segment entries imply; reserved bytes "
                  "go below zero");
    if (r.unmatchedLive)
        out_.warn("alive_not_in_segments", at,
                  std::to_string(r.unmatchedLive) +
                      " allocations alive at the end of the trace are not allocated blocks of the final segments");
    if (r.sizeMismatches)
        out_.warn("block_size_mismatch", at,
                  std::to_string(r.sizeMismatches) +
                      " allocations alive at the end have another requested size than their block in the segments");
    if (r.endBlocksFreedInTrace)
        out_.warn("freed_block_alive", at,
                  std::to_string(r.endBlocksFreedInTrace) +
                      " allocated blocks at the end were last seen freed in the trace; counted as pre-existing");
}

DeviceReplay SnapshotBuilder::replay(const Device& d) {
    for (ReplayedEntries& r : replays_)
        if (r.entries == d.entries->data() && r.count == d.entries->size() && r.count) {
            r.entries = nullptr; // used once
            replayedEarly_ += r.count;
            return std::move(r.pass).finish(*d.extras, d.segments, data_.unknownActions.size());
        }
    return replayDevice(*d.entries, *d.extras, d.segments, data_.unknownActions.size());
}

void SnapshotBuilder::build(const Progress& progress) {
    createDevices();
    computeTimes();
    for (Device& d : devices_) {
        d.replay = replay(d);
        progress.checkCancelled();
        // The live preview's exact bases (SnapshotPreview): from here its curve is the timeline's.
        if (PreviewSink* preview = previewSink(); preview && !d.entries->empty())
            preview->preview({deviceName(d.number),
                              timed_ ? PreviewAxis::TimeUs : PreviewAxis::Index,
                              d.replay.baselineBytes,
                              d.replay.reservedInitial,
                              {}});
    }
    importStage("replayed");
    // The writer's worker keeps compressing and writing while the events are emitted; jobs that
    // use `tables` must be done before it goes, also when an error unwinds.
    SnapshotTablesWriter tables(out_.databaseForJobs(), out_.traceId());
    struct Drain {
        TraceWriter& out;
        ~Drain() { out.drainQuietly(); }
    } drain{out_};
    out_.encodeEventChunksHere(); // the worker has the series, the inserts and the tables' rows
    startSeries();
    {
        // The allocations table's chunks on a thread of their own while this one emits the events
        // (as the profiler's calls table): leaving early (an error, a cancel) stops it and waits
        // for it, before `drain` empties the queue.
        std::atomic<bool> stop{false};
        std::future<void> allocations = std::async(std::launch::async, [&] { writeAllocationChunks(tables, stop); });
        struct StopOnLeave {
            std::atomic<bool>& stop;
            ~StopOnLeave() { stop = true; }
        } stopOnLeave{stop};
        emitEvents(tables, progress);
        importStage("events emitted");
        allocations.get(); // rethrows its error
    }
    importStage("allocations written");
    writeTables(tables);
    for (const Device& d : devices_) writeWarnings(d);
    importStage("tables written");
}

} // namespace memviz::snapshot

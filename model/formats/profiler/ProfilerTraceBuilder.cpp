// SPDX-License-Identifier: MIT
#include "formats/profiler/ProfilerTraceBuilder.h"

#include <algorithm>
#include <array>
#include <atomic>
#include <future>
#include <map>
#include <numeric>
#include <optional>
#include <unordered_map>

#include "core/Errors.h"
#include "core/ImportStages.h"
#include "core/Progress.h"
#include "formats/FormatIds.h"
#include "formats/profiler/ProfilerCallTable.h"
#include "formats/profiler/ProfilerStacks.h"
#include "formats/profiler/ReportedTotals.h"
#include "formats/profiler/RecordLayouts.h"
#include "store/RecordChunks.h"
#include "store/RowAppender.h"
#include "store/TraceWriter.h"
#include "trace/AddressMap.h"

namespace memviz {

CallTree buildCallTree(std::span<const OpRecord> ops) {
    CallTree tree;
    tree.parent.assign(ops.size(), -1);
    tree.depth.assign(ops.size(), 0);
    HugeVector<std::int32_t> order(ops.size());
    std::iota(order.begin(), order.end(), 0);
    std::sort(order.begin(), order.end(), [&](std::int32_t a, std::int32_t b) {
        const OpRecord& x = ops[static_cast<std::size_t>(a)];
        const OpRecord& y = ops[static_cast<std::size_t>(b)];
        if (x.thread != y.thread) return x.thread < y.thread;
        if (x.t != y.t) return x.t < y.t;
        return x.t + x.dur > y.t + y.dur; // longer first: the parent before its children
    });
    std::vector<std::int32_t> open;
    std::int32_t thread = -1;
    for (std::int32_t i : order) {
        const OpRecord& e = ops[static_cast<std::size_t>(i)];
        if (e.thread != thread) {
            open.clear();
            thread = e.thread;
        }
        const std::int64_t end = e.t + e.dur;
        while (!open.empty()) {
            const OpRecord& p = ops[static_cast<std::size_t>(open.back())];
            const std::int64_t parentEnd = p.t + p.dur;
            if (e.t >= parentEnd || end > parentEnd) {
                if (e.t < parentEnd && end > parentEnd) ++tree.overlaps; // starts inside, ends outside
                open.pop_back();
            } else {
                tree.parent[static_cast<std::size_t>(i)] = open.back();
                tree.depth[static_cast<std::size_t>(i)] = tree.depth[static_cast<std::size_t>(open.back())] + 1;
                break;
            }
        }
        open.push_back(i);
    }
    return tree;
}

namespace {

struct DeviceKey {
    std::int32_t type, id;
    auto operator<=>(const DeviceKey&) const = default;
};

std::string deviceLabel(const DeviceKey& k) {
    if (k.type == 0) return "cpu";
    return deviceTypeName(k.type) + (k.id >= 0 ? ":" + std::to_string(k.id) : "");
}

// The innermost call open at a time on each thread, for times visited in increasing order.
class InnermostCall {
public:
    // Thread indexes are the writer's: small and dense, so vectors indexed by them.
    InnermostCall(std::span<const OpRecord> ops, const CallTree& tree) : ops_(ops), tree_(tree) {
        std::vector<std::size_t> counts; // each list sized once (huge pages, no copies of growing)
        for (const OpRecord& o : ops) {
            const auto thread = static_cast<std::size_t>(o.thread);
            if (thread >= counts.size()) counts.resize(thread + 1, 0);
            ++counts[thread];
        }
        byThread_.resize(counts.size());
        for (std::size_t t = 0; t < counts.size(); ++t) byThread_[t].reserve(counts[t]);
        for (std::size_t i = 0; i < ops.size(); ++i)
            byThread_[static_cast<std::size_t>(ops[i].thread)].push_back(static_cast<std::int32_t>(i));
        for (auto& list : byThread_)
            std::sort(list.begin(), list.end(), [&](std::int32_t a, std::int32_t b) {
                return ops[static_cast<std::size_t>(a)].t < ops[static_cast<std::size_t>(b)].t;
            });
        cursors_.resize(byThread_.size());
    }
    // Call index, or -1.
    std::int32_t at(std::int32_t thread, std::int64_t t) {
        if (thread < 0 || static_cast<std::size_t>(thread) >= byThread_.size()) return -1;
        const auto& list = byThread_[static_cast<std::size_t>(thread)];
        if (list.empty()) return -1;
        Cursor& c = cursors_[static_cast<std::size_t>(thread)];
        while (c.next < list.size() && ops_[static_cast<std::size_t>(list[c.next])].t <= t) c.current = list[c.next++];
        // Climb from the latest started call to the innermost one still open at t.
        std::int32_t k = c.current;
        while (k >= 0 && ops_[static_cast<std::size_t>(k)].t + ops_[static_cast<std::size_t>(k)].dur < t)
            k = tree_.parent[static_cast<std::size_t>(k)];
        return k;
    }

private:
    struct Cursor {
        std::size_t next = 0;
        std::int32_t current = -1;
    };
    std::span<const OpRecord> ops_;
    const CallTree& tree_;
    std::vector<HugeVector<std::int32_t>> byThread_;
    std::vector<Cursor> cursors_;
};

// The per-operator totals' tables. Made before the events are written: a statement is
// prepared while the writer's worker is idle (TraceWriter::appender waits for it).
struct OperatorTables {
    RowAppender& callCounts;
    RowAppender& memory;
    explicit OperatorTables(TraceWriter& out)
        : callCounts(out.appender("INSERT INTO profiler_op_calls(trace_id, name, shapes, calls) VALUES (?,?,?,?)", 4)),
          memory(out.appender("INSERT INTO profiler_op_memory(trace_id, name, shapes, device, bytes, self_bytes, allocs, "
                              "alloc_bytes, self_allocs, self_alloc_bytes) VALUES (?,?,?,?,?,?,?,?,?,?)",
                              10)) {}
};

// The calls' record chunks, which the call thread encoded, and the per-operator totals it computed.
void writeCalls(TraceWriter& out, CallTable table, std::size_t nDevices, OperatorTables& tables) {
    namespace cr = call_records;
    writeRecordChunks(out, cr::kKind, table.columns, std::move(table.chunks));
    RowAppender& callCounts = tables.callCounts;
    RowAppender& memory = tables.memory;
    for (const CallTable::Total& total : table.totals) {
        callCounts.add({out.traceId(), total.name, total.shapes, total.calls});
        for (std::size_t d = 0; d < nDevices; ++d) {
            const std::int64_t* v = total.sums.data() + d * cr::kMemoryValues;
            if (std::any_of(v, v + cr::kMemoryValues, [](std::int64_t x) { return x != 0; }))
                memory.add({out.traceId(), total.name, total.shapes, static_cast<std::int64_t>(d), v[0], v[1], v[2], v[3],
                            v[4], v[5]});
        }
    }
}

} // namespace

void buildProfilerTrace(ScannedTrace& s, TraceWriter& out, const Progress& progress) {
    sortStablyUnlessSorted(s.memory, [](const MemoryRecord& a, const MemoryRecord& b) { return a.t < b.t; });

    // Devices in a stable order: cpu first, then by type and id.
    std::map<DeviceKey, std::uint16_t> devices;
    std::map<DeviceKey, bool> hasTotals; // every event of the device carries the totals
    {
        // Runs of events on one device: its map entries are looked up when the device changes.
        std::optional<DeviceKey> last;
        bool* totals = nullptr;
        for (const MemoryRecord& m : s.memory) {
            const DeviceKey key{m.deviceType, m.deviceType == 0 ? -1 : m.deviceId};
            if (key != last) {
                devices.emplace(key, 0);
                totals = &hasTotals.emplace(key, true).first->second;
                last = key;
            }
            *totals = *totals && m.hasTotals;
        }
    }
    std::vector<std::int64_t> allocatedSeries, reservedSeries;
    for (auto& [key, index] : devices) {
        index = out.device(deviceLabel(key));
        allocatedSeries.resize(index + 1u, -1);
        reservedSeries.resize(index + 1u, -1);
        allocatedSeries[index] = out.createSeries(index, series_name::kAllocated, "bytes", true);
        // A running sum starts at 0 by definition; reported totals start at their first value
        // (memory allocated before the profiler started is already in them).
        if (!hasTotals[key]) out.addPoint(allocatedSeries[index], 0, 0);
        else reservedSeries[index] = out.createSeries(index, series_name::kReserved, "bytes", false);
    }
    // Each memory record's device index (looked up when the device changes), and what the
    // totals of the devices that have them say (ReportedTotals.h), over the events the line
    // follows.
    std::vector<std::uint16_t> deviceOf(s.memory.size());
    std::vector<ReportedTotalsCounter> counters(allocatedSeries.size());
    {
        std::optional<DeviceKey> lastKey;
        std::uint16_t lastIndex = 0;
        for (std::size_t i = 0; i < s.memory.size(); ++i) {
            const MemoryRecord& m = s.memory[i];
            const DeviceKey key{m.deviceType, m.deviceType == 0 ? -1 : m.deviceId};
            if (key != lastKey) {
                lastIndex = devices.at(key);
                lastKey = key;
            }
            deviceOf[i] = lastIndex;
            if (reservedSeries[lastIndex] >= 0 && !m.outOfMemory) counters[lastIndex].add(m);
        }
    }
    std::vector<ReportedTotals> reported(allocatedSeries.size());
    for (const auto& [key, index] : devices) {
        const bool totals = reservedSeries[index] >= 0;
        if (totals) reported[index] = counters[index].result();
        const ReportedTotals& r = reported[index];
        if (r.disagreeing > 0)
            out.warn("totals_of_another_allocator", "t=" + std::to_string(r.firstDisagreeingT) + " ns",
                     "[memory] events of " + deviceLabel(key) +
                         " whose Total Allocated does not continue the device's total (another allocator reports on "
                         "the same device); the allocated line is the running sum of Bytes plus the total most events "
                         "agree with, and their Total Reserved is not drawn",
                     r.disagreeing);
        out.setMetadata(metadata_key::allocatedSource(deviceLabel(key)),
                        !totals               ? metadata_key::kAllocatedFromRunningSum
                        : r.disagreeing > 0 ? metadata_key::kAllocatedFromMostTotals
                                              : metadata_key::kAllocatedFromTotals);
    }
    counters = {};
    out.setMetadata(metadata_key::kProfilerFamily, s.family);
    out.warn("bad_memory_event", s.firstSkipLocation, "[memory] events with missing or non-numeric args, skipped",
             s.skippedMemory);

    importStage("devices");
    const CallTree tree = buildCallTree(s.ops);
    out.warn("overlapping_ops", "",
             "op calls that start inside another call on their thread but end after it; "
             "they are not counted as its children",
             tree.overlaps);
    progress.checkCancelled();

    // The calls' rows on a thread of their own while this one writes the events; it reads
    // the records and the tree, which stay as they are until it is done. Leaving early (an
    // error, a cancel) stops it and waits for it.
    const std::size_t nDevices = allocatedSeries.size();
    const std::int32_t memoryName = out.name(NameKind::Op, "[memory]");
    const std::int32_t noShapes = out.name(NameKind::Shapes, "");
    std::atomic<bool> stopCalls{false};
    std::future<CallTable> callTable = std::async(std::launch::async, [&] {
        return computeCallTable(s, tree, deviceOf, nDevices, memoryName, noShapes, progress, stopCalls);
    });
    struct StopOnLeave {
        std::atomic<bool>& stop;
        ~StopOnLeave() { stop = true; }
    } stopOnLeave{stopCalls};

    OperatorTables operatorTables(out);

    // Events, series and allocation lifetimes, in time order.
    InnermostCall innermost(s.ops, tree);
    ProfilerStacks stacks(s, tree.parent, out);
    if (stacks.enabled()) out.setMetadata(metadata_key::kProfilerCallsWithStack, std::to_string(s.callsWithStack));
    std::vector<std::int64_t> running(allocatedSeries.size(), 0);
    namespace ar = allocation_records;
    // Allocation lifetimes, row-major (ar::Columns each), in the order of their keys as they
    // come: a row is added at its allocation (its free time filled in at the free) or at a free
    // of memory allocated before the trace, and the events come in time order. So no sort
    // afterwards (it was a sixth of the builder's time on the 240 MB trace), and rows of one
    // key are in the order of their events in the file.
    HugeVector<std::int64_t> allocations;
    // At most one a memory event: reserved, so that growing by doubling does not touch its size
    // again in copies. Pages come only as rows are written; refused (address space), it grows.
    try {
        allocations.reserve(s.memory.size() * ar::Columns);
    } catch (const std::bad_alloc&) {
    }
    // Per device: the live allocations' rows by address.
    std::vector<AddressMap<std::size_t>> live(allocatedSeries.size());
    const auto addLifetime = [&](std::int64_t device, std::int64_t address, std::int64_t size, std::int64_t tAlloc,
                                 std::int64_t tFree, std::int64_t op, std::int64_t thread) {
        const std::size_t row = allocations.size() / ar::Columns;
        allocations.insert(allocations.end(),
                            {tAlloc != RowAppender::kNull ? tAlloc : tFree, tAlloc, tFree, device, address, size, op, thread});
        return row;
    };
    const auto freedAt = [&](std::size_t row, std::int64_t t) { allocations[row * ar::Columns + ar::FreeTime] = t; };
    std::int64_t processed = 0;
    for (std::size_t i = 0; i < s.memory.size(); ++i) {
        const MemoryRecord& m = s.memory[i];
        const std::uint16_t d = deviceOf[i];
        const std::int32_t call = innermost.at(m.thread, m.t);
        const std::int32_t op = call >= 0 ? s.ops[static_cast<std::size_t>(call)].name : kNoName;
        if (m.outOfMemory) {
            out.warn("out_of_memory", "t=" + std::to_string(m.t) + " ns", "[OutOfMemory] events: an allocation failed");
            continue;
        }
        Event e;
        e.timeNs = m.t;
        e.device = d;
        e.address = m.address;
        e.size = m.bytes < 0 ? -m.bytes : m.bytes;
        e.kind = m.bytes >= 0 ? EventKind::Alloc : EventKind::Free;
        e.op = op;
        e.stack = stacks.ofCall(call);
        if (m.hasAddress) {
            if (e.kind == EventKind::Alloc) {
                const std::size_t row = addLifetime(d, m.address, e.size, m.t, RowAppender::kNull, op, m.thread);
                if (const auto replaced = live[d].put(m.address, row)) freedAt(*replaced, m.t);
            } else if (const auto row = live[d].take(m.address)) {
                freedAt(*row, m.t);
            } else {
                e.flags = kFlagUnmatched;
                out.warn("unmatched_free", "t=" + std::to_string(m.t) + " ns",
                         "frees of memory allocated before the profiler started (no allocation in the trace)");
                addLifetime(d, m.address, e.size, RowAppender::kNull, m.t, op, m.thread);
            }
        }
        out.addEvent(e);
        running[d] = wrappingAdd(running[d], m.bytes);
        // With totals: the running sum plus what most events' totals say was there before
        // (ReportedTotals.h); that is each event's Total Allocated when one allocator reports.
        const bool totals = reservedSeries[d] >= 0;
        out.addPoint(allocatedSeries[d], m.t, totals ? wrappingAdd(running[d], reported[d].offset) : running[d]);
        if (totals && reported[d].agrees(running[d], m.totalAllocated)) out.addPoint(reservedSeries[d], m.t, m.totalReserved);
        if ((++processed & 0xffff) == 0) progress.checkCancelled();
    }
    importStage("events written");
    // Allocations still live at the end of the trace keep no free time.
    live = {};
    // Encoded here: this thread has nothing else to do now, the writer's worker has the events'
    // and the series' chunks to finish.
    writeRecordChunks(out, ar::kKind, ar::Columns,
                      encodeRecordChunks(ar::Columns, allocations, [](std::span<const std::int64_t> r) {
                          return std::max({r[ar::Key], r[ar::AllocTime], r[ar::FreeTime]});
                      }));
    allocations = {};
    progress.checkCancelled();

    importStage("lifetimes written");
    writeCalls(out, callTable.get(), nDevices, operatorTables);
    importStage("calls written");
}

} // namespace memviz

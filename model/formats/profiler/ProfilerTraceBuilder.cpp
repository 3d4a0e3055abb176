// SPDX-License-Identifier: MIT
#include "formats/profiler/ProfilerTraceBuilder.h"

#include <algorithm>
#include <array>
#include <map>
#include <numeric>
#include <optional>
#include <unordered_map>

#include "core/Errors.h"
#include "core/Progress.h"
#include "formats/FormatIds.h"
#include "formats/profiler/ProfilerStacks.h"
#include "formats/profiler/ReportedTotals.h"
#include "formats/profiler/RecordLayouts.h"
#include "store/RecordChunks.h"
#include "store/RowAppender.h"
#include "store/TraceWriter.h"
#include "trace/AddressMap.h"

namespace memviz {

CallTree buildCallTree(const std::vector<OpRecord>& ops) {
    CallTree tree;
    tree.parent.assign(ops.size(), -1);
    tree.depth.assign(ops.size(), 0);
    std::vector<std::int32_t> order(ops.size());
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

// Traces are mostly in time order already: checking is one pass, sorting millions is seconds.
template <class Vector, class Less>
void sortStablyUnlessSorted(Vector& v, Less less) {
    if (!std::is_sorted(v.begin(), v.end(), less)) std::stable_sort(v.begin(), v.end(), less);
}

struct DeviceKey {
    std::int32_t type, id;
    auto operator<=>(const DeviceKey&) const = default;
};

// Per device: memory records in time order with running sums, so the memory inside any
// interval is two binary searches away (key_averages: records with start in [ts, ts + dur]).
struct DeviceTimeline {
    std::vector<std::int64_t> t;
    std::vector<std::int64_t> bytes;      // prefix sums, size n + 1
    std::vector<std::int64_t> allocs;     // prefix count of positive records
    std::vector<std::int64_t> allocBytes; // prefix sum of positive Bytes

    void add(std::int64_t time, std::int64_t b) {
        if (t.empty()) bytes = {0}, allocs = {0}, allocBytes = {0};
        t.push_back(time);
        bytes.push_back(bytes.back() + b);
        allocs.push_back(allocs.back() + (b > 0 ? 1 : 0));
        allocBytes.push_back(allocBytes.back() + (b > 0 ? b : 0));
    }
    struct Usage {
        std::int64_t bytes = 0, allocs = 0, allocBytes = 0;
        bool any() const { return bytes || allocs || allocBytes; }
    };
    Usage within(std::int64_t begin, std::int64_t end) const {
        if (t.empty()) return {};
        const auto lo = static_cast<std::size_t>(std::lower_bound(t.begin(), t.end(), begin) - t.begin());
        const auto hi = static_cast<std::size_t>(std::upper_bound(t.begin(), t.end(), end) - t.begin());
        if (hi <= lo) return {};
        return {bytes[hi] - bytes[lo], allocs[hi] - allocs[lo], allocBytes[hi] - allocBytes[lo]};
    }
};

std::string deviceLabel(const DeviceKey& k) {
    if (k.type == 0) return "cpu";
    return deviceTypeName(k.type) + (k.id >= 0 ? ":" + std::to_string(k.id) : "");
}

// The innermost call open at a time on each thread, for times visited in increasing order.
class InnermostCall {
public:
    // Thread indexes are the writer's: small and dense, so vectors indexed by them.
    InnermostCall(const std::vector<OpRecord>& ops, const CallTree& tree) : ops_(ops), tree_(tree) {
        for (std::size_t i = 0; i < ops.size(); ++i) {
            const auto thread = static_cast<std::size_t>(ops[i].thread);
            if (thread >= byThread_.size()) byThread_.resize(thread + 1);
            byThread_[thread].push_back(static_cast<std::int32_t>(i));
        }
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
    const std::vector<OpRecord>& ops_;
    const CallTree& tree_;
    std::vector<std::vector<std::int32_t>> byThread_;
    std::vector<Cursor> cursors_;
};

struct PendingAllocation {
    std::int64_t size = 0, t = 0;
    std::int32_t op = kNoName, thread = 0;
};

// Calls sorted by start as record chunks (parents renumbered), and the per-operator totals.
[[noreturn]] void tooManyBytes(const std::string& path) {
    throw ImportError(path + ": the operators' memory sums pass 2^63 - 1 bytes (a damaged file?)");
}

void writeCalls(TraceWriter& out, std::vector<std::int64_t>& calls, std::size_t columns, std::size_t nDevices,
                const std::string& path) {
    namespace cr = call_records;
    const std::size_t n = calls.size() / columns;
    std::vector<std::size_t> order(n);
    std::iota(order.begin(), order.end(), std::size_t{0});
    sortStablyUnlessSorted(
        order, [&](std::size_t a, std::size_t b) { return calls[a * columns + cr::Start] < calls[b * columns + cr::Start]; });
    std::vector<std::int64_t> position(n);
    for (std::size_t k = 0; k < n; ++k) position[order[k]] = static_cast<std::int64_t>(k);
    RecordChunkWriter writer(out, cr::kKind, columns,
                             [](std::span<const std::int64_t> r) { return r[cr::Start] + r[cr::Duration]; });
    // Per (name, shapes): calls and memory sums; hashed while adding, written in key order.
    struct PairHash {
        std::size_t operator()(const std::pair<std::int64_t, std::int64_t>& k) const noexcept {
            return static_cast<std::size_t>((static_cast<std::uint64_t>(k.first) * 0x9E3779B97F4A7C15ull) ^ static_cast<std::uint64_t>(k.second));
        }
    };
    std::unordered_map<std::pair<std::int64_t, std::int64_t>, std::pair<std::int64_t, std::vector<std::int64_t>>, PairHash> totals;
    std::vector<std::int64_t> row(columns);
    for (std::size_t k = 0; k < n; ++k) {
        const std::int64_t* src = calls.data() + order[k] * columns;
        std::copy(src, src + columns, row.begin());
        if (row[cr::Parent] >= 0) row[cr::Parent] = position[static_cast<std::size_t>(row[cr::Parent])];
        writer.add(row);
        auto& [count, sums] = totals[{row[cr::Name], row[cr::Shapes]}];
        ++count;
        sums.resize(nDevices * cr::kMemoryValues, 0);
        for (std::size_t v = 0; v < sums.size(); ++v)
            if (__builtin_add_overflow(sums[v], row[cr::FirstMemory + v], &sums[v])) tooManyBytes(path);
    }
    writer.finish();
    RowAppender& callCounts = out.appender("INSERT INTO profiler_op_calls(trace_id, name, shapes, calls) VALUES (?,?,?,?)", 4);
    RowAppender& memory = out.appender(
        "INSERT INTO profiler_op_memory(trace_id, name, shapes, device, bytes, self_bytes, allocs, alloc_bytes, self_allocs, "
        "self_alloc_bytes) VALUES (?,?,?,?,?,?,?,?,?,?)",
        10);
    std::vector<const std::pair<const std::pair<std::int64_t, std::int64_t>, std::pair<std::int64_t, std::vector<std::int64_t>>>*> sorted;
    sorted.reserve(totals.size());
    for (const auto& entry : totals) sorted.push_back(&entry);
    std::sort(sorted.begin(), sorted.end(), [](const auto* a, const auto* b) { return a->first < b->first; });
    for (const auto* entry : sorted) {
        const auto& [key, value] = *entry;
        callCounts.add({out.traceId(), key.first, key.second, value.first});
        for (std::size_t d = 0; d < nDevices; ++d) {
            const std::int64_t* v = value.second.data() + d * cr::kMemoryValues;
            if (std::any_of(v, v + cr::kMemoryValues, [](std::int64_t x) { return x != 0; }))
                memory.add(
                    {out.traceId(), key.first, key.second, static_cast<std::int64_t>(d), v[0], v[1], v[2], v[3], v[4], v[5]});
        }
    }
}

} // namespace

void buildProfilerTrace(ScannedTrace& s, TraceWriter& out, const Progress& progress) {
    sortStablyUnlessSorted(s.memory, [](const MemoryRecord& a, const MemoryRecord& b) { return a.t < b.t; });

    // Devices in a stable order: cpu first, then by type and id.
    std::map<DeviceKey, std::uint16_t> devices;
    std::map<DeviceKey, bool> hasTotals; // every event of the device carries the totals
    std::map<DeviceKey, std::vector<const MemoryRecord*>> drawn; // the events the line follows
    {
        // Runs of events on one device: its map entries are looked up when the device changes.
        std::optional<DeviceKey> last;
        bool* totals = nullptr;
        std::vector<const MemoryRecord*>* line = nullptr;
        for (const MemoryRecord& m : s.memory) {
            const DeviceKey key{m.deviceType, m.deviceType == 0 ? -1 : m.deviceId};
            if (key != last) {
                devices.emplace(key, 0);
                totals = &hasTotals.emplace(key, true).first->second;
                line = &drawn[key];
                last = key;
            }
            *totals = *totals && m.hasTotals;
            if (!m.outOfMemory) line->push_back(&m);
        }
    }
    std::vector<std::int64_t> allocatedSeries, reservedSeries;
    std::vector<ReportedTotals> reported;
    for (auto& [key, index] : devices) {
        index = out.device(deviceLabel(key));
        const bool totals = hasTotals[key];
        allocatedSeries.resize(index + 1u, -1);
        reservedSeries.resize(index + 1u, -1);
        reported.resize(index + 1u);
        allocatedSeries[index] = out.createSeries(index, series_name::kAllocated, "bytes", true);
        // A running sum starts at 0 by definition; reported totals start at their first value
        // (memory allocated before the profiler started is already in them).
        if (!totals) out.addPoint(allocatedSeries[index], 0, 0);
        else reservedSeries[index] = out.createSeries(index, series_name::kReserved, "bytes", false);
        if (totals) reported[index] = reportedTotals(drawn[key]);
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
    drawn.clear();
    // A memory record's device index (the last one's is remembered).
    std::optional<DeviceKey> lastKey;
    std::uint16_t lastIndex = 0;
    const auto deviceOf = [&](const MemoryRecord& m) {
        const DeviceKey key{m.deviceType, m.deviceType == 0 ? -1 : m.deviceId};
        if (key != lastKey) {
            lastIndex = devices.at(key);
            lastKey = key;
        }
        return lastIndex;
    };
    out.setMetadata(metadata_key::kProfilerFamily, s.family);
    out.warn("bad_memory_event", s.firstSkipLocation, "[memory] events with missing or non-numeric args, skipped",
             s.skippedMemory);

    const CallTree tree = buildCallTree(s.ops);
    out.warn("overlapping_ops", "",
             "op calls that start inside another call on their thread but end after it; "
             "they are not counted as its children",
             tree.overlaps);
    progress.checkCancelled();

    // Events, series and allocation lifetimes, in time order.
    InnermostCall innermost(s.ops, tree);
    ProfilerStacks stacks(s, tree.parent, out);
    if (stacks.enabled()) out.setMetadata(metadata_key::kProfilerCallsWithStack, std::to_string(s.callsWithStack));
    std::vector<std::int64_t> running(allocatedSeries.size(), 0);
    std::vector<AddressMap<PendingAllocation>> live(allocatedSeries.size());
    namespace ar = allocation_records;
    std::vector<std::array<std::int64_t, ar::Columns>> allocations;
    const auto lifetime = [&](std::int64_t device, std::int64_t address, std::int64_t size, std::int64_t tAlloc,
                              std::int64_t tFree, std::int64_t op, std::int64_t thread) {
        allocations.push_back({tAlloc != RowAppender::kNull ? tAlloc : tFree, tAlloc, tFree, device, address, size, op, thread});
    };
    std::vector<DeviceTimeline> timelines(allocatedSeries.size());
    std::int64_t processed = 0;
    for (const MemoryRecord& m : s.memory) {
        const std::uint16_t d = deviceOf(m);
        const std::int32_t call = innermost.at(m.thread, m.t);
        const std::int32_t op = call >= 0 ? s.ops[static_cast<std::size_t>(call)].name : kNoName;
        if (m.outOfMemory) {
            out.warn("out_of_memory", "t=" + std::to_string(m.t) + " ns", "[OutOfMemory] events: an allocation failed");
            continue;
        }
        timelines[d].add(m.t, m.bytes);
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
                if (const auto replaced = live[d].put(m.address, {e.size, m.t, op, m.thread}))
                    lifetime(d, m.address, replaced->size, replaced->t, m.t, replaced->op, replaced->thread);
            } else if (const auto a = live[d].take(m.address)) {
                lifetime(d, m.address, a->size, a->t, m.t, a->op, a->thread);
            } else {
                e.flags = kFlagUnmatched;
                out.warn("unmatched_free", "t=" + std::to_string(m.t) + " ns",
                         "frees of memory allocated before the profiler started (no allocation in the trace)");
                lifetime(d, m.address, e.size, RowAppender::kNull, m.t, op, m.thread);
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
    // Allocations still live at the end of the trace.
    for (std::size_t d = 0; d < live.size(); ++d)
        live[d].forEach([&](std::int64_t address, const PendingAllocation& a) {
            lifetime(static_cast<std::int64_t>(d), address, a.size, a.t, RowAppender::kNull, a.op, a.thread);
        });
    // Lifetimes come out at their frees: in allocation order, stably, by (key, index) pairs
    // (sorting the 64-byte rows themselves moves several times more memory, and comparing
    // indexes through the rows misses the cache at every step).
    std::vector<std::pair<std::int64_t, std::uint32_t>> byKey(allocations.size());
    for (std::size_t i = 0; i < allocations.size(); ++i) byKey[i] = {allocations[i][ar::Key], static_cast<std::uint32_t>(i)};
    if (!std::is_sorted(byKey.begin(), byKey.end())) std::sort(byKey.begin(), byKey.end());
    RecordChunkWriter lifetimes(out, ar::kKind, ar::Columns, [](std::span<const std::int64_t> r) {
        return std::max({r[ar::Key], r[ar::AllocTime], r[ar::FreeTime]});
    });
    for (const auto& [key, i] : byKey) lifetimes.add(allocations[i]);
    lifetimes.finish();
    progress.checkCancelled();

    // Every call with its memory per device, inclusive and self (key_averages semantics).
    const std::size_t nDevices = timelines.size();
    std::vector<DeviceTimeline::Usage> inclusive(s.ops.size() * nDevices);
    for (std::size_t i = 0; i < s.ops.size(); ++i)
        for (std::size_t d = 0; d < nDevices; ++d)
            inclusive[i * nDevices + d] = timelines[d].within(s.ops[i].t, s.ops[i].t + s.ops[i].dur);
    std::vector<DeviceTimeline::Usage> self = inclusive;
    for (std::size_t i = 0; i < s.ops.size(); ++i) {
        const std::int32_t p = tree.parent[i];
        if (p < 0) continue;
        for (std::size_t d = 0; d < nDevices; ++d) {
            auto& ps = self[static_cast<std::size_t>(p) * nDevices + d];
            const auto& ci = inclusive[i * nDevices + d];
            // Overlapping children (counted in tree.overlaps) can take the same bytes twice.
            if (__builtin_sub_overflow(ps.bytes, ci.bytes, &ps.bytes) ||
                __builtin_sub_overflow(ps.allocs, ci.allocs, &ps.allocs) ||
                __builtin_sub_overflow(ps.allocBytes, ci.allocBytes, &ps.allocBytes))
                tooManyBytes(s.path);
        }
    }
    namespace cr = call_records;
    const std::size_t columns = cr::columns(nDevices);
    // Memory events inside no call are their own "[memory]" calls, as in key_averages.
    std::vector<std::pair<std::int64_t, std::int64_t>> merged;
    {
        std::vector<std::pair<std::int64_t, std::int64_t>> spans;
        spans.reserve(s.ops.size());
        for (const OpRecord& o : s.ops) spans.emplace_back(o.t, o.t + o.dur);
        sortStablyUnlessSorted(spans, std::less<>{});
        for (const auto& sp : spans) {
            if (!merged.empty() && sp.first <= merged.back().second)
                merged.back().second = std::max(merged.back().second, sp.second);
            else merged.push_back(sp);
        }
    }
    std::vector<std::size_t> outside; // indexes into s.memory
    for (std::size_t i = 0, span = 0; i < s.memory.size(); ++i) {
        const MemoryRecord& m = s.memory[i];
        if (m.outOfMemory) continue;
        while (span < merged.size() && merged[span].second < m.t) ++span;
        if (span < merged.size() && merged[span].first <= m.t) continue; // inside a call
        outside.push_back(i);
    }
    // Sized once: the calls of a large trace are hundreds of MB, a reallocation copies them.
    std::vector<std::int64_t> calls;
    calls.reserve((s.ops.size() + outside.size()) * columns);
    const auto addCall = [&](const OpRecord& o, std::int64_t parent, std::int64_t depth, auto&& memory) {
        calls.insert(calls.end(), {o.t, o.dur, o.thread, o.name, o.shapes, parent, depth});
        for (std::size_t d = 0; d < nDevices; ++d) {
            const auto [in, se] = memory(d);
            calls.insert(calls.end(), {in.bytes, se.bytes, in.allocs, in.allocBytes, se.allocs, se.allocBytes});
        }
    };
    for (std::size_t i = 0; i < s.ops.size(); ++i)
        addCall(s.ops[i], tree.parent[i], tree.depth[i], [&](std::size_t d) {
            return std::pair{inclusive[i * nDevices + d], self[i * nDevices + d]};
        });

    const OpRecord memoryCall{0, 0, 0, out.name(NameKind::Op, "[memory]"), out.name(NameKind::Shapes, "")};
    for (const std::size_t i : outside) {
        const MemoryRecord& m = s.memory[i];
        const auto d = static_cast<std::size_t>(deviceOf(m));
        OpRecord call = memoryCall;
        call.t = m.t;
        call.thread = m.thread;
        const std::int64_t positive = m.bytes > 0 ? 1 : 0;
        const DeviceTimeline::Usage usage{m.bytes, positive, positive * m.bytes};
        addCall(call, -1, 0, [&](std::size_t dev) {
            return dev == d ? std::pair{usage, usage} : std::pair{DeviceTimeline::Usage{}, DeviceTimeline::Usage{}};
        });
    }
    writeCalls(out, calls, columns, nDevices, s.path);
}

} // namespace memviz

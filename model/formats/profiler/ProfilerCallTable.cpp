// SPDX-License-Identifier: MIT
#include "formats/profiler/ProfilerCallTable.h"

#include <algorithm>
#include <unordered_map>

#include "core/Errors.h"
#include "core/Progress.h"
#include "formats/profiler/RecordLayouts.h"
#include "store/RecordChunks.h"

namespace memviz {

namespace {

[[noreturn]] void tooManyBytes(const std::string& path) {
    throw ImportError(path + ": the operators' memory sums pass 2^63 - 1 bytes (a damaged file?)");
}

// Per device: memory records in time order with running sums, so the memory inside any
// interval is two binary searches away (key_averages: records with start in [ts, ts + dur]).
struct DeviceTimeline {
    using Values = HugeVector<std::int64_t>;
    Values t;
    Values bytes;      // prefix sums, size n + 1
    Values allocs;     // prefix count of positive records
    Values allocBytes; // prefix sum of positive Bytes

    // Refused (address space): the arrays grow as they go.
    void reserve(std::size_t n) {
        try {
            t.reserve(n);
            for (Values* v : {&bytes, &allocs, &allocBytes}) v->reserve(n + 1);
        } catch (const std::bad_alloc&) {
        }
    }
    void add(std::int64_t time, std::int64_t b) {
        if (t.empty()) bytes = {0}, allocs = {0}, allocBytes = {0};
        t.push_back(time);
        bytes.push_back(bytes.back() + b);
        allocs.push_back(allocs.back() + (b > 0 ? 1 : 0));
        allocBytes.push_back(allocBytes.back() + (b > 0 ? b : 0));
    }
    struct Usage {
        std::int64_t bytes = 0, allocs = 0, allocBytes = 0;
    };
    Usage within(std::int64_t begin, std::int64_t end) const {
        if (t.empty()) return {};
        const auto lo = static_cast<std::size_t>(std::lower_bound(t.begin(), t.end(), begin) - t.begin());
        const auto hi = static_cast<std::size_t>(std::upper_bound(t.begin(), t.end(), end) - t.begin());
        if (hi <= lo) return {};
        return {bytes[hi] - bytes[lo], allocs[hi] - allocs[lo], allocBytes[hi] - allocBytes[lo]};
    }
};

// Checked every 65,536 steps: the builder left early, or the user cancelled.
class Stopper {
public:
    Stopper(const Progress& progress, const std::atomic<bool>& stop) : progress_(progress), stop_(stop) {}
    void every(std::size_t i) const {
        if ((i & 0xffff) == 0 && (stop_.load(std::memory_order_relaxed) || progress_.cancelRequested())) throw Cancelled();
    }

private:
    const Progress& progress_;
    const std::atomic<bool>& stop_;
};

// Per (name, shapes): calls and memory sums; hashed while adding, returned in key order.
std::vector<CallTable::Total> operatorTotals(std::span<const std::int64_t> calls, std::size_t columns, std::size_t devices,
                                             const std::string& path, const Stopper& stopper) {
    namespace cr = call_records;
    struct PairHash {
        std::size_t operator()(const std::pair<std::int64_t, std::int64_t>& k) const noexcept {
            return static_cast<std::size_t>((static_cast<std::uint64_t>(k.first) * 0x9E3779B97F4A7C15ull) ^ static_cast<std::uint64_t>(k.second));
        }
    };
    std::unordered_map<std::pair<std::int64_t, std::int64_t>, std::size_t, PairHash> index;
    std::vector<CallTable::Total> totals;
    const std::size_t n = calls.size() / columns;
    for (std::size_t k = 0; k < n; ++k) {
        stopper.every(k);
        const std::int64_t* row = calls.data() + k * columns;
        const auto [it, fresh] = index.try_emplace({row[cr::Name], row[cr::Shapes]}, totals.size());
        if (fresh) totals.push_back({row[cr::Name], row[cr::Shapes], 0, std::vector<std::int64_t>(devices * cr::kMemoryValues, 0)});
        CallTable::Total& total = totals[it->second];
        ++total.calls;
        for (std::size_t v = 0; v < total.sums.size(); ++v)
            if (__builtin_add_overflow(total.sums[v], row[cr::FirstMemory + v], &total.sums[v])) tooManyBytes(path);
    }
    std::sort(totals.begin(), totals.end(),
              [](const CallTable::Total& a, const CallTable::Total& b) { return std::pair{a.name, a.shapes} < std::pair{b.name, b.shapes}; });
    return totals;
}

} // namespace

CallTable computeCallTable(const ScannedTrace& s, const CallTree& tree, const std::vector<std::uint16_t>& deviceOf,
                           std::size_t nDevices, std::int32_t memoryName, std::int32_t noShapes, const Progress& progress,
                           const std::atomic<bool>& stop) {
    const Stopper stopper(progress, stop);
    std::vector<DeviceTimeline> timelines(nDevices);
    {
        // Sized once: grown by doubling, their copies touched as much memory again.
        std::vector<std::size_t> counts(nDevices, 0);
        for (std::size_t i = 0; i < s.memory.size(); ++i) counts[deviceOf[i]] += s.memory[i].outOfMemory ? 0 : 1;
        for (std::size_t d = 0; d < nDevices; ++d) timelines[d].reserve(counts[d]);
    }
    for (std::size_t i = 0; i < s.memory.size(); ++i) {
        stopper.every(i);
        if (!s.memory[i].outOfMemory) timelines[deviceOf[i]].add(s.memory[i].t, s.memory[i].bytes);
    }

    // Memory events inside no call are their own "[memory]" calls, as in key_averages.
    HugeVector<std::size_t> outside; // indexes into s.memory
    {
        HugeVector<std::pair<std::int64_t, std::int64_t>> spans;
        spans.reserve(s.ops.size());
        for (const OpRecord& o : s.ops) spans.emplace_back(o.t, o.t + o.dur);
        sortStablyUnlessSorted(spans, std::less<>{});
        // The spans merged where they overlap, in place.
        std::size_t merged = 0;
        for (const auto& sp : spans) {
            if (merged > 0 && sp.first <= spans[merged - 1].second)
                spans[merged - 1].second = std::max(spans[merged - 1].second, sp.second);
            else spans[merged++] = sp;
        }
        for (std::size_t i = 0, span = 0; i < s.memory.size(); ++i) {
            const MemoryRecord& m = s.memory[i];
            if (m.outOfMemory) continue;
            while (span < merged && spans[span].second < m.t) ++span;
            if (span < merged && spans[span].first <= m.t) continue; // inside a call
            outside.push_back(i);
        }
    }

    // Every call with its memory per device, inclusive and self (key_averages semantics),
    // written straight into its row: row i is call i until the rows are sorted. Self starts as
    // inclusive, and each call's inclusive is then taken from its parent's self (no arrays of
    // their own: 16 MB of fresh pages on the 240 MB trace, issue 33).
    namespace cr = call_records;
    CallTable table;
    table.columns = cr::columns(nDevices);
    const std::size_t columns = table.columns;
    // Row-major, in huge pages (core/HugePages.h): the 240 MB trace's are 35 MB. Sized once: the
    // calls of a large trace are hundreds of MB, a reallocation copies them.
    HugeVector<std::int64_t> calls;
    calls.reserve((s.ops.size() + outside.size()) * columns);
    const auto addCall = [&](const OpRecord& o, std::int64_t parent, std::int64_t depth, auto&& usage) {
        calls.insert(calls.end(), {o.t, o.dur, o.thread, o.name, o.shapes, parent, depth});
        for (std::size_t d = 0; d < nDevices; ++d) {
            const DeviceTimeline::Usage u = usage(d);
            calls.insert(calls.end(), {u.bytes, u.bytes, u.allocs, u.allocBytes, u.allocs, u.allocBytes});
        }
    };
    for (std::size_t i = 0; i < s.ops.size(); ++i) {
        stopper.every(i);
        const OpRecord& o = s.ops[i];
        addCall(o, tree.parent[i], tree.depth[i], [&](std::size_t d) { return timelines[d].within(o.t, o.t + o.dur); });
    }
    timelines.clear();
    // The memory columns of a row, in the order addCall writes them.
    enum : std::size_t { InBytes, SelfBytes, InAllocs, InAllocBytes, SelfAllocs, SelfAllocBytes };
    for (std::size_t i = 0; i < s.ops.size(); ++i) {
        const std::int32_t p = tree.parent[i];
        if (p < 0) continue;
        const std::int64_t* child = calls.data() + i * columns + cr::FirstMemory;
        std::int64_t* parent = calls.data() + static_cast<std::size_t>(p) * columns + cr::FirstMemory;
        for (std::size_t d = 0; d < nDevices; ++d, child += cr::kMemoryValues, parent += cr::kMemoryValues) {
            // Overlapping children (counted in tree.overlaps) can take the same bytes twice.
            if (__builtin_sub_overflow(parent[SelfBytes], child[InBytes], &parent[SelfBytes]) ||
                __builtin_sub_overflow(parent[SelfAllocs], child[InAllocs], &parent[SelfAllocs]) ||
                __builtin_sub_overflow(parent[SelfAllocBytes], child[InAllocBytes], &parent[SelfAllocBytes]))
                tooManyBytes(s.path);
        }
    }
    const OpRecord memoryCall{0, 0, 0, memoryName, noShapes};
    for (const std::size_t i : outside) {
        const MemoryRecord& m = s.memory[i];
        const std::size_t d = deviceOf[i];
        OpRecord call = memoryCall;
        call.t = m.t;
        call.thread = m.thread;
        const std::int64_t positive = m.bytes > 0 ? 1 : 0;
        const DeviceTimeline::Usage usage{m.bytes, positive, positive * m.bytes};
        addCall(call, -1, 0, [&](std::size_t dev) { return dev == d ? usage : DeviceTimeline::Usage{}; });
    }
    outside = {};
    stopper.every(0);

    // The rows sorted by start, in place, and their parents renumbered to their new places.
    const std::size_t n = calls.size() / columns;
    const RowKeys order = sortRowsByColumn(std::span<std::int64_t>(calls), columns, cr::Start);
    stopper.every(0);
    if (!order.empty()) {
        HugeVector<std::int64_t> position(n);
        for (std::size_t k = 0; k < n; ++k) position[order[k].second] = static_cast<std::int64_t>(k);
        for (std::size_t k = 0; k < n; ++k) {
            std::int64_t& parent = calls[k * columns + cr::Parent];
            if (parent >= 0) parent = position[static_cast<std::size_t>(parent)];
        }
    }
    table.totals = operatorTotals(calls, columns, nDevices, s.path, stopper);
    stopper.every(0);
    table.chunks = encodeRecordChunks(columns, calls, [](std::span<const std::int64_t> r) { return r[cr::Start] + r[cr::Duration]; });
    return table;
}

} // namespace memviz

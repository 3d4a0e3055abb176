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

// Per (name, shapes): calls and memory sums of the rows added; hashed while adding, returned
// in key order.
class OperatorTotals {
public:
    OperatorTotals(std::size_t devices, const std::string& path) : devices_(devices), path_(path) {}
    void add(const std::int64_t* row) {
        namespace cr = call_records;
        const auto [it, fresh] = index_.try_emplace({row[cr::Name], row[cr::Shapes]}, totals_.size());
        if (fresh) totals_.push_back({row[cr::Name], row[cr::Shapes], 0, std::vector<std::int64_t>(devices_ * cr::kMemoryValues, 0)});
        CallTable::Total& total = totals_[it->second];
        ++total.calls;
        for (std::size_t v = 0; v < total.sums.size(); ++v)
            if (__builtin_add_overflow(total.sums[v], row[cr::FirstMemory + v], &total.sums[v])) tooManyBytes(path_);
    }
    std::vector<CallTable::Total> take() {
        std::sort(totals_.begin(), totals_.end(), [](const CallTable::Total& a, const CallTable::Total& b) {
            return std::pair{a.name, a.shapes} < std::pair{b.name, b.shapes};
        });
        return std::move(totals_);
    }

private:
    struct PairHash {
        std::size_t operator()(const std::pair<std::int64_t, std::int64_t>& k) const noexcept {
            return static_cast<std::size_t>((static_cast<std::uint64_t>(k.first) * 0x9E3779B97F4A7C15ull) ^ static_cast<std::uint64_t>(k.second));
        }
    };
    std::size_t devices_;
    const std::string& path_;
    std::unordered_map<std::pair<std::int64_t, std::int64_t>, std::size_t, PairHash> index_;
    std::vector<CallTable::Total> totals_;
};

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

    // Every op call's memory per device, inclusive and self (key_averages semantics), as its
    // row's memory columns will hold them. Self starts as inclusive, and each call's inclusive
    // is then taken from its parent's self.
    namespace cr = call_records;
    const std::size_t nOps = s.ops.size();
    const std::size_t values = nDevices * cr::kMemoryValues;
    enum : std::size_t { InBytes, SelfBytes, InAllocs, InAllocBytes, SelfAllocs, SelfAllocBytes };
    HugeVector<std::int64_t> memory(nOps * values);
    for (std::size_t i = 0; i < nOps; ++i) {
        stopper.every(i);
        const OpRecord& o = s.ops[i];
        std::int64_t* v = memory.data() + i * values;
        for (std::size_t d = 0; d < nDevices; ++d, v += cr::kMemoryValues) {
            const DeviceTimeline::Usage u = timelines[d].within(o.t, o.t + o.dur);
            v[InBytes] = v[SelfBytes] = u.bytes;
            v[InAllocs] = v[SelfAllocs] = u.allocs;
            v[InAllocBytes] = v[SelfAllocBytes] = u.allocBytes;
        }
    }
    timelines.clear();
    for (std::size_t i = 0; i < nOps; ++i) {
        const std::int32_t p = tree.parent[i];
        if (p < 0) continue;
        const std::int64_t* child = memory.data() + i * values;
        std::int64_t* parent = memory.data() + static_cast<std::size_t>(p) * values;
        for (std::size_t d = 0; d < nDevices; ++d, child += cr::kMemoryValues, parent += cr::kMemoryValues) {
            // Overlapping children (counted in tree.overlaps) can take the same bytes twice.
            if (__builtin_sub_overflow(parent[SelfBytes], child[InBytes], &parent[SelfBytes]) ||
                __builtin_sub_overflow(parent[SelfAllocs], child[InAllocs], &parent[SelfAllocs]) ||
                __builtin_sub_overflow(parent[SelfAllocBytes], child[InAllocBytes], &parent[SelfAllocBytes]))
                tooManyBytes(s.path);
        }
    }
    stopper.every(0);

    // The rows in order of start, stably as if sorted: the op calls in file order before the
    // "[memory]" calls of the same start. Traces list their calls in time order as a rule:
    // then the ops are taken as they are; else their (start, index) pairs are sorted.
    HugeVector<std::pair<std::int64_t, std::size_t>> opOrder;
    if (!std::is_sorted(s.ops.begin(), s.ops.end(), [](const OpRecord& a, const OpRecord& b) { return a.t < b.t; })) {
        opOrder.resize(nOps);
        for (std::size_t i = 0; i < nOps; ++i) opOrder[i] = {s.ops[i].t, i};
        std::sort(opOrder.begin(), opOrder.end()); // ties by index: stable
    }
    const auto opAt = [&](std::size_t j) { return opOrder.empty() ? j : opOrder[j].second; };
    // Visits the rows in that order: (op index, -1) or (nOps, index into outside).
    const auto inOrder = [&](auto&& visit) {
        std::size_t j = 0, k = 0;
        while (j < nOps || k < outside.size()) {
            if (k == outside.size() || (j < nOps && s.ops[opAt(j)].t <= s.memory[outside[k]].t)) visit(opAt(j++), std::size_t{0});
            else visit(nOps, k++);
        }
    };
    // Each op's place in that order, for its children's Parent.
    HugeVector<std::int64_t> position(nOps);
    {
        std::int64_t k = 0;
        inOrder([&](std::size_t op, std::size_t) {
            if (op < nOps) position[op] = k;
            ++k;
        });
    }

    // The rows, a chunk's worth at a time in one buffer, encoded here (store/RecordChunks.h):
    // the whole table (the 240 MB trace's is 35 MB) was never needed at once, and on a virtual
    // machine a fresh page costs up to 2 ms per MiB (issue 33).
    CallTable table;
    table.columns = cr::columns(nDevices);
    const std::size_t columns = table.columns;
    OperatorTotals totals(nDevices, s.path);
    HugeVector<std::int64_t> rows;
    rows.reserve(std::min(nOps + outside.size(), kRecordsPerChunk) * columns);
    const auto reach = [](std::span<const std::int64_t> r) { return r[cr::Start] + r[cr::Duration]; };
    const auto flush = [&] {
        if (rows.empty()) return;
        appendRecordChunk(table.chunks, columns, rows, reach);
        rows.clear();
    };
    std::size_t emitted = 0;
    inOrder([&](std::size_t op, std::size_t k) {
        stopper.every(emitted++);
        const std::size_t at = rows.size();
        if (op < nOps) {
            const OpRecord& o = s.ops[op];
            const std::int32_t p = tree.parent[op];
            rows.insert(rows.end(), {o.t, o.dur, o.thread, o.name, o.shapes, p >= 0 ? position[static_cast<std::size_t>(p)] : -1,
                                     tree.depth[op]});
            rows.insert(rows.end(), memory.begin() + static_cast<std::ptrdiff_t>(op * values),
                        memory.begin() + static_cast<std::ptrdiff_t>((op + 1) * values));
        } else {
            // Memory events inside no call are their own "[memory]" calls, as in key_averages.
            const MemoryRecord& m = s.memory[outside[k]];
            const std::size_t d = deviceOf[outside[k]];
            const std::int64_t positive = m.bytes > 0 ? 1 : 0;
            rows.insert(rows.end(), {m.t, 0, m.thread, memoryName, noShapes, -1, 0});
            for (std::size_t dev = 0; dev < nDevices; ++dev) {
                if (dev == d) rows.insert(rows.end(), {m.bytes, m.bytes, positive, positive * m.bytes, positive, positive * m.bytes});
                else rows.insert(rows.end(), cr::kMemoryValues, 0);
            }
        }
        totals.add(rows.data() + at);
        if (rows.size() == kRecordsPerChunk * columns) flush();
    });
    flush();
    table.totals = totals.take();
    return table;
}

} // namespace memviz

// SPDX-License-Identifier: MIT
#include "store/OpsQuery.h"

#include <algorithm>
#include <unordered_map>

#include "core/Progress.h"
#include "store/ChunkCodec.h"
#include "store/Database.h"

namespace memviz {

namespace {

std::unordered_map<std::int64_t, std::string> opNames(Database& db, std::int64_t traceId) {
    Statement s(db, "SELECT id, name FROM names WHERE trace_id = ? AND kind = ?");
    s.bind(1, traceId).bind(2, static_cast<int>(NameKind::Op));
    std::unordered_map<std::int64_t, std::string> names;
    while (s.step()) names.emplace(s.int64(0), s.text(1));
    return names;
}

void accumulate(OpRow& row, std::int64_t allocs, std::int64_t frees, std::int64_t bytesAllocated, std::int64_t bytesFreed,
                std::int64_t largest) {
    row.allocs += allocs;
    row.frees += frees;
    row.bytesAllocated += bytesAllocated;
    row.bytesFreed += bytesFreed;
    row.largestAlloc = std::max(row.largestAlloc, largest);
}

std::unordered_map<std::int64_t, OpRow> wholeTrace(Database& db, std::int64_t traceId, const OpsFilter& f) {
    Statement s(db, "SELECT op, allocs, frees, bytes_allocated, bytes_freed, largest_alloc FROM op_stats "
                    "WHERE trace_id = ?1 AND (?2 IS NULL OR device = ?2)");
    s.bind(1, traceId);
    if (f.device) s.bind(2, *f.device);
    else s.bindNull(2);
    std::unordered_map<std::int64_t, OpRow> rows;
    while (s.step()) accumulate(rows[s.int64(0)], s.int64(1), s.int64(2), s.int64(3), s.int64(4), s.int64(5));
    return rows;
}

std::unordered_map<std::int64_t, OpRow> window(Database& db, std::int64_t traceId, const OpsFilter& f, const Progress* progress) {
    const TimeRange r = *f.range;
    Statement s(db, "SELECT t_first, data FROM event_chunks WHERE trace_id = ? AND t_last >= ? ORDER BY t_last, chunk");
    s.bind(1, traceId).bind(2, r.begin);
    std::unordered_map<std::int64_t, OpRow> rows;
    while (s.step()) {
        if (s.int64(0) > r.end) break;
        if (progress) progress->checkCancelled();
        for (const Event& e : decodeEvents(s.blob(1))) {
            if (!r.contains(e.timeNs) || (f.device && e.device != *f.device)) continue;
            OpRow& row = rows[e.op];
            if (e.kind == EventKind::Alloc) accumulate(row, 1, 0, e.size, 0, e.size);
            else if (e.kind == EventKind::Free && !(e.flags & kFlagUnmatched)) accumulate(row, 0, 1, 0, e.size, 0);
        }
    }
    return rows;
}

} // namespace

std::vector<OpRow> queryOps(Database& db, std::int64_t traceId, const OpsFilter& filter, const Progress* progress) {
    auto rows = filter.range ? window(db, traceId, filter, progress) : wholeTrace(db, traceId, filter);
    const auto names = opNames(db, traceId);
    std::vector<OpRow> out;
    out.reserve(rows.size());
    for (auto& [op, row] : rows) {
        const auto it = names.find(op);
        row.name = it != names.end() ? it->second : kNoOpName;
        out.push_back(std::move(row));
    }
    std::sort(out.begin(), out.end(), [](const OpRow& a, const OpRow& b) {
        return a.bytesAllocated != b.bytesAllocated ? a.bytesAllocated > b.bytesAllocated : a.name < b.name;
    });
    return out;
}

} // namespace memviz

// SPDX-License-Identifier: MIT
#include "formats/profiler/ProfilerQuery.h"

#include <algorithm>
#include <map>

#include "formats/profiler/RecordLayouts.h"
#include "store/Database.h"
#include "store/RecordChunks.h"
#include "store/RowAppender.h"
#include "trace/Event.h"

namespace memviz {

namespace {

// Rows of (id, name) as a vector indexed by id; `sql` selects them for one trace (?1) and,
// when given, one name kind (?2).
std::vector<std::string> idNames(Database& db, const char* sql, std::int64_t traceId, std::optional<NameKind> kind = {}) {
    Statement s(db, sql);
    s.bind(1, traceId);
    if (kind) s.bind(2, static_cast<int>(*kind));
    std::vector<std::string> names;
    while (s.step()) {
        const auto id = static_cast<std::size_t>(s.int64(0));
        if (names.size() <= id) names.resize(id + 1);
        names[id] = s.text(1);
    }
    return names;
}

std::vector<std::string> deviceNames(Database& db, std::int64_t traceId) {
    return idNames(db, "SELECT device, name FROM devices WHERE trace_id = ?1 ORDER BY device", traceId);
}

std::vector<std::string> namesOf(Database& db, std::int64_t traceId, NameKind kind) {
    return idNames(db, "SELECT id, name FROM names WHERE trace_id = ?1 AND kind = ?2 ORDER BY id", traceId, kind);
}

std::vector<std::string> threadNames(Database& db, std::int64_t traceId) {
    return idNames(db, "SELECT thread, name FROM threads WHERE trace_id = ?1 ORDER BY thread", traceId);
}

std::string nameAt(const std::vector<std::string>& names, std::int64_t id) {
    return id >= 0 && static_cast<std::size_t>(id) < names.size() ? names[static_cast<std::size_t>(id)] : std::string();
}

void sortRows(ProfilerOpsTable& table) {
    std::sort(table.rows.begin(), table.rows.end(), [](const ProfilerOpRow& a, const ProfilerOpRow& b) {
        const std::int64_t x = a.memory.empty() ? 0 : a.memory[0].selfBytes;
        const std::int64_t y = b.memory.empty() ? 0 : b.memory[0].selfBytes;
        if (x != y) return x > y;
        return a.name != b.name ? a.name < b.name : a.shapes < b.shapes;
    });
}

// The whole trace, from the totals written at import.
void wholeTrace(Database& db, std::int64_t traceId, bool grouped, ProfilerOpsTable& table) {
    const std::string shapes = grouped ? "shapes" : "-1";
    const std::string groupBy = grouped ? "name, shapes" : "name";
    std::map<std::pair<std::int64_t, std::int64_t>, std::size_t> index;
    const auto ops = namesOf(db, traceId, NameKind::Op);
    const auto shapeNames = namesOf(db, traceId, NameKind::Shapes);
    Statement calls(db, "SELECT name, " + shapes + ", sum(calls) FROM profiler_op_calls WHERE trace_id = ? GROUP BY " + groupBy);
    calls.bind(1, traceId);
    while (calls.step()) {
        ProfilerOpRow row;
        row.name = nameAt(ops, calls.int64(0));
        row.shapes = grouped ? nameAt(shapeNames, calls.int64(1)) : std::string();
        row.calls = calls.int64(2);
        row.memory.resize(table.devices.size());
        index[{calls.int64(0), calls.int64(1)}] = table.rows.size();
        table.rows.push_back(std::move(row));
    }
    Statement mem(db, "SELECT name, " + shapes +
                          ", device, sum(bytes), sum(self_bytes), sum(allocs), sum(alloc_bytes), "
                          "sum(self_allocs), sum(self_alloc_bytes) FROM profiler_op_memory WHERE trace_id = ? GROUP BY " +
                          groupBy + ", device");
    mem.bind(1, traceId);
    while (mem.step()) {
        const auto it = index.find({mem.int64(0), mem.int64(1)});
        const auto d = static_cast<std::size_t>(mem.int64(2));
        if (it == index.end() || d >= table.devices.size()) continue;
        table.rows[it->second].memory[d] = {mem.int64(3), mem.int64(4), mem.int64(5), mem.int64(6), mem.int64(7), mem.int64(8)};
    }
}

// A window: the calls starting in it, read from the call chunks that can overlap it.
void window(Database& db, std::int64_t traceId, TimeRange range, bool grouped, ProfilerOpsTable& table) {
    namespace cr = call_records;
    const std::size_t devices = table.devices.size();
    std::map<std::pair<std::int64_t, std::int64_t>, ProfilerOpRow> rows;
    readRecordChunks(db, traceId, cr::kKind, range, [&](std::span<const std::int64_t> r) {
        if (!range.contains(r[cr::Start])) return;
        ProfilerOpRow& row = rows[{r[cr::Name], grouped ? r[cr::Shapes] : -1}];
        row.memory.resize(devices);
        ++row.calls;
        for (std::size_t d = 0; d < devices && cr::FirstMemory + (d + 1) * cr::kMemoryValues <= r.size(); ++d) {
            const std::int64_t* v = r.data() + cr::FirstMemory + d * cr::kMemoryValues;
            OpMemory& m = row.memory[d];
            m.bytes += v[0];
            m.selfBytes += v[1];
            m.allocs += v[2];
            m.allocBytes += v[3];
            m.selfAllocs += v[4];
            m.selfAllocBytes += v[5];
        }
    });
    const auto ops = namesOf(db, traceId, NameKind::Op);
    const auto shapeNames = namesOf(db, traceId, NameKind::Shapes);
    for (auto& [key, row] : rows) {
        row.name = nameAt(ops, key.first);
        row.shapes = grouped ? nameAt(shapeNames, key.second) : std::string();
        table.rows.push_back(std::move(row));
    }
}

} // namespace

bool hasProfilerCalls(Database& db, std::int64_t traceId) {
    Statement s(db, "SELECT 1 FROM profiler_op_calls WHERE trace_id = ? LIMIT 1");
    s.bind(1, traceId);
    return s.step();
}

ProfilerOpsTable queryProfilerOps(Database& db, std::int64_t traceId, std::optional<TimeRange> range, bool groupByShapes) {
    ProfilerOpsTable table;
    table.devices = deviceNames(db, traceId);
    if (range) window(db, traceId, *range, groupByShapes, table);
    else wholeTrace(db, traceId, groupByShapes, table);
    sortRows(table);
    return table;
}

std::vector<AllocationRow> queryAllocations(Database& db, std::int64_t traceId, std::optional<TimeRange> range,
                                            std::size_t limit) {
    namespace ar = allocation_records;
    const auto devices = deviceNames(db, traceId);
    const auto ops = namesOf(db, traceId, NameKind::Op);
    const auto threads = threadNames(db, traceId);
    std::vector<AllocationRow> rows;
    std::int64_t index = 0;
    readRecordChunks(db, traceId, ar::kKind, range, [&](std::span<const std::int64_t> r) {
        const std::int64_t id = index++;
        if (rows.size() >= limit || (range && !range->contains(r[ar::Key]))) return;
        AllocationRow row;
        row.id = id;
        row.device = nameAt(devices, r[ar::Device]);
        row.address = r[ar::Address];
        row.size = r[ar::Size];
        if (r[ar::AllocTime] != RowAppender::kNull) row.allocTime = r[ar::AllocTime];
        if (r[ar::FreeTime] != RowAppender::kNull) row.freeTime = r[ar::FreeTime];
        row.op = nameAt(ops, r[ar::Op]);
        row.thread = nameAt(threads, r[ar::Thread]);
        rows.push_back(std::move(row));
    });
    return rows;
}

std::int64_t countAllocations(Database& db, std::int64_t traceId) { return countRecords(db, traceId, allocation_records::kKind); }

std::vector<CallSpan> queryCallSpans(Database& db, std::int64_t traceId, const std::string& name, TimeRange range,
                                     std::size_t limit) {
    namespace cr = call_records;
    Statement s(db, "SELECT id FROM names WHERE trace_id = ? AND kind = ? AND name = ?");
    s.bind(1, traceId).bind(2, static_cast<int>(NameKind::Op)).bind(3, name);
    if (!s.step()) return {};
    const std::int64_t nameId = s.int64(0);
    std::vector<CallSpan> spans;
    readRecordChunks(db, traceId, cr::kKind, range, [&](std::span<const std::int64_t> r) {
        if (spans.size() >= limit || r[cr::Name] != nameId) return;
        const std::int64_t end = r[cr::Start] + r[cr::Duration];
        if (r[cr::Start] <= range.end && end >= range.begin) spans.push_back({r[cr::Start], end});
    });
    return spans;
}

std::vector<NamedCallSpan> queryNamedCallSpans(Database& db, std::int64_t traceId, const std::string& name, bool prefix,
                                               std::size_t limit) {
    namespace cr = call_records;
    Statement s(db, prefix ? "SELECT id, name FROM names WHERE trace_id = ? AND kind = ? AND substr(name, 1, length(?3)) = ?3"
                           : "SELECT id, name FROM names WHERE trace_id = ? AND kind = ? AND name = ?3");
    s.bind(1, traceId).bind(2, static_cast<int>(NameKind::Op)).bind(3, name);
    std::map<std::int64_t, std::string> wanted;
    while (s.step()) wanted.emplace(s.int64(0), s.text(1));
    std::vector<NamedCallSpan> spans;
    if (wanted.empty()) return spans;
    readRecordChunks(db, traceId, cr::kKind, std::nullopt, [&](std::span<const std::int64_t> r) {
        const auto it = wanted.find(r[cr::Name]);
        if (it != wanted.end()) spans.push_back({it->second, r[cr::Start], r[cr::Start] + r[cr::Duration]});
    });
    std::stable_sort(spans.begin(), spans.end(), [](const NamedCallSpan& x, const NamedCallSpan& y) { return x.begin < y.begin; });
    if (spans.size() > limit) spans.resize(limit);
    return spans;
}

} // namespace memviz

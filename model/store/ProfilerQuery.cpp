#include "store/ProfilerQuery.h"

#include <algorithm>
#include <map>

#include "store/Database.h"
#include "trace/Event.h"

namespace memviz {

namespace {

void bindRange(Statement& s, int first, const std::optional<TimeRange>& range) {
    if (range) s.bind(first, range->begin).bind(first + 1, range->end);
    else s.bindNull(first).bindNull(first + 1);
}

std::vector<std::string> deviceNames(Database& db, std::int64_t traceId) {
    Statement s(db, "SELECT device, name FROM devices WHERE trace_id = ? ORDER BY device");
    s.bind(1, traceId);
    std::vector<std::string> names;
    while (s.step()) {
        const auto d = static_cast<std::size_t>(s.int64(0));
        if (names.size() <= d) names.resize(d + 1);
        names[d] = s.text(1);
    }
    return names;
}

} // namespace

bool hasProfilerCalls(Database& db, std::int64_t traceId) {
    Statement s(db, "SELECT 1 FROM profiler_calls WHERE trace_id = ? LIMIT 1");
    s.bind(1, traceId);
    return s.step();
}

ProfilerOpsTable queryProfilerOps(Database& db, std::int64_t traceId, std::optional<TimeRange> range, bool groupByShapes) {
    ProfilerOpsTable table;
    table.devices = deviceNames(db, traceId);
    const std::string shapes = groupByShapes ? "c.shapes" : "-1";
    const std::string groupBy = groupByShapes ? "c.name, c.shapes" : "c.name";
    const std::string where = " WHERE c.trace_id = ?1 AND (?2 IS NULL OR c.ts BETWEEN ?2 AND ?3) ";
    std::map<std::pair<std::int64_t, std::int64_t>, std::size_t> index;
    Statement calls(db, "SELECT c.name, " + shapes + ", count(*), n.name, coalesce(sh.name, '') FROM profiler_calls c "
                        "JOIN names n ON n.trace_id = c.trace_id AND n.kind = " + std::to_string(int(NameKind::Op)) +
                        " AND n.id = c.name LEFT JOIN names sh ON sh.trace_id = c.trace_id AND sh.kind = " +
                        std::to_string(int(NameKind::Shapes)) + " AND sh.id = " + shapes + where + "GROUP BY " + groupBy);
    calls.bind(1, traceId);
    bindRange(calls, 2, range);
    while (calls.step()) {
        ProfilerOpRow row;
        row.name = calls.text(3);
        row.shapes = groupByShapes ? calls.text(4) : std::string();
        row.calls = calls.int64(2);
        row.memory.resize(table.devices.size());
        index[{calls.int64(0), calls.int64(1)}] = table.rows.size();
        table.rows.push_back(std::move(row));
    }
    Statement mem(db, "SELECT c.name, " + shapes + ", m.device, sum(m.bytes), sum(m.self_bytes), sum(m.allocs), "
                      "sum(m.alloc_bytes), sum(m.self_allocs), sum(m.self_alloc_bytes) FROM profiler_calls c "
                      "JOIN profiler_call_memory m ON m.trace_id = c.trace_id AND m.call = c.call" + where +
                      "GROUP BY " + groupBy + ", m.device");
    mem.bind(1, traceId);
    bindRange(mem, 2, range);
    while (mem.step()) {
        const auto it = index.find({mem.int64(0), mem.int64(1)});
        const auto d = static_cast<std::size_t>(mem.int64(2));
        if (it == index.end() || d >= table.devices.size()) continue;
        table.rows[it->second].memory[d] = {mem.int64(3), mem.int64(4), mem.int64(5), mem.int64(6), mem.int64(7), mem.int64(8)};
    }
    std::sort(table.rows.begin(), table.rows.end(), [](const ProfilerOpRow& a, const ProfilerOpRow& b) {
        const std::int64_t x = a.memory.empty() ? 0 : a.memory[0].selfBytes;
        const std::int64_t y = b.memory.empty() ? 0 : b.memory[0].selfBytes;
        if (x != y) return x > y;
        return a.name != b.name ? a.name < b.name : a.shapes < b.shapes;
    });
    return table;
}

std::vector<AllocationRow> queryAllocations(Database& db, std::int64_t traceId, std::optional<TimeRange> range,
                                            std::size_t limit) {
    Statement s(db, "SELECT a.id, d.name, a.address, a.size, a.t_alloc, a.t_free, coalesce(n.name, ''), coalesce(t.name, '') "
                    "FROM allocations a JOIN devices d ON d.trace_id = a.trace_id AND d.device = a.device "
                    "LEFT JOIN names n ON n.trace_id = a.trace_id AND n.kind = 0 AND n.id = a.op "
                    "LEFT JOIN threads t ON t.trace_id = a.trace_id AND t.thread = a.thread "
                    "WHERE a.trace_id = ?1 AND (?2 IS NULL OR a.t_alloc BETWEEN ?2 AND ?3 "
                    "OR (a.t_alloc IS NULL AND a.t_free BETWEEN ?2 AND ?3)) "
                    "ORDER BY coalesce(a.t_alloc, a.t_free), a.id LIMIT ?4");
    s.bind(1, traceId);
    bindRange(s, 2, range);
    s.bind(4, static_cast<std::int64_t>(limit));
    std::vector<AllocationRow> rows;
    while (s.step()) {
        AllocationRow r;
        r.id = s.int64(0);
        r.device = s.text(1);
        r.address = s.int64(2);
        r.size = s.int64(3);
        if (!s.isNull(4)) r.allocTime = s.int64(4);
        if (!s.isNull(5)) r.freeTime = s.int64(5);
        r.op = s.text(6);
        r.thread = s.text(7);
        rows.push_back(std::move(r));
    }
    return rows;
}

std::int64_t countAllocations(Database& db, std::int64_t traceId) {
    Statement s(db, "SELECT count(*) FROM allocations WHERE trace_id = ?");
    s.bind(1, traceId);
    return s.step() ? s.int64(0) : 0;
}

std::vector<CallSpan> queryCallSpans(Database& db, std::int64_t traceId, const std::string& name, TimeRange range,
                                     std::size_t limit) {
    Statement s(db, "SELECT c.ts, c.ts + c.dur FROM profiler_calls c JOIN names n ON n.trace_id = c.trace_id AND "
                    "n.kind = 0 AND n.id = c.name WHERE c.trace_id = ?1 AND n.name = ?2 AND c.ts <= ?4 AND "
                    "c.ts + c.dur >= ?3 ORDER BY c.ts LIMIT ?5");
    s.bind(1, traceId).bind(2, name).bind(3, range.begin).bind(4, range.end).bind(5, static_cast<std::int64_t>(limit));
    std::vector<CallSpan> spans;
    while (s.step()) spans.push_back({s.int64(0), s.int64(1)});
    return spans;
}

} // namespace memviz

// SPDX-License-Identifier: MIT
#include "store/RecordChunks.h"

#include <algorithm>

#include "core/Errors.h"
#include "store/ChunkCodec.h"
#include "store/Database.h"
#include "store/TraceWriter.h"

namespace memviz {

void appendRecordChunk(std::vector<EncodedRecordChunk>& chunks, std::size_t columns, std::span<const std::int64_t> rows,
                       const std::function<std::int64_t(std::span<const std::int64_t>)>& reach) {
    if (columns == 0 || rows.empty() || rows.size() % columns != 0 || rows.size() / columns > kRecordsPerChunk)
        throw StoreError("records with the wrong number of columns");
    const std::size_t n = rows.size() / columns;
    std::int64_t end = rows[0];
    for (std::size_t i = 0; i < n; ++i) {
        const std::span<const std::int64_t> r(rows.data() + i * columns, columns);
        if (i > 0 && r[0] < rows[(i - 1) * columns]) throw StoreError("records out of time order");
        end = std::max(end, reach ? reach(r) : r[0]);
    }
    if (!chunks.empty() && rows[0] < chunks.back().tLast) throw StoreError("records out of time order");
    chunks.push_back({static_cast<std::int64_t>(n), rows.front(), rows[(n - 1) * columns], end, encodeRecords(rows, columns)});
}

std::vector<EncodedRecordChunk> encodeRecordChunks(std::size_t columns, std::span<const std::int64_t> rows,
                                                   const std::function<std::int64_t(std::span<const std::int64_t>)>& reach) {
    if (columns == 0 || rows.size() % columns != 0) throw StoreError("records with the wrong number of columns");
    const std::size_t perChunk = kRecordsPerChunk * columns;
    std::vector<EncodedRecordChunk> chunks;
    for (std::size_t at = 0; at < rows.size(); at += perChunk)
        appendRecordChunk(chunks, columns, rows.subspan(at, std::min(perChunk, rows.size() - at)), reach);
    return chunks;
}

void writeRecordChunks(TraceWriter& writer, const std::string& kind, std::size_t columns, std::vector<EncodedRecordChunk> chunks) {
    std::int64_t number = 0;
    for (EncodedRecordChunk& c : chunks)
        writer.addRecordChunk(kind, number++, c.count, c.tFirst, c.tLast, c.tEnd, static_cast<std::int64_t>(columns), std::move(c.blob));
}

std::size_t readRecordChunks(Database& db, std::int64_t traceId, std::string_view kind, std::optional<TimeRange> window,
                             const std::function<void(std::span<const std::int64_t>)>& visit) {
    Statement s(db, "SELECT columns, data FROM record_chunks WHERE trace_id = ?1 AND kind = ?2 "
                    "AND (?3 IS NULL OR (t_end >= ?3 AND t_first <= ?4)) ORDER BY chunk");
    s.bind(1, traceId).bind(2, kind);
    if (window) s.bind(3, window->begin).bind(4, window->end);
    else s.bindNull(3).bindNull(4);
    std::size_t columns = 0;
    while (s.step()) {
        columns = static_cast<std::size_t>(s.int64(0));
        const std::vector<std::int64_t> rows = decodeRecords(s.blob(1), columns);
        for (std::size_t i = 0; i + columns <= rows.size(); i += columns)
            visit(std::span<const std::int64_t>(rows.data() + i, columns));
    }
    return columns;
}

std::int64_t countRecords(Database& db, std::int64_t traceId, std::string_view kind) {
    Statement s(db, "SELECT coalesce(sum(count), 0) FROM record_chunks WHERE trace_id = ? AND kind = ?");
    s.bind(1, traceId).bind(2, kind);
    return s.step() ? s.int64(0) : 0;
}

} // namespace memviz

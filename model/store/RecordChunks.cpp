// SPDX-License-Identifier: MIT
#include "store/RecordChunks.h"

#include <algorithm>

#include "core/Errors.h"
#include "store/ChunkCodec.h"
#include "store/Database.h"
#include "store/TraceWriter.h"

namespace memviz {

RecordChunkWriter::RecordChunkWriter(TraceWriter& writer, std::string kind, std::size_t columns,
                                     std::function<std::int64_t(std::span<const std::int64_t>)> reach)
    : writer_(writer), kind_(std::move(kind)), columns_(columns), reach_(std::move(reach)) {
    // Full-chunk buffers only once a chunk has filled (see flush()): most traces are small.
}

void RecordChunkWriter::add(std::span<const std::int64_t> record) {
    if (record.size() != columns_) throw StoreError("record with the wrong number of columns");
    if (!rows_.empty() && record[0] < rows_[rows_.size() - columns_]) throw StoreError("records out of time order");
    rows_.insert(rows_.end(), record.begin(), record.end());
    if (rows_.size() == kRecordsPerChunk * columns_) flush();
}

void RecordChunkWriter::flush() {
    if (rows_.empty()) return;
    const std::size_t n = rows_.size() / columns_;
    std::int64_t end = rows_[0];
    for (std::size_t i = 0; i < n; ++i) {
        const std::span<const std::int64_t> r(rows_.data() + i * columns_, columns_);
        end = std::max(end, reach_ ? reach_(r) : r[0]);
    }
    const std::int64_t first = rows_.front(), last = rows_[(n - 1) * columns_];
    const bool full = n == kRecordsPerChunk;
    writer_.addRecordChunk(kind_, chunk_++, static_cast<std::int64_t>(n), first, last, end, static_cast<std::int64_t>(columns_),
                           std::move(rows_));
    rows_ = {};
    if (full) rows_.reserve(kRecordsPerChunk * columns_);
}

void RecordChunkWriter::finish() { flush(); }

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

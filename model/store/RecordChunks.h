// SPDX-License-Identifier: MIT
#pragma once
// Raw record streams other than alloc/free events (profiler op calls, allocation lifetimes)
// as compressed chunks of fixed-width int64 records, sorted by their first column (a time).
// Each chunk row keeps its first and last time and the latest time any record reaches (e.g. a
// call's end), so a window reads only the chunks that can overlap it.
#include <cstdint>
#include <functional>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "store/SeriesQuery.h"

namespace memviz {

class Database;
class TraceWriter;

class RecordChunkWriter {
public:
    // `reach` gives the latest time a record covers (default: its first column).
    RecordChunkWriter(TraceWriter& writer, std::string kind, std::size_t columns,
                      std::function<std::int64_t(std::span<const std::int64_t>)> reach = {});
    // Records must come in non-decreasing order of column 0.
    void add(std::span<const std::int64_t> record);
    void finish();

private:
    void flush();

    TraceWriter& writer_;
    std::string kind_;
    std::size_t columns_;
    std::function<std::int64_t(std::span<const std::int64_t>)> reach_;
    std::vector<std::int64_t> rows_;
    std::int64_t chunk_ = 0;
};

// Calls `visit` for each record (row-major span of `columns`) of the chunks of `kind` that can
// overlap the window (all chunks when absent), in order; the visitor filters precisely.
// Returns the column count (0 when the trace has no such records).
std::size_t readRecordChunks(Database& db, std::int64_t traceId, std::string_view kind, std::optional<TimeRange> window,
                             const std::function<void(std::span<const std::int64_t>)>& visit);
std::int64_t countRecords(Database& db, std::int64_t traceId, std::string_view kind);

} // namespace memviz

// SPDX-License-Identifier: MIT
#pragma once
// Raw record streams other than alloc/free events (profiler op calls, allocation lifetimes)
// as compressed chunks of fixed-width int64 records, sorted by their first column (a time).
// Each chunk row keeps its first and last time and the latest time any record reaches (e.g. a
// call's end), so a window reads only the chunks that can overlap it.
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <vector>


#include "store/SeriesQuery.h"

namespace memviz {

class Database;
class TraceWriter;

// A chunk of records encoded (codec kCodecZstdNarrowColumns) and its times.
struct EncodedRecordChunk {
    std::int64_t count = 0, tFirst = 0, tLast = 0, tEnd = 0;
    std::vector<unsigned char> blob;
};

// Records already in time order (column 0) in one row-major array, cut into chunks of
// kRecordsPerChunk and encoded on the calling thread; `reach` gives a record's latest time (the
// chunk's t_end; column 0 when absent). Throws StoreError when they are out of order. Encoding
// here rather than on the writer's worker (issue 33): the worker, which also builds the series
// and encodes the events, was the 240 MB profiler trace's longest thread, while the threads
// that own the records had time to spare at the end.
std::vector<EncodedRecordChunk> encodeRecordChunks(std::size_t columns, std::span<const std::int64_t> rows,
                                                   const std::function<std::int64_t(std::span<const std::int64_t>)>& reach = {});
// One more chunk of them after `chunks` (at most kRecordsPerChunk rows, in order, none before
// the last chunk's last record), for a caller that makes its rows a chunk at a time.
void appendRecordChunk(std::vector<EncodedRecordChunk>& chunks, std::size_t columns, std::span<const std::int64_t> rows,
                       const std::function<std::int64_t(std::span<const std::int64_t>)>& reach = {});
// Writes them as the record chunks of `kind` (the writer's worker only inserts them).
void writeRecordChunks(TraceWriter& writer, const std::string& kind, std::size_t columns, std::vector<EncodedRecordChunk> chunks);

// Calls `visit` for each record (row-major span of `columns`) of the chunks of `kind` that can
// overlap the window (all chunks when absent), in order; the visitor filters precisely.
// Returns the column count (0 when the trace has no such records).
std::size_t readRecordChunks(Database& db, std::int64_t traceId, std::string_view kind, std::optional<TimeRange> window,
                             const std::function<void(std::span<const std::int64_t>)>& visit);
std::int64_t countRecords(Database& db, std::int64_t traceId, std::string_view kind);

} // namespace memviz

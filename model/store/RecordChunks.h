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

#include "core/HugePages.h"

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
// Writes them as the record chunks of `kind` (the writer's worker only inserts them).
void writeRecordChunks(TraceWriter& writer, const std::string& kind, std::size_t columns, std::vector<EncodedRecordChunk> chunks);

// Moves the rows of a row-major array of `columns` int64 each in place so that row k becomes
// what row sourceOf(k) was (sourceOf: a permutation of 0..n-1), with one row of extra memory.
template <class SourceOf>
void arrangeRows(std::span<std::int64_t> rows, std::size_t columns, SourceOf sourceOf) {
    const std::size_t n = columns ? rows.size() / columns : 0;
    std::vector<bool> placed(n, false);
    std::vector<std::int64_t> first(columns);
    const auto row = [&](std::size_t k) { return rows.data() + k * columns; };
    for (std::size_t start = 0; start < n; ++start) {
        if (placed[start]) continue;
        placed[start] = true;
        std::size_t source = static_cast<std::size_t>(sourceOf(start));
        if (source == start) continue;
        std::copy(row(start), row(start) + columns, first.begin()); // the cycle's first row
        for (std::size_t k = start;; k = source, source = static_cast<std::size_t>(sourceOf(k))) {
            if (source == start) {
                std::copy(first.begin(), first.end(), row(k));
                break;
            }
            std::copy(row(source), row(source) + columns, row(k));
            placed[source] = true;
        }
    }
}

// Sorts the rows of a row-major array of `columns` int64 each by one column, stably, in place:
// (key, row) pairs sorted, then the rows moved once (arrangeRows); sorting the rows themselves
// moves several times more memory, and comparing indexes through the rows misses the cache at
// every step. Returns the sorted pairs (row k was row pairs[k].second before), or nothing when
// the rows were in order already. The pairs are in huge pages (core/HugePages.h): in 4 KiB pages
// they were an eighth of the 240 MB profiler trace's page faults.
using RowKeys = HugeVector<std::pair<std::int64_t, std::size_t>>;
RowKeys sortRowsByColumn(std::span<std::int64_t> rows, std::size_t columns, std::size_t column);

// Calls `visit` for each record (row-major span of `columns`) of the chunks of `kind` that can
// overlap the window (all chunks when absent), in order; the visitor filters precisely.
// Returns the column count (0 when the trace has no such records).
std::size_t readRecordChunks(Database& db, std::int64_t traceId, std::string_view kind, std::optional<TimeRange> window,
                             const std::function<void(std::span<const std::int64_t>)>& visit);
std::int64_t countRecords(Database& db, std::int64_t traceId, std::string_view kind);

} // namespace memviz

// SPDX-License-Identifier: MIT
#pragma once
// Packs runs of events and series points into compressed column BLOBs (one row per chunk),
// the shape that keeps millions of raw events fast to write and to read back by time range.
#include <cstdint>
#include <span>
#include <vector>

#include "trace/Event.h"

namespace memviz {

struct SeriesPoint {
    std::int64_t t = 0;
    std::int64_t v = 0;
    bool operator==(const SeriesPoint&) const = default;
};

// The `codec` column of chunk tables. 1: fixed-width columns; 2: narrow columns (event chunks
// since schema version 8, record chunks since 10; store/ColumnChunk.h; since 12 an event chunk's
// address column may be steps). The decoders read both: the chunk's raw bytes say which it is.
constexpr int kCodecZstdColumns = 1;
constexpr int kCodecZstdNarrowColumns = 2;

// Events per chunk, as every writer cuts them (TraceWriter, the snapshot's entry chunks). A
// narrow chunk (codec 2) of more is damaged: with constant columns its size would not bound it.
constexpr std::size_t kEventsPerChunk = 65536;

// At most kEventsPerChunk events.
std::vector<unsigned char> encodeEvents(std::span<const Event> events);
// Throws StoreError for a damaged blob.
std::vector<Event> decodeEvents(std::span<const unsigned char> blob);

// Points per chunk, as every writer cuts them (series, heaptrack's allocation infos). A narrow
// point chunk (codec 2) of more is damaged: with constant columns its size would not bound it
// (a 26-byte chunk declaring 16 million points took the fuzzer's 10 s).
constexpr std::size_t kPointsPerChunk = 65536;

// At most kPointsPerChunk points.
std::vector<unsigned char> encodePoints(std::span<const SeriesPoint> points);
std::vector<SeriesPoint> decodePoints(std::span<const unsigned char> blob);

// Records per chunk, as writeRecordChunks cuts them; a narrow record chunk of more is damaged.
constexpr std::size_t kRecordsPerChunk = 32768;

// int64 records (row-major in memory, `columns` per record), stored column by column in narrow
// columns (codec 2 since schema version 10; codec 1, fixed widths, is still read); column 0 is
// a non-decreasing time and is stored as the first value and steps. At most kRecordsPerChunk.
std::vector<unsigned char> encodeRecords(std::span<const std::int64_t> rows, std::size_t columns);
std::vector<std::int64_t> decodeRecords(std::span<const unsigned char> blob, std::size_t columns);

} // namespace memviz

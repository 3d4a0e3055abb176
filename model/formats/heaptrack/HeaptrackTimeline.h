// SPDX-License-Identifier: MIT
#pragma once
// Turns heaptrack's allocation stream into memviz events and series on the "heap" device:
// heap consumed (the primary series), RSS, allocation calls and temporary allocations per
// second. heaptrack stamps time in milliseconds (`c` records), so the heap series keeps,
// for each millisecond, its lowest and highest value in the order they occurred and the
// last one: the peak and the final value stay exact at the file's own time resolution.
#include <cstdint>
#include <vector>

#include "store/ChunkCodec.h"

namespace memviz {

class TraceWriter;

class HeaptrackTimeline {
public:
    static constexpr const char* kDevice = "heap";

    explicit HeaptrackTimeline(TraceWriter& out);

    std::int64_t timeMs() const { return timeMs_; }
    // A `c` record. Returns false (and keeps the current time) for a time before it.
    bool setTimeMs(std::int64_t ms);
    void alloc(std::uint64_t info, std::int64_t size, std::int32_t op);
    void free(std::uint64_t info, std::int64_t size, std::int32_t op, bool temporary);
    void rss(std::int64_t pages) { rssPages_.push_back({timeMs_, pages}); }
    // Writes the buffered series; RSS pages become bytes with the page size from `I`.
    void finish(std::int64_t pageSize);

private:
    void moveHeap(std::int64_t delta);
    void flushMillisecond();

    TraceWriter& out_;
    std::uint16_t device_;
    std::int64_t heapSeries_;
    std::int64_t timeMs_ = 0;
    std::int64_t live_ = 0;
    // The current millisecond's extremes, in the order they were reached.
    std::int64_t lastEmitted_ = 0;
    std::int64_t minV_ = 0, maxV_ = 0;
    std::int64_t minOrder_ = 0, maxOrder_ = 0, changes_ = 0;
    // Counts in the current interval between `c` records, and the rate points so far.
    std::int64_t intervalAllocs_ = 0, intervalTemporary_ = 0;
    std::vector<SeriesPoint> allocRate_, temporaryRate_, rssPages_;
};

} // namespace memviz

// SPDX-License-Identifier: MIT
#pragma once
// The one way importers put a trace into a store. It owns the import's transaction: rows
// go in through prepared statements, derived tables (summary, per-op aggregates, level of
// detail) are built as the rows stream by, and nothing is visible until commit(). A writer
// destroyed without commit() (an error, a cancel) rolls back and leaves the file as it was.
// Compression and row writes run on a worker thread (WorkQueue) while the importer parses.
#include <cstdint>
#include <condition_variable>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "core/HugePages.h"
#include "store/ChunkCodec.h"
#include "store/Database.h"
#include "store/LendingPool.h"
#include "store/RowAppender.h"
#include "store/WorkQueue.h"
#include "trace/Event.h"

namespace memviz {

class SeriesWriter;

// Series style: a filled area stacked on the stacked series of the device created before it
// (values are the series' own; the timeline adds them up).
inline constexpr const char* kSeriesStacked = "stacked";

struct TraceInfo {
    std::string sourcePath;
    std::string format;                     // importer id, one of formats/FormatIds.h format_id
    std::optional<std::int64_t> epochNs;    // source clock at t = 0, when known
    std::optional<std::int64_t> sourceSize; // bytes, to recognise the file again
    std::optional<std::int64_t> sourceMtimeNs;
    std::string timeKind = "time"; // "time" (ns), "index" (event number), or the
                                   // x unit of a profiler: "instructions", "bytes"
    // Fill this existing trace row instead of inserting one: a live recording's row exists
    // from its first moment and is finalised into the ordinary shape (formats/live/LiveFinalizer).
    std::optional<std::int64_t> adoptTraceId;
};

// Interns strings with heterogeneous lookup, so string_views from a parse buffer don't allocate.
class NameTable {
public:
    std::int32_t intern(std::string_view name);
    const std::vector<std::string>& names() const { return names_; }

private:
    struct Hash {
        using is_transparent = void;
        std::size_t operator()(std::string_view s) const noexcept { return std::hash<std::string_view>{}(s); }
    };
    std::unordered_map<std::string, std::int32_t, Hash, std::equal_to<>> ids_;
    std::vector<std::string> names_;
};

class TraceWriter {
public:
    TraceWriter(Database& db, TraceInfo info);
    ~TraceWriter();
    TraceWriter(const TraceWriter&) = delete;
    TraceWriter& operator=(const TraceWriter&) = delete;

    // The device index for a name ("cpu", "cuda:0"), in order of first appearance.
    std::uint16_t device(std::string_view name);
    std::int32_t name(NameKind kind, std::string_view text);

    // A series of (time, value) points. The primary series of a device is the one its
    // summary (peak, final bytes) is computed from: live allocated bytes.
    // `style` says how the timeline draws it: "" (a step line) or kSeriesStacked.
    std::int64_t createSeries(std::uint16_t device, std::string_view name, std::string_view unit, bool primary,
                              std::string_view style = "");
    void addPoint(std::int64_t seriesId, std::int64_t timeNs, std::int64_t value);
    // How the timeline draws a series ("" = step line, kSeriesStacked = stacked area).
    void setSeriesStyle(std::int64_t seriesId, std::string_view style);
    // For formats that name their own peak (massif's peak snapshot): the device summary's
    // peak becomes this instead of the primary series' maximum.
    void setDevicePeak(std::uint16_t device, std::int64_t bytes, std::int64_t timeNs);

    // Alloc and Free events count in the summary and per-op tables; allocator records
    // (EventKind::SegmentAlloc, ...) are stored and counted as events only.
    void addEvent(const Event& event);
    // The trace lasts at least until t (e.g. the end of the last op call).
    void extendDuration(std::int64_t t) { noteTime(t); }

    // A thread index for a label (e.g. "pid 12 tid 34"), in order of first appearance.
    std::int32_t thread(std::string_view label);
    // A chunk of fixed-width records (see RecordChunks.h), encoded (encodeRecords); inserted on
    // the worker.
    void addRecordChunk(const std::string& kind, std::int64_t chunk, std::int64_t count, std::int64_t tFirst, std::int64_t tLast,
                        std::int64_t tEnd, std::int64_t columns, std::vector<unsigned char> blob);
    // Bulk rows for a relational table: `insertSql` with `columns` placeholders, all integers
    // (RowAppender::kNull for NULL). The appender lives as long as the writer.
    RowAppender& appender(std::string_view insertSql, int columns);

    // A counted, reported problem that did not stop the import (e.g. unmatched frees).
    void warn(std::string_view kind, std::string_view location, std::string_view message, std::int64_t count = 1);
    void setMetadata(std::string_view key, std::string_view value);
    // The source clock's reading at t = 0 (ns), when the importer learns it while reading.
    void setEpochNs(std::int64_t epochNs) { info_.epochNs = epochNs; }
    // What the time axis counts, when the format says so (see TraceInfo::timeKind).
    void setTimeKind(std::string_view kind) { info_.timeKind = kind; }

    // Writes the derived tables and commits; returns the new trace id.
    std::int64_t commit();
    std::int64_t traceId() const { return traceId_; }
    std::int64_t eventCount() const { return eventSeq_; }
    // For importers that keep format-specific tables: rows written through it are part of
    // this import's transaction. From the first call on, the writer stops handing work to its
    // worker thread (the connection must not be used by two threads at once).
    Database& database();
    // For importers whose own tables are written while the writer's rows still go through its
    // worker (issue 33): the connection, once every queued job has run. Prepare statements on
    // it now; use it afterwards only inside jobs given to post(), or after database().
    Database& databaseForJobs();
    // Runs `job` on the writer's worker thread, after the rows queued before it (on the calling
    // thread once database() was called). Rethrows the first error a job threw.
    void post(std::function<void()> job);
    // Waits for every queued job, without rethrowing: for a caller that unwinds and must not
    // leave a job running that refers to its locals.
    void drainQuietly() noexcept;
    // For an importer that holds much else in memory while it writes (a streamed snapshot's
    // records): at most `kib` KiB of the transaction's pages stay in memory, the others spill
    // to the WAL before the commit (the connection's cache is 64 MiB). The connection's own
    // setting comes back when the writer commits or is destroyed. The worker keeps writing the
    // writer's rows.
    void limitPageCache(std::int64_t kib);
    // From now on each event chunk is encoded (columns, zstd) on the calling thread instead of
    // the worker, and the last chunk's events are kept: for an importer whose own thread has
    // time to spare while the worker is the bottleneck, and which has the same events elsewhere
    // (the snapshot builder's entry chunks, issue 33).
    void encodeEventChunksHere() { encodeHere_ = true; }
    // The number (event_chunks.chunk) of the event chunk flushed last, when
    // encodeEventChunksHere() is on and that chunk's events equal `events`; else none.
    std::optional<std::int64_t> eventChunkHolding(std::span<const Event> events) const;

private:
    struct DeviceState;
    struct OpStat {
        std::int64_t allocs = 0, frees = 0, bytesAllocated = 0, bytesFreed = 0, largest = 0;
        bool used() const { return allocs || frees; }
    };
    struct Warning {
        std::int64_t count = 0;
        std::string firstLocation, message;
    };

    void flushEvents();
    void insertEventChunk(std::int64_t chunk, std::int64_t firstSeq, std::int64_t count, std::int64_t tFirst,
                          std::int64_t tLast, std::span<const unsigned char> blob);
    void flushPoints(std::size_t seriesIndex);
    void noteTime(std::int64_t t);
    DeviceState& deviceState(std::uint16_t device);
    void writeDerivedTables();
    void restorePageCache() noexcept;

    Database& db_;
    TraceInfo info_;
    Transaction tx_;
    std::int64_t traceId_ = 0;
    Statement insertEventChunk_;
    Statement insertSeriesChunk_;
    Statement insertLod_;
    Statement insertRecordChunk_;
    // Events are 40 bytes and a full chunk 2.5 MiB: filled front to back, in huge pages.
    using EventBuffer = HugeVector<Event>;
    EventBuffer pending_;
    // Full chunk buffers go to the work queue and come back (store/LendingPool.h): a fresh
    // 2.5 MiB buffer per chunk cost its page faults again every time (a third of a big heaptrack
    // import's faults). At most kMaxBuffersOut are with the queue: the heaptrack import of
    // deep.zst had four 2.5 MiB buffers; with two out its peak RSS fell from 74 to 58 MB, and with
    // one out its wall time on two cores rose by 15 %.
    static constexpr std::size_t kMaxBuffersOut = 2;
    static constexpr std::size_t kEventsBeforeReserve = 4096;
    LendingPool<EventBuffer> eventBuffers_{kMaxBuffersOut, kEventsPerChunk};
    bool encodeHere_ = false;
    EventBuffer lastEvents_; // encodeEventChunksHere(): the chunk flushed last, and its number
    std::int64_t lastChunk_ = -1;
    std::int64_t eventSeq_ = 0;
    std::int64_t chunkCount_ = 0;
    std::int64_t maxTime_ = 0;
    NameTable devices_;
    NameTable names_[kNameKinds];
    NameTable threads_;
    std::vector<std::unique_ptr<RowAppender>> appenders_;
    std::vector<std::unique_ptr<DeviceState>> deviceStates_;
    // Touched only by the work queue's thread until commit() drains it.
    std::vector<std::unique_ptr<SeriesWriter>> series_;
    std::vector<std::int64_t> seriesIds_;                  // per series, for this thread (addPoint)
    std::vector<std::vector<SeriesPoint>> pendingPoints_; // per series, filled by the parser
    std::map<std::string, Warning, std::less<>> warnings_;
    std::map<std::string, std::string, std::less<>> metadata_;
    bool committed_ = false;
    std::optional<std::int64_t> cacheSizeBefore_; // PRAGMA cache_size before limitPageCache()
    // Last member: destroyed (joined) first, before the statements and the transaction.
    WorkQueue queue_;
};

} // namespace memviz

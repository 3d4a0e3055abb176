#pragma once
// The one way importers put a trace into a store. It owns the import's transaction: rows
// go in through prepared statements, derived tables (summary, per-op aggregates, level of
// detail) are built as the rows stream by, and nothing is visible until commit(). A writer
// destroyed without commit() (an error, a cancel) rolls back and leaves the file as it was.
#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "store/Database.h"
#include "trace/Event.h"

namespace memviz {

class SeriesWriter;

struct TraceInfo {
    std::string sourcePath;
    std::string format;                     // importer id, e.g. "memviz-alloc-log"
    std::optional<std::int64_t> epochNs;    // source clock at t = 0, when known
    std::optional<std::int64_t> sourceSize; // bytes, to recognise the file again
    std::optional<std::int64_t> sourceMtimeNs;
    std::string timeKind = "time";          // "time" (ns) or "index" (event number)
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
    std::int64_t createSeries(std::uint16_t device, std::string_view name, std::string_view unit,
                              bool primary);
    void addPoint(std::int64_t seriesId, std::int64_t timeNs, std::int64_t value);

    // Alloc and Free events count in the summary and per-op tables; allocator records
    // (EventKind::SegmentAlloc, ...) are stored and counted as events only.
    void addEvent(const Event& event);

    // A counted, reported problem that did not stop the import (e.g. unmatched frees).
    void warn(std::string_view kind, std::string_view location, std::string_view message);
    void setMetadata(std::string_view key, std::string_view value);
    // The source clock's reading at t = 0 (ns), when the importer learns it while reading.
    void setEpochNs(std::int64_t epochNs) { info_.epochNs = epochNs; }
    // "time" (ns) or "index" (event number), when the importer learns it while reading.
    void setTimeKind(std::string_view kind) { info_.timeKind = std::string(kind); }

    // The store, for importers that keep format-specific tables (written in this writer's
    // transaction, so they commit or roll back with the trace).
    Database& database() { return db_; }

    // Writes the derived tables and commits; returns the new trace id.
    std::int64_t commit();
    std::int64_t traceId() const { return traceId_; }
    std::int64_t eventCount() const { return eventSeq_; }

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
    void noteTime(std::int64_t t);
    DeviceState& deviceState(std::uint16_t device);
    void writeDerivedTables();

    Database& db_;
    TraceInfo info_;
    Transaction tx_;
    std::int64_t traceId_ = 0;
    Statement insertEventChunk_;
    Statement insertSeriesChunk_;
    Statement insertLod_;
    std::vector<Event> pending_;
    std::int64_t eventSeq_ = 0;
    std::int64_t chunkCount_ = 0;
    std::int64_t maxTime_ = 0;
    NameTable devices_;
    NameTable names_[3];
    std::vector<std::unique_ptr<DeviceState>> deviceStates_;
    std::vector<std::unique_ptr<SeriesWriter>> series_;
    std::unordered_map<std::int64_t, std::size_t> seriesIndex_;
    std::map<std::string, Warning, std::less<>> warnings_;
    std::map<std::string, std::string, std::less<>> metadata_;
    bool committed_ = false;
};

} // namespace memviz

// SPDX-License-Identifier: MIT
#pragma once
// Read-side queries over a store: the traces it holds, their canonical summary, series
// metadata. Widgets and the command line ask these; they never run SQL of their own.
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace memviz {

class Database;

struct TraceRecord {
    std::int64_t id = 0;
    std::string sourcePath;
    std::string format;
    std::string importedAt;
    std::string timeKind; // "time" or "index"
    std::int64_t durationNs = 0;
    std::int64_t eventCount = 0;
    std::optional<std::int64_t> epochNs;
    std::optional<std::int64_t> sourceSize;
    std::optional<std::int64_t> sourceMtimeNs;
};

struct DeviceSummary {
    int device = 0;
    std::string name;
    std::int64_t events = 0;
    std::int64_t allocs = 0;
    std::int64_t frees = 0;
    std::int64_t unmatchedFrees = 0;
    std::int64_t peakBytes = 0;
    std::int64_t peakTimeNs = 0;
    std::int64_t finalBytes = 0;
    std::int64_t durationNs = 0;
};

struct ImportWarning {
    std::string kind;
    std::int64_t count = 0;
    std::string firstLocation;
    std::string message;
};

// The canonical summary every importer fills (docs/schema.md, `memviz summary`).
struct TraceSummary {
    TraceRecord trace;
    std::vector<DeviceSummary> devices;
    std::vector<ImportWarning> warnings;
};

struct SeriesInfo {
    std::int64_t id = 0;
    int device = 0;
    std::string deviceName;
    std::string name;
    std::string unit;
    std::int64_t pointCount = 0;
    std::int64_t tFirst = 0, tLast = 0;
    std::int64_t vMin = 0, vMax = 0, vFinal = 0;
    std::string style; // display hint: "" = step line, "stacked" = stacked area (kSeriesStacked)
};

std::vector<TraceRecord> listTraces(Database& db);
std::optional<TraceRecord> findTrace(Database& db, std::int64_t traceId);
// The most recently imported trace; nullopt for an empty store.
std::optional<std::int64_t> latestTraceId(Database& db);
// A trace already imported from this file with the same size and modification time.
std::optional<std::int64_t> findImportOf(Database& db, const std::string& sourcePath, std::int64_t size, std::int64_t mtimeNs);

TraceSummary loadSummary(Database& db, std::int64_t traceId);
std::vector<std::pair<std::string, std::string>> loadMetadata(Database& db, std::int64_t traceId);
std::vector<SeriesInfo> listSeries(Database& db, std::int64_t traceId);

} // namespace memviz

// SPDX-License-Identifier: MIT
#pragma once
// Everything `memviz diff` and the window's Compare mode show about two traces, read from
// their stores in one call: the summaries, the device rows, per operator or (two heaptrack
// recordings) per allocation site, per CUDA snapshot segment, and each trace's memory curve
// for the compared device. B - A throughout (TraceDiff.h). Runs off the GUI thread.
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "compare/ProfilerDiff.h"
#include "compare/SnapshotDiff.h"
#include "compare/TraceDiff.h"
#include "store/ChunkCodec.h"

namespace memviz {

class Database;
class Progress;

// A training step a trace marks: a profiler trace's ProfilerStep#N, a probe recording's step.
struct TraceStep {
    std::int64_t number = 0;
    std::int64_t t = 0; // its start
};

struct ComparedTrace {
    TraceSummary summary;
    std::vector<SeriesPoint> curve; // the compared device's live bytes (empty: no such device)
    std::vector<TraceStep> steps;   // in time order (Alignment.h: readTraceSteps)
    std::optional<std::int64_t> marker; // the first moment of the marker named for --align marker:NAME
};

// A stacked series (a memory-timeline category: activation, gradient, ...) at each trace's
// own peak of its device; matched by device and name.
struct CategoryDiff {
    std::string device, name;
    DiffValue atPeak;
};

struct TraceComparison {
    ComparedTrace a, b;
    std::string device; // the device the operators and curves are for ("" = every device)
    std::vector<DeviceDiff> devices;
    std::vector<OpDiff> ops;                                   // empty for two heaptrack recordings (see sites)
    std::vector<SiteDiff> sites;                               // two heaptrack recordings only
    std::vector<ProfilerOpDiff> keyAverages; // two profiler traces only: key_averages columns
    std::vector<std::pair<std::string, SegmentDiff>> segments; // two CUDA snapshots only: device, segment
    // Two CUDA snapshots only, per device: the final blocks that differ (with the call site of
    // each side's stack), and the allocations alive at each snapshot's peak by call site.
    struct Block {
        std::string device;
        BlockDiff diff;
        std::string siteA, siteB;
    };
    std::vector<Block> blocks;
    std::vector<std::pair<std::string, PeakSiteDiff>> peakSites;
    std::vector<CategoryDiff> categories; // largest |delta| first; traces with stacked series only
};

// `device` (case-insensitive; "" = every device, and the curves of A's first device) limits
// devices, operators and curves; it must be in at least one trace (else std::invalid_argument).
// Without `device`, two traces with no device in common are a std::runtime_error naming each
// trace's devices.
// Each curve is reduced to about `columns` pixel columns (min and max per column; 4096 when
// `columns` <= 0), the way the timeline reads its series.
// `snapshotDetails` false leaves out the blocks and the allocations alive at each peak of two
// CUDA snapshots (they read every allocation of both); addSnapshotDetails adds them later.
TraceComparison compareTraces(Database& a, std::int64_t traceA, Database& b, std::int64_t traceB, const std::string& device,
                              int columns, const Progress& progress, bool snapshotDetails = true);
// Two CUDA snapshots: fills `c.blocks` and `c.peakSites` (nothing for other traces).
void addSnapshotDetails(TraceComparison& c, Database& a, std::int64_t traceA, Database& b, std::int64_t traceB,
                        const Progress& progress);
// The comparison is of two CUDA snapshots.
bool comparesSnapshots(const TraceComparison& c);

// B - A as a step function over every time where either changes; B is shifted by `shiftB`
// (B's point at t is drawn at t + shiftB, to line up the two). Before a curve's first point
// its value is 0.
std::vector<SeriesPoint> differenceCurve(const std::vector<SeriesPoint>& a, const std::vector<SeriesPoint>& b,
                                         std::int64_t shiftB);

} // namespace memviz

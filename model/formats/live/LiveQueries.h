// SPDX-License-Identifier: MIT
#pragma once
// Read side of live recordings: their state, the relational samples while they are still
// being recorded (the live timeline reads these), markers, phases and per-operator totals.
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "store/OpsQuery.h"
#include "store/SeriesQuery.h"

namespace memviz {

class Database;

struct LiveRecordingInfo {
    std::int64_t traceId = 0;
    std::string source; // attach, launch, probe
    std::string state;  // recording, finalized
    std::optional<int> targetPid;
    std::string command;
    std::int64_t intervalNs = 0;
    bool children = false;
    int recorderPid = 0;
    std::int64_t recorderStart = 0;
    std::string recorderBoot;
    std::int64_t lastCommitNs = 0;
    std::string endReason;
    std::optional<int> exitCode;
    std::optional<int> exitSignal;
    std::string message;

    bool recording() const { return state == "recording"; }
};

struct LiveSeriesInfo {
    int series = 0;
    std::string device, name, unit;
    bool primary = false;
    std::int64_t count = 0;
    std::int64_t tFirst = 0, tLast = 0, vMin = 0, vMax = 0, vLast = 0;
};

struct LiveMarker {
    std::int64_t t = 0;
    std::string kind; // user, phase, step, exit
    std::string label;
};

// A span of one training phase (forward, backward, optimizer), from the probe's phase marks.
struct LivePhaseSpan {
    std::int64_t begin = 0, end = 0;
    std::string phase;
};

// nullopt when the trace is not a live recording (or the store predates them).
std::optional<LiveRecordingInfo> findLiveRecording(Database& db, std::int64_t traceId);
std::vector<LiveRecordingInfo> listLiveRecordings(Database& db);
// Full: every field (a scan of the samples). Ends: count, min and max are left 0; only
// the first and last point are read (index seeks: cheap enough for every live refresh).
enum class LiveSeriesDetail { Full, Ends };
std::vector<LiveSeriesInfo> listLiveSeries(Database& db, std::int64_t traceId, LiveSeriesDetail detail = LiveSeriesDetail::Full);
// Newest sample time of the recording (0 when none yet).
std::int64_t liveExtent(Database& db, std::int64_t traceId);
// Sample rows (one per series and moment).
std::int64_t liveSampleCount(Database& db, std::int64_t traceId);
// Sampling moments: distinct sample times (what "N samples" means to a user).
std::int64_t liveSampleMoments(Database& db, std::int64_t traceId);

// Like querySeries, from the relational samples: at most four points per pixel column (the
// first, lowest, highest and last), plus the last point before the range.
SeriesWindow queryLiveSeries(Database& db, std::int64_t traceId, int series, TimeRange range, int columns);
std::optional<std::int64_t> liveValueAt(Database& db, std::int64_t traceId, int series, std::int64_t t);

std::vector<LiveMarker> listLiveMarkers(Database& db, std::int64_t traceId);
// Consecutive phase marks as spans; the last one ends at `end`.
std::vector<LivePhaseSpan> livePhaseSpans(const std::vector<LiveMarker>& markers, std::int64_t end);

// Per-operator rows from the probe's records, with the same meaning as the finalised
// trace's op_stats (docs/formats.md, the probe section): an increase of a device's bytes
// during a record counts as an allocation of that size, a decrease as a free.
std::vector<OpRow> queryLiveOps(Database& db, std::int64_t traceId, const OpsFilter& filter);

// The probe record running at t ("aten::mm (forward, step 3)"), empty when none.
std::string liveOpAt(Database& db, std::int64_t traceId, std::int64_t t);

} // namespace memviz

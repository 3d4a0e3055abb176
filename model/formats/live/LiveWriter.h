// SPDX-License-Identifier: MIT
#pragma once
// Writes a live recording into a store as it happens: the trace row and the recording row
// are committed at once, then samples, markers and probe records are appended and committed
// in small transactions (commitIfDue), so a recorder that is killed loses at most the last
// commit interval. LiveFinalizer turns the result into the ordinary trace shape afterwards.
// One writer per recording, used from one thread (it owns no thread of its own).
#include <cstdint>
#include <limits>
#include <optional>
#include <string>
#include <string_view>

#include "formats/FormatIds.h"
#include "store/Database.h"

namespace memviz {

struct LiveRecordingSpec {
    std::string source;  // "attach", "launch" or "probe"
    std::string format;  // traces.format: format_id::kLiveProc or kLiveProbe
    std::string title;   // traces.source_path: what was recorded, in words
    std::string command; // the recorded command line
    std::optional<int> targetPid;
    std::int64_t intervalNs = 0;
    bool children = false;
    std::optional<std::int64_t> epochNs; // wall clock (ns since 1970) at t = 0
};

inline constexpr const char* kLiveProcFormat = format_id::kLiveProc;
inline constexpr const char* kLiveProbeFormat = format_id::kLiveProbe;

struct LiveSeriesSpec {
    std::string device;
    std::string name;
    std::string unit;
    bool primary = false;
};

// One probe record's memory on one device.
struct LiveOpRecord {
    std::int64_t seq = 0;
    std::string device;
    std::int64_t t = 0, tEnd = 0;
    std::string kind, name, phase;
    std::int64_t step = 0;
    std::int64_t bytesBefore = 0, bytesAfter = 0;
};

// Why a recording stopped (live_recordings.end_reason, docs/schema.md).
struct LiveEnd {
    std::string reason;
    std::optional<int> exitCode;
    std::optional<int> exitSignal;
    std::string message;
};

class LiveWriter {
public:
    static constexpr std::int64_t kDefaultCommitIntervalNs = 250'000'000;

    LiveWriter(Database& db, const LiveRecordingSpec& spec);
    // Commits what is pending; the recording stays in the 'recording' state.
    ~LiveWriter();
    LiveWriter(const LiveWriter&) = delete;
    LiveWriter& operator=(const LiveWriter&) = delete;

    std::int64_t traceId() const { return traceId_; }
    Database& database() { return db_; }

    // A new series; returns its number (live_series.series).
    int addSeries(const LiveSeriesSpec& spec);
    void addSample(int series, std::int64_t t, std::int64_t value);
    void addMarker(std::int64_t t, std::string_view kind, std::string_view label);
    void addOp(const LiveOpRecord& op);
    // A tensor storage an operator made (live_storages), and the moment it was released.
    void addStorage(std::int64_t id, std::string_view device, std::int64_t bytes, std::string_view op, std::string_view phase,
                    std::int64_t tAlloc);
    void freeStorage(std::int64_t id, std::int64_t tFree);
    // The process once known (the probe says hello after the recording began).
    void setTarget(int pid, std::string_view command, std::string_view title);
    void setMetadata(std::string_view key, std::string_view value);
    // The wall clock at t = 0 (the probe tells it in its hello).
    void setEpochNs(std::int64_t epochNs);

    // Commits when the last commit is at least the commit interval ago (by `nowNs`, any
    // monotonic clock). Returns true when it committed.
    bool commitIfDue(std::int64_t nowNs);
    void commit();
    // Records why the recording stopped, and commits.
    void setEnd(const LiveEnd& end);
    void setCommitIntervalNs(std::int64_t ns) { commitIntervalNs_ = ns; }

    // Sample rows (one per series and moment).
    std::int64_t committedSamples() const { return committedSamples_; }
    std::int64_t pendingSamples() const { return pendingSamples_; }
    // Sampling moments: distinct sample times, however many series each one filled (samples
    // arrive in time order, so a moment is new when its time is later than any before).
    std::int64_t committedMoments() const { return committedMoments_; }
    // Largest sample time committed so far.
    std::int64_t lastCommittedT() const { return committedT_; }

private:
    void begin();

    Database& db_;
    std::int64_t traceId_ = 0;
    Statement insertSample_;
    Statement insertMarker_;
    Statement insertOp_;
    std::optional<Statement> insertStorage_, freeStorage_; // prepared at their first use
    bool inTransaction_ = false;
    int seriesCount_ = 0;
    std::int64_t commitIntervalNs_ = kDefaultCommitIntervalNs;
    std::int64_t lastCommitNs_ = -1;
    std::int64_t committedSamples_ = 0;
    std::int64_t pendingSamples_ = 0;
    std::int64_t committedMoments_ = 0;
    std::int64_t pendingMoments_ = 0;
    std::int64_t latestSampleT_ = std::numeric_limits<std::int64_t>::min();
    std::int64_t pendingT_ = 0;
    std::int64_t committedT_ = 0;
};

// The recording process' identity as live_recordings stores it.
struct RecorderIdentity {
    int pid = 0;
    std::int64_t startTicks = 0;
    std::string boot;
};
RecorderIdentity currentRecorder();
// True when the recorder named so is still running on this machine.
bool isRecorderAlive(const RecorderIdentity& recorder);

} // namespace memviz

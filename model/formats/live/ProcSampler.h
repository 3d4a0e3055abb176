// SPDX-License-Identifier: MIT
#pragma once
// Samples one process' memory (optionally with its descendants summed in) from /proc:
// status counters every time, smaps_rollup (Pss, Private) as often as it is cheap enough.
#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace memviz {

// The series a /proc recording holds, in this order (live_series.series). All on the
// device "process".
enum ProcSeries : int {
    kRss = 0,   // VmRSS: resident set size (the primary series)
    kHwm,       // VmHWM: the kernel's peak RSS of the root process
    kRssAnon,   // RssAnon
    kRssFile,   // RssFile
    kRssShmem,  // RssShmem
    kSwap,      // VmSwap
    kPss,       // smaps_rollup Pss (shared pages divided among their users)
    kPrivate,   // smaps_rollup Private_Clean + Private_Dirty
    kProcesses, // processes summed (only with children)
    kProcSeriesCount
};

struct ProcSeriesSpec {
    const char* name;
    const char* unit;
};
const ProcSeriesSpec& procSeriesSpec(int series);

struct ProcSamplerOptions {
    int pid = 0;
    bool children = false; // sum the descendants in
    std::int64_t intervalNs = 100'000'000;
    // smaps_rollup may take at most this share of the interval; beyond it, Pss and Private
    // are read every n-th sample only.
    double smapsBudget = 0.1;
};

struct ProcSample {
    std::array<std::optional<std::int64_t>, kProcSeriesCount> values;
};

class ProcSampler {
public:
    explicit ProcSampler(ProcSamplerOptions options);

    // Reads the root process once and checks that smaps_rollup may be read: throws ProcError
    // (NoSuchProcess, Exited, NotPermitted) when the process cannot be recorded.
    void check();
    // One sample. Throws ProcError when the root process cannot be read (any more);
    // descendants that vanish or cannot be read are skipped.
    ProcSample sample();

    const ProcSamplerOptions& options() const { return options_; }
    // smaps_rollup is read every n-th sample (1 = always, 0 = never: not available).
    int smapsEvery() const { return smapsEvery_; }
    // What the last smaps_rollup read of all processes cost, ns.
    std::int64_t lastSmapsCostNs() const { return lastSmapsCostNs_; }
    // The root's name and command line (for the recording's title).
    const std::string& processName() const { return name_; }

private:
    static constexpr int kMaxSamplesSinceSmaps = 1 << 30;
    void rescanChildren(std::int64_t now);

    ProcSamplerOptions options_;
    std::string name_;
    int smapsEvery_ = 1;
    int samplesSinceSmaps_ = kMaxSamplesSinceSmaps; // the first sample reads it
    std::int64_t lastSmapsCostNs_ = 0;
    std::vector<int> children_;
    std::int64_t lastScanNs_ = -1;
};

// CLOCK_MONOTONIC in ns.
std::int64_t monotonicNs();
// Wall-clock time (CLOCK_REALTIME), ns since the Unix epoch: a recording's epoch.
std::int64_t wallClockNs();

} // namespace memviz

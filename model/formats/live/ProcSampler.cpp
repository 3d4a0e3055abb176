// SPDX-License-Identifier: MIT
#include "formats/live/ProcSampler.h"

#include <algorithm>
#include <cmath>
#include <ctime>
#include <unistd.h>

#include "formats/FormatIds.h"
#include "formats/live/ProcFiles.h"
#include "formats/live/ProcessTable.h"

namespace memviz {

namespace {

constexpr ProcSeriesSpec kSpecs[kProcSeriesCount] = {
    {proc_series::kRss, "bytes"},     {proc_series::kHwm, "bytes"},      {proc_series::kRssAnon, "bytes"},
    {proc_series::kRssFile, "bytes"}, {proc_series::kRssShmem, "bytes"}, {proc_series::kSwap, "bytes"},
    {proc_series::kPss, "bytes"},     {proc_series::kPrivate, "bytes"},  {proc_series::kProcesses, "processes"},
};

// Descendants are looked up again at most this often (a scan reads every /proc/PID/stat).
constexpr std::int64_t kChildScanNs = 500'000'000;
// smaps_rollup is read at least every this many samples when it is available.
constexpr int kMaxSmapsEvery = 200;

bool smapsRollupSupported() { return ::access("/proc/self/smaps_rollup", R_OK) == 0; }

} // namespace

const ProcSeriesSpec& procSeriesSpec(int series) { return kSpecs[series]; }

std::int64_t monotonicNs() {
    timespec ts{};
    ::clock_gettime(CLOCK_MONOTONIC, &ts);
    return static_cast<std::int64_t>(ts.tv_sec) * 1'000'000'000 + ts.tv_nsec;
}

std::int64_t wallClockNs() {
    timespec ts{};
    ::clock_gettime(CLOCK_REALTIME, &ts);
    return static_cast<std::int64_t>(ts.tv_sec) * 1'000'000'000 + ts.tv_nsec;
}

ProcSampler::ProcSampler(ProcSamplerOptions options) : options_(options) {
    if (!smapsRollupSupported()) smapsEvery_ = 0;
}

void ProcSampler::check() {
    if (options_.pid <= 0) throw ProcError(ProcFailure::NoSuchProcess, "no process with pid " + std::to_string(options_.pid));
    const ProcStatus s = readProcStatus(options_.pid);
    if (!s.hasRss)
        throw ProcError(ProcFailure::Other, "process " + std::to_string(options_.pid) + " (" + s.name +
                                                ") has no memory of its own (a kernel thread?)");
    name_ = s.name;
    // Reading smaps_rollup needs the rights a debugger needs (same user, or root); status
    // does not. Refuse early, with the reason, rather than record half the series.
    if (smapsEvery_) readSmapsRollup(options_.pid);
}

void ProcSampler::rescanChildren(std::int64_t now) {
    if (lastScanNs_ >= 0 && now - lastScanNs_ < kChildScanNs) return;
    lastScanNs_ = now;
    children_ = descendantsOf(options_.pid, listParents());
}

ProcSample ProcSampler::sample() {
    ProcSample out;
    const ProcStatus root = readProcStatus(options_.pid);
    if (!root.hasRss) throw ProcError(ProcFailure::Exited, "process " + std::to_string(options_.pid) + " exited");
    std::int64_t rss = root.rss, anon = root.rssAnon, file = root.rssFile, shmem = root.rssShmem, swap = root.swap;
    std::int64_t processes = 1;
    if (options_.children) {
        rescanChildren(monotonicNs());
        for (int child : children_) {
            try {
                const ProcStatus c = readProcStatus(child);
                if (!c.hasRss) continue;
                rss += c.rss;
                anon += c.rssAnon;
                file += c.rssFile;
                shmem += c.rssShmem;
                swap += c.swap;
                ++processes;
            } catch (const ProcError&) {
                // ended or changed owner since the scan: not counted
            }
        }
        out.values[kProcesses] = processes;
    }
    out.values[kRss] = rss;
    out.values[kHwm] = root.hwm;
    out.values[kRssAnon] = anon;
    out.values[kRssFile] = file;
    out.values[kRssShmem] = shmem;
    out.values[kSwap] = swap;

    if (smapsEvery_ && ++samplesSinceSmaps_ >= smapsEvery_) {
        samplesSinceSmaps_ = 0;
        const std::int64_t begin = monotonicNs();
        ProcRollup total = readSmapsRollup(options_.pid); // NotPermitted here ends the recording
        if (options_.children)
            for (int child : children_) {
                try {
                    const ProcRollup c = readSmapsRollup(child);
                    total.pss += c.pss;
                    total.privateBytes += c.privateBytes;
                } catch (const ProcError&) {}
            }
        lastSmapsCostNs_ = monotonicNs() - begin;
        out.values[kPss] = total.pss;
        out.values[kPrivate] = total.privateBytes;
        // Keep its cost within the budget: read it every n-th sample when it is expensive.
        const double budget = options_.smapsBudget * static_cast<double>(options_.intervalNs);
        const int every = static_cast<int>(std::ceil(static_cast<double>(lastSmapsCostNs_) / std::max(1.0, budget)));
        smapsEvery_ = std::clamp(every, 1, kMaxSmapsEvery);
    }
    return out;
}

} // namespace memviz

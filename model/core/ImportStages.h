// SPDX-License-Identifier: MIT
#pragma once
// An import's stage timings (issue 33): with MEMVIZ_IMPORT_STAGES=1 set (or the older
// MEMVIZ_SNAPSHOT_STREAM_DEBUG=1), each stage prints to stderr the wall time since the import
// began, the process's CPU time (user+sys) and its resident memory (now and peak). The snapshot
// and profiler importers mark theirs, importFile() the commit. Costs nothing when unset.
#include <sys/resource.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>

namespace memviz {

inline bool importStagesOn() {
    static const bool on = std::getenv("MEMVIZ_IMPORT_STAGES") != nullptr || std::getenv("MEMVIZ_SNAPSHOT_STREAM_DEBUG") != nullptr;
    return on;
}

// `begin` restarts the wall clock (the import's first stage).
inline void importStage(const char* stage, bool begin = false) {
    if (!importStagesOn()) return;
    using Clock = std::chrono::steady_clock;
    static Clock::time_point start = Clock::now();
    if (begin) start = Clock::now();
    rusage u{};
    ::getrusage(RUSAGE_SELF, &u);
    const double cpu = static_cast<double>(u.ru_utime.tv_sec + u.ru_stime.tv_sec) +
                       static_cast<double>(u.ru_utime.tv_usec + u.ru_stime.tv_usec) / 1e6;
    long rss = 0, hwm = 0;
    if (FILE* f = std::fopen("/proc/self/status", "r")) {
        char line[256];
        while (std::fgets(line, sizeof line, f)) {
            if (!std::strncmp(line, "VmRSS:", 6)) rss = std::atol(line + 6);
            if (!std::strncmp(line, "VmHWM:", 6)) hwm = std::atol(line + 6);
        }
        std::fclose(f);
    }
    std::fprintf(stderr, "stage %-28s wall %8.3f s  cpu %8.3f s  rss %8ld KiB  peak %8ld KiB\n", stage,
                 std::chrono::duration<double>(Clock::now() - start).count(), cpu, rss, hwm);
}

} // namespace memviz

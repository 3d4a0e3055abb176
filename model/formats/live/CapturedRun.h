// SPDX-License-Identifier: MIT
#pragma once
// Runs a short helper program (gdb, heaptrack's env helper) to its end: stdin from /dev/null,
// stdout and stderr captured together, killed when it runs past a time limit (the kernel then
// detaches a killed gdb from its target, which runs on). The callers word the errors.
#include <string>
#include <vector>

namespace memviz {

struct CapturedRun {
    int spawnError = 0;     // errno of posix_spawnp (ENOENT: not on PATH); nothing ran when set
    bool timedOut = false;  // killed at the time limit
    int exitCode = 0;       // its exit status, or 128 + the signal that ended it
    std::string output;     // stdout and stderr, interleaved as written
};

// `argv[0]` is looked up on PATH. Throws std::runtime_error only when no pipe can be made.
CapturedRun runCaptured(const std::vector<std::string>& argv, int timeoutMs);

} // namespace memviz

// SPDX-License-Identifier: MIT
#pragma once
// Reading one process's memory counters from /proc: /proc/PID/status (always cheap) and
// /proc/PID/smaps_rollup (walks the page tables: its cost grows with the process' size).
// The parsers take the file's text, so tests feed them strings.
#include <cstdint>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>

namespace memviz {

// Why a process could not be read.
enum class ProcFailure {
    NoSuchProcess, // the pid does not exist (or vanished)
    Exited,        // a zombie: it ended, its parent has not reaped it yet
    NotPermitted,  // another user's process (EACCES/EPERM)
    Other,
};

class ProcError : public std::runtime_error {
public:
    ProcError(ProcFailure failure, const std::string& message) : std::runtime_error(message), failure_(failure) {}
    ProcFailure failure() const { return failure_; }

private:
    ProcFailure failure_;
};

// /proc/PID/status, bytes. Absent fields stay 0.
struct ProcStatus {
    std::string name;
    char state = '?';
    std::int64_t uid = -1; // real uid
    std::int64_t rss = 0, hwm = 0, rssAnon = 0, rssFile = 0, rssShmem = 0, swap = 0;
    bool hasRss = false; // kernel threads and zombies have no Vm* lines
};

// /proc/PID/smaps_rollup, bytes.
struct ProcRollup {
    std::int64_t pss = 0;
    std::int64_t privateBytes = 0; // Private_Clean + Private_Dirty
    std::int64_t swap = 0;
};

ProcStatus parseProcStatus(std::string_view text);
ProcRollup parseSmapsRollup(std::string_view text);

// A file under /proc/PID/ as text. Throws ProcError (NoSuchProcess for ENOENT/ESRCH,
// NotPermitted for EACCES/EPERM) naming the pid and the file.
std::string readProcFile(int pid, const char* file);

// Reads and parses; a zombie throws ProcError(Exited).
ProcStatus readProcStatus(int pid);
ProcRollup readSmapsRollup(int pid);

// The process' start time in clock ticks since boot (/proc/PID/stat field 22), or nullopt
// when it does not exist. With the pid, it names a process even after the pid is reused.
std::optional<std::int64_t> processStartTicks(int pid);
// This boot's id (/proc/sys/kernel/random/boot_id), empty when unreadable.
std::string bootId();

} // namespace memviz

// SPDX-License-Identifier: MIT
#pragma once
// The processes of this machine, read from /proc: what the process picker lists, and the
// descendants a recording with children sums in.
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace memviz {

struct ProcessEntry {
    int pid = 0;
    int ppid = 0;
    std::int64_t uid = -1;
    std::string name;        // the kernel's short name (comm)
    std::string commandLine; // arguments joined by spaces; empty for kernel threads
    std::int64_t rssBytes = 0;
    bool kernelThread = false;
};

// pid, name and parent from the text of /proc/PID/stat (the name may hold spaces and ')').
bool parseProcStat(std::string_view text, ProcessEntry& out);

// All processes that can be listed. With ownOnly, only those of the calling user (root
// sees every process). Kernel threads are left out. Processes that vanish while the table is
// read are skipped.
std::vector<ProcessEntry> listProcesses(bool ownOnly);

// Every descendant of `root` in `table` (children, their children, ...), not root itself.
std::vector<int> descendantsOf(int root, const std::vector<ProcessEntry>& table);

// A process' arguments joined by spaces (empty for kernel threads or when unreadable).
std::string processCommandLine(int pid);

// pid and parent pid of every process: the cheap scan a recording with children repeats.
std::vector<ProcessEntry> listParents();

} // namespace memviz

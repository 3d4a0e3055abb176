// SPDX-License-Identifier: MIT
#include "formats/live/ProcessTable.h"

#include <charconv>
#include <dirent.h>
#include <unistd.h>
#include <unordered_map>
#include <unordered_set>

#include "formats/live/ProcFiles.h"

namespace memviz {

namespace {

std::vector<int> numericEntries() {
    std::vector<int> pids;
    DIR* dir = ::opendir("/proc");
    if (!dir) return pids;
    while (const dirent* e = ::readdir(dir)) {
        int pid = 0;
        const char* end = e->d_name + std::char_traits<char>::length(e->d_name);
        const auto [ptr, ec] = std::from_chars(e->d_name, end, pid);
        if (ec == std::errc() && ptr == end && pid > 0) pids.push_back(pid);
    }
    ::closedir(dir);
    return pids;
}

} // namespace

std::string processCommandLine(int pid) {
    std::string raw;
    try {
        raw = readProcFile(pid, "cmdline");
    } catch (const ProcError&) {
        return {};
    }
    while (!raw.empty() && raw.back() == '\0') raw.pop_back();
    for (char& c : raw)
        if (c == '\0') c = ' ';
    return raw;
}

bool parseProcStat(std::string_view text, ProcessEntry& out) {
    const std::size_t open = text.find('(');
    const std::size_t close = text.rfind(')');
    if (open == std::string_view::npos || close == std::string_view::npos || close < open) return false;
    int pid = 0;
    if (std::from_chars(text.data(), text.data() + open, pid).ec != std::errc()) return false;
    out.pid = pid;
    out.name = std::string(text.substr(open + 1, close - open - 1));
    // After ") ": state, ppid, pgrp, session, tty, tpgid, flags ...
    std::string_view rest = text.substr(close + 1);
    if (rest.size() < 4) return false;
    rest.remove_prefix(3); // " S "
    int ppid = 0;
    if (std::from_chars(rest.data(), rest.data() + rest.size(), ppid).ec != std::errc()) return false;
    out.ppid = ppid;
    // flags is field 9; PF_KTHREAD (0x00200000) marks kernel threads.
    std::string_view f = rest;
    for (int field = 4; field < 9; ++field) {
        const std::size_t sp = f.find(' ');
        if (sp == std::string_view::npos) return true;
        f.remove_prefix(sp + 1);
    }
    unsigned long flags = 0;
    std::from_chars(f.data(), f.data() + f.size(), flags);
    out.kernelThread = (flags & 0x00200000UL) != 0;
    return true;
}

std::vector<ProcessEntry> listParents() {
    std::vector<ProcessEntry> out;
    for (int pid : numericEntries()) {
        ProcessEntry e;
        try {
            if (parseProcStat(readProcFile(pid, "stat"), e)) out.push_back(std::move(e));
        } catch (const ProcError&) {
            // vanished while listing
        }
    }
    return out;
}

std::vector<ProcessEntry> listProcesses(bool ownOnly) {
    const std::int64_t me = static_cast<std::int64_t>(::getuid());
    std::vector<ProcessEntry> out;
    for (ProcessEntry& e : listParents()) {
        if (e.kernelThread) continue;
        try {
            const ProcStatus s = parseProcStatus(readProcFile(e.pid, "status"));
            e.uid = s.uid;
            e.rssBytes = s.rss;
        } catch (const ProcError&) {
            continue;
        }
        if (ownOnly && me != 0 && e.uid != me) continue;
        e.commandLine = processCommandLine(e.pid);
        out.push_back(std::move(e));
    }
    return out;
}

std::vector<int> descendantsOf(int root, const std::vector<ProcessEntry>& table) {
    std::unordered_multimap<int, int> children;
    for (const ProcessEntry& e : table) children.emplace(e.ppid, e.pid);
    std::vector<int> out;
    std::unordered_set<int> seen{root}; // the table is not one atomic snapshot: no loops
    std::vector<int> todo{root};
    while (!todo.empty()) {
        const int p = todo.back();
        todo.pop_back();
        const auto [b, e] = children.equal_range(p);
        for (auto it = b; it != e; ++it) {
            if (!seen.insert(it->second).second) continue;
            out.push_back(it->second);
            todo.push_back(it->second);
        }
    }
    return out;
}

} // namespace memviz

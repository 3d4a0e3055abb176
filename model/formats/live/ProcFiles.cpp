// SPDX-License-Identifier: MIT
#include "formats/live/ProcFiles.h"

#include <cerrno>
#include <charconv>
#include <cstring>
#include <fcntl.h>
#include <unistd.h>

namespace memviz {

namespace {

std::string_view trim(std::string_view s) {
    while (!s.empty() && (s.front() == ' ' || s.front() == '\t')) s.remove_prefix(1);
    while (!s.empty() && (s.back() == ' ' || s.back() == '\t' || s.back() == '\r')) s.remove_suffix(1);
    return s;
}

std::int64_t leadingInt(std::string_view s) {
    s = trim(s);
    std::int64_t v = 0;
    std::from_chars(s.data(), s.data() + s.size(), v);
    return v;
}

// "  1234 kB" -> bytes. The kernel always writes kB (1024 bytes).
std::int64_t kbValue(std::string_view s) { return leadingInt(s) * 1024; }

// Calls f(key, value) for each "Key: value" line.
template <typename F>
void forEachField(std::string_view text, F&& f) {
    while (!text.empty()) {
        const std::size_t eol = text.find('\n');
        const std::string_view line = text.substr(0, eol);
        text = eol == std::string_view::npos ? std::string_view() : text.substr(eol + 1);
        const std::size_t colon = line.find(':');
        if (colon == std::string_view::npos) continue;
        f(line.substr(0, colon), line.substr(colon + 1));
    }
}

} // namespace

ProcStatus parseProcStatus(std::string_view text) {
    ProcStatus s;
    forEachField(text, [&](std::string_view key, std::string_view value) {
        if (key == "Name") s.name = std::string(trim(value));
        else if (key == "State") {
            const auto v = trim(value);
            if (!v.empty()) s.state = v.front();
        } else if (key == "Uid") s.uid = leadingInt(value);
        else if (key == "VmRSS") {
            s.rss = kbValue(value);
            s.hasRss = true;
        } else if (key == "VmHWM") s.hwm = kbValue(value);
        else if (key == "RssAnon") s.rssAnon = kbValue(value);
        else if (key == "RssFile") s.rssFile = kbValue(value);
        else if (key == "RssShmem") s.rssShmem = kbValue(value);
        else if (key == "VmSwap") s.swap = kbValue(value);
    });
    return s;
}

ProcRollup parseSmapsRollup(std::string_view text) {
    ProcRollup r;
    forEachField(text, [&](std::string_view key, std::string_view value) {
        if (key == "Pss") r.pss = kbValue(value);
        else if (key == "Private_Clean" || key == "Private_Dirty") r.privateBytes += kbValue(value);
        else if (key == "Swap") r.swap = kbValue(value);
    });
    return r;
}

std::string readProcFile(int pid, const char* file) {
    const std::string path = "/proc/" + std::to_string(pid) + "/" + file;
    const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
    std::string out;
    int err = 0;
    if (fd < 0) err = errno;
    else {
        char buf[4096];
        for (;;) {
            const ssize_t n = ::read(fd, buf, sizeof buf);
            if (n > 0) out.append(buf, static_cast<std::size_t>(n));
            else if (n == 0) break;
            else if (errno != EINTR) {
                err = errno;
                break;
            }
        }
        ::close(fd);
    }
    if (err == ENOENT || err == ESRCH) throw ProcError(ProcFailure::NoSuchProcess, "no process with pid " + std::to_string(pid));
    if (err == EACCES || err == EPERM)
        throw ProcError(ProcFailure::NotPermitted, "not permitted to read " + path + " (process " + std::to_string(pid) +
                                                       " belongs to another user; run memviz as that user or as root)");
    if (err) throw ProcError(ProcFailure::Other, "cannot read " + path + ": " + std::strerror(err));
    return out;
}

ProcStatus readProcStatus(int pid) {
    ProcStatus s = parseProcStatus(readProcFile(pid, "status"));
    if (s.state == 'Z' || s.state == 'X') throw ProcError(ProcFailure::Exited, "process " + std::to_string(pid) + " exited");
    return s;
}

ProcRollup readSmapsRollup(int pid) { return parseSmapsRollup(readProcFile(pid, "smaps_rollup")); }

std::optional<std::int64_t> processStartTicks(int pid) {
    std::string stat;
    try {
        stat = readProcFile(pid, "stat");
    } catch (const ProcError&) {
        return std::nullopt;
    }
    // The name (field 2) is in parentheses and may hold spaces and ')': skip to the last ')'.
    const std::size_t close = stat.rfind(')');
    if (close == std::string::npos) return std::nullopt;
    std::string_view rest = std::string_view(stat).substr(close + 1);
    // Fields from 3 (state) on, separated by single spaces; field 22 is the start time.
    for (int field = 3; field < 22; ++field) {
        const std::size_t sp = rest.find(' ', 1);
        if (sp == std::string_view::npos) return std::nullopt;
        rest = rest.substr(sp);
    }
    return leadingInt(rest);
}

std::string bootId() {
    const int fd = ::open("/proc/sys/kernel/random/boot_id", O_RDONLY | O_CLOEXEC);
    if (fd < 0) return {};
    char buf[64] = {};
    const ssize_t n = ::read(fd, buf, sizeof buf - 1);
    ::close(fd);
    std::string id(buf, n > 0 ? static_cast<std::size_t>(n) : 0);
    while (!id.empty() && (id.back() == '\n' || id.back() == ' ')) id.pop_back();
    return id;
}

} // namespace memviz

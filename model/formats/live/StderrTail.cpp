// SPDX-License-Identifier: MIT
#include "formats/live/StderrTail.h"

#include <cerrno>
#include <chrono>
#include <condition_variable>
#include <mutex>
#include <thread>
#include <unistd.h>
#include <vector>

namespace memviz {

namespace {

// Raw bytes kept: enough for the last lines even when a progress bar rewrote one of them
// many times over.
constexpr std::size_t kKeepBytes = 16 * 1024;

void writeAll(int fd, const char* data, std::size_t size, bool& ok) {
    while (ok && size > 0) {
        const ssize_t n = ::write(fd, data, size);
        if (n < 0 && errno == EINTR) continue;
        if (n <= 0) {
            ok = false; // our stderr is gone: keep reading, stop passing through
            return;
        }
        data += n;
        size -= static_cast<std::size_t>(n);
    }
}

// One line as a terminal leaves it: the text after the last carriage return, without escape
// sequences or other control characters.
std::string terminalLine(std::string_view line) {
    while (!line.empty() && line.back() == '\r') line.remove_suffix(1);
    if (const std::size_t cr = line.rfind('\r'); cr != std::string_view::npos) line.remove_prefix(cr + 1);
    std::string out;
    for (std::size_t i = 0; i < line.size(); ++i) {
        const auto c = static_cast<unsigned char>(line[i]);
        if (c == 0x1b) {
            if (i + 1 < line.size() && line[i + 1] == '[') { // CSI: parameters, then a final byte @..~
                i += 2;
                while (i < line.size() && !(line[i] >= '@' && line[i] <= '~')) ++i;
            } else if (i + 1 < line.size() && line[i + 1] == ']') { // OSC: up to BEL or ESC '\'
                i += 2;
                while (i < line.size() && line[i] != '\a' && !(line[i] == 0x1b && i + 1 < line.size() && line[i + 1] == '\\'))
                    ++i;
                if (i < line.size() && line[i] == 0x1b) ++i;
            } else {
                ++i; // a two-byte escape
            }
            continue;
        }
        if (c < 0x20 && c != '\t') continue;
        if (c == 0x7f) continue;
        out += static_cast<char>(c);
    }
    return out;
}

bool blank(const std::string& s) { return s.find_first_not_of(" \t") == std::string::npos; }

} // namespace

std::string lastLines(std::string_view raw, int maxLines, std::size_t maxBytes, bool cutAtStart) {
    std::vector<std::string_view> lines;
    for (std::size_t begin = 0; begin <= raw.size();) {
        std::size_t end = raw.find('\n', begin);
        if (end == std::string_view::npos) end = raw.size();
        lines.push_back(raw.substr(begin, end - begin));
        begin = end + 1;
    }
    if (cutAtStart && lines.size() > 1) lines.erase(lines.begin());
    std::vector<std::string> shown;
    for (std::string_view l : lines) shown.push_back(terminalLine(l));
    while (!shown.empty() && blank(shown.back())) shown.pop_back();
    const std::size_t keep = std::min(shown.size(), static_cast<std::size_t>(std::max(maxLines, 0)));
    std::string out;
    for (std::size_t i = shown.size() - keep; i < shown.size(); ++i) {
        if (i > shown.size() - keep) out += '\n';
        out += shown[i];
    }
    if (out.size() > maxBytes) {
        std::size_t from = out.size() - maxBytes;
        const std::size_t newline = out.find('\n', from);
        if (newline != std::string::npos && newline + 1 < out.size()) from = newline + 1;
        else
            while (from < out.size() && (static_cast<unsigned char>(out[from]) & 0xC0) == 0x80) ++from; // not mid-character
        out = out.substr(from);
    }
    return out;
}

struct StderrTail::State {
    std::mutex mutex;
    std::condition_variable ended;
    std::string bytes;
    bool cut = false;
    bool done = false;
    std::thread reader;
};

StderrTail::StderrTail(int readFd, int passThroughFd) : state_(std::make_shared<State>()) {
    state_->reader = std::thread([state = state_, readFd, passThroughFd] {
        char buffer[4096];
        bool passing = passThroughFd >= 0;
        for (;;) {
            const ssize_t n = ::read(readFd, buffer, sizeof buffer);
            if (n < 0 && errno == EINTR) continue;
            if (n <= 0) break;
            writeAll(passThroughFd, buffer, static_cast<std::size_t>(n), passing);
            std::lock_guard lock(state->mutex);
            state->bytes.append(buffer, static_cast<std::size_t>(n));
            if (state->bytes.size() > kKeepBytes) {
                state->bytes.erase(0, state->bytes.size() - kKeepBytes / 2);
                state->cut = true;
            }
        }
        ::close(readFd);
        {
            std::lock_guard lock(state->mutex);
            state->done = true;
        }
        state->ended.notify_all();
    });
}

StderrTail::~StderrTail() {
    if (state_->reader.joinable()) state_->reader.detach();
}

bool StderrTail::waitForEnd(int ms) {
    std::unique_lock lock(state_->mutex);
    return state_->ended.wait_for(lock, std::chrono::milliseconds(ms), [this] { return state_->done; });
}

std::string StderrTail::text() const {
    std::lock_guard lock(state_->mutex);
    return lastLines(state_->bytes, kMaxLines, kMaxBytes, state_->cut);
}

} // namespace memviz

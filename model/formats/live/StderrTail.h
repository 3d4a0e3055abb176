// SPDX-License-Identifier: MIT
#pragma once
// The last lines a launched program wrote to stderr, so that a window can show why it failed,
// while everything it writes still goes through to memviz's own stderr (the terminal). A
// thread reads the pipe until the program, and every process that inherited its stderr,
// closed it. Pure C++, no Qt.
#include <cstddef>
#include <memory>
#include <string>
#include <string_view>

namespace memviz {

class StderrTail {
public:
    static constexpr int kMaxLines = 20;
    static constexpr std::size_t kMaxBytes = 4096;

    // Takes the pipe's read end (and closes it at the end); what is read is also written to
    // `passThroughFd` (-1: nowhere).
    explicit StderrTail(int readFd, int passThroughFd = 2);
    // The reader goes on, on its own, until the end of the stream: a program that outlives its
    // recording keeps a working stderr for as long as memviz runs.
    ~StderrTail();
    StderrTail(const StderrTail&) = delete;
    StderrTail& operator=(const StderrTail&) = delete;

    // Waits at most `ms` for the end of the stream; true when it ended.
    bool waitForEnd(int ms);
    // lastLines() of what was read so far.
    std::string text() const;

private:
    struct State;
    std::shared_ptr<State> state_;
};

// The last `maxLines` lines of `raw` (at most `maxBytes`, cut at a line start when it can be),
// as a terminal would show them: a line rewritten with carriage returns (a progress bar) is
// its last version, ANSI escape sequences are removed, trailing empty lines dropped.
// `cutAtStart`: `raw` begins mid-line (older bytes were dropped), so its first line is partial.
std::string lastLines(std::string_view raw, int maxLines = StderrTail::kMaxLines, std::size_t maxBytes = StderrTail::kMaxBytes,
                      bool cutAtStart = false);

} // namespace memviz

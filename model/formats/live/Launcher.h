// SPDX-License-Identifier: MIT
#pragma once
// Starts a program to be recorded from its first moment: the child is forked and waits,
// stopped before exec, until the sampler is ready (release()), then execs the program. A
// program that cannot be run (not found, not executable) is reported by start(), with the
// reason, before anything is recorded.
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace memviz {

class StderrTail;

// How a process ended.
struct ExitStatus {
    std::optional<int> code;   // exit(code)
    std::optional<int> signal; // killed by this signal
    std::string text() const;  // "exited with status 3", "killed by signal 9 (Killed)"
};

class LaunchedProcess {
public:
    // Forks; the child waits for release(). Throws std::runtime_error when the program
    // cannot be found or is not executable (resolved on PATH here, before forking).
    // `workingDirectory` (empty: ours) is where the program runs; a relative program path
    // is taken relative to it. `captureStderr`: the program's stderr is a pipe that memviz
    // passes through to its own stderr, keeping the last lines (stderrTail()).
    explicit LaunchedProcess(const std::vector<std::string>& argv, const std::string& workingDirectory = {},
                             bool captureStderr = false);
    // A child never released is killed and reaped; a running one is left running.
    ~LaunchedProcess();
    LaunchedProcess(const LaunchedProcess&) = delete;
    LaunchedProcess& operator=(const LaunchedProcess&) = delete;

    int pid() const { return pid_; }
    // Lets the child exec the program. Throws std::runtime_error when exec failed (the
    // child then exits with 127 and is reaped here).
    void release();
    // Non-blocking: the exit status once the program ended (it is reaped then).
    std::optional<ExitStatus> poll();
    // Blocks until the program ends.
    ExitStatus wait();
    bool exited() const { return status_.has_value(); }
    // Sends a signal to the program (e.g. SIGTERM from the window's Terminate button); nothing
    // once it was reaped (its pid may belong to another process by then).
    void signal(int sig);
    // The program's last stderr lines; nullptr unless captured.
    StderrTail* stderrTail() const { return stderr_.get(); }

private:
    int pid_ = -1;
    int goFd_ = -1;    // parent writes one byte: exec now
    int errorFd_ = -1; // child writes errno when exec failed; closed on exec (O_CLOEXEC)
    bool released_ = false;
    std::optional<ExitStatus> status_;
    std::unique_ptr<StderrTail> stderr_;
};

// The program's full path as execve needs it: argv[0] itself when it holds a '/', else the
// first executable match on PATH. Throws std::runtime_error when there is none.
std::string resolveProgram(const std::string& program, const std::string& workingDirectory = {});

// Arguments joined by spaces, quoted where needed (for titles and messages).
std::string joinCommandLine(const std::vector<std::string>& argv);
// A command line split into words as a POSIX shell would, without running one or expanding
// anything: '…' is literal, "…" lets a backslash escape $ ` " \ and a newline, a backslash
// outside quotes escapes the next character. The inverse of joinCommandLine. Throws
// std::invalid_argument for an unterminated quote.
std::vector<std::string> splitCommandLine(std::string_view line);
// A command line on one line for titles: runs of white space become one space, and the text
// is cut at `maxChars` (with "...").
std::string oneLineTitle(const std::string& text, std::size_t maxChars = 160);

} // namespace memviz

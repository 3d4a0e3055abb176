// SPDX-License-Identifier: MIT
#pragma once
// heaptrack run by memviz itself, the way /usr/bin/heaptrack runs it, but with memviz in the
// middle of the stream (docs/formats.md, "heaptrack while it records"): a named pipe that
// libheaptrack_preload (launch) or libheaptrack_inject (attach through gdb) writes raw
// records into, read by memviz (the raw thread: every chunk goes once to a
// HeaptrackRawStream for heap consumed and the calls, then into a queue that the forwarding
// thread writes to the interpreter's stdin);
// heaptrack_interpret, in its own process group (a Ctrl+C meant for the program leaves it
// running to the end of the data); and the text thread, which takes the interpreter's output
// as it comes, hands every chunk once to a HeaptrackStream for the allocation sites and
// compresses it with zstd into the same .zst file `heaptrack` writes, which heaptrack_print
// and HeaptrackImporter read when the recording is over.
#include <atomic>
#include <condition_variable>
#include <deque>
#include <cstdint>
#include <mutex>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

#include "formats/live/HeaptrackStream.h"

namespace memviz {

class HeaptrackError : public std::runtime_error {
public:
    using std::runtime_error::runtime_error;
};

// Where heaptrack's parts are. `found` false with `problem` saying what is missing and
// which Debian package has it.
struct HeaptrackTools {
    std::string interpret, preload, inject, env;
    bool found = false;
    std::string problem;
};
// Looks beside `heaptrack` on PATH (its ../lib/heaptrack), then in /usr/lib/heaptrack.
HeaptrackTools findHeaptrack();

// What the live view reads: one consistent moment of the stream.
struct HeaptrackSnapshot {
    std::int64_t consumed = 0, peak = 0, calls = 0, timeMs = 0, bytesRead = 0;
    bool ended = false; // the interpreter's output ended (the program stopped writing)
};

class HeaptrackSession {
public:
    // Makes the pipe and starts heaptrack_interpret writing into `outputPath` (.zst).
    // Throws HeaptrackError.
    HeaptrackSession(const HeaptrackTools& tools, std::string outputPath);
    // Ends the interpreter if it still runs, removes the pipe.
    ~HeaptrackSession();
    HeaptrackSession(const HeaptrackSession&) = delete;
    HeaptrackSession& operator=(const HeaptrackSession&) = delete;

    // `env` words that make a launched program record into this session.
    std::vector<std::string> launchEnvironment() const;
    // Injects libheaptrack_inject into a running process through gdb. Throws HeaptrackError
    // (ptrace not permitted, process gone, gdb missing, ...).
    void attach(int pid);
    // Asks an attached process to stop recording (gdb: heaptrack_stop) so the data ends.
    void detach(int pid);

    HeaptrackSnapshot snapshot() const;
    // heaptrack's ticks since the last call (HeaptrackRawStream::takeTicks).
    std::vector<HeaptrackTick> takeTicks();
    std::vector<HeaptrackLiveSite> topSites(std::size_t n) const;
    // Waits until the data ended (true) or `ms` passed.
    bool waitForEnd(int ms);
    // Ends the data even though no program closed the pipe (it never opened it, or it is
    // gone); then finishes the file. Idempotent.
    void finish(int waitMs);
    const std::string& outputPath() const { return outputPath_; }
    const std::string& fifoPath() const { return fifo_; }

private:
    void readLoop();
    void rawLoop();
    void forwardLoop();
    void unblockOpen();

    HeaptrackTools tools_;
    std::string outputPath_;
    std::string dir_, fifo_;
    int interpreterPid_ = -1;
    int outFd_ = -1;     // the interpreter's stdout
    int toInterpFd_ = -1; // its stdin
    std::atomic<bool> abort_{false};
    mutable std::mutex mutex_;
    HeaptrackStream stream_;  // guarded by mutex_
    HeaptrackRawStream raw_;  // guarded by mutex_
    bool rawOpened_ = false;  // guarded by mutex_: a program opened the pipe
    std::int64_t bytesRead_ = 0;
    bool ended_ = false;
    std::string writeError_;
    std::thread reader_, rawReader_, forwarder_;
    // Raw chunks read but not yet handed to the interpreter: the program never waits for a
    // slow interpreter (it resolves symbols), only for memviz reading the pipe.
    std::mutex queueMutex_;
    std::condition_variable queueReady_;
    std::deque<std::string> queue_; // guarded by queueMutex_
    bool rawDone_ = false;          // guarded by queueMutex_
    bool finished_ = false;
};

// Runs gdb in batch mode with `args`; returns its exit code and combined output. Throws
// HeaptrackError when gdb is not installed or hangs past `timeoutMs`.
int runGdb(const std::vector<std::string>& args, std::string& output, int timeoutMs);

} // namespace memviz

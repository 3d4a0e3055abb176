// SPDX-License-Identifier: MIT
#pragma once
// Records a program's native heap through heaptrack while it runs (memviz record --native):
// launched under libheaptrack_preload, or a running process with libheaptrack_inject attached
// through gdb (HeaptrackSession). Into one live trace it writes, every interval, the
// process' /proc figures (as ProcRecorder does) beside heap consumed and the allocation rate
// that heaptrack's stream says, and the top allocation sites (live_native_sites); so RSS and
// heap consumed are drawn together. When the recording ends (Stop, --duration, the program
// exiting) the heaptrack file heaptrack wrote is imported completely as a heaptrack trace of
// the same store, with heaptrack_print's figures. Stop ends a launched program (SIGINT, then
// SIGTERM, then SIGKILL: heaptrack's data ends with it) and detaches from an attached one.
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

#include "formats/live/Launcher.h"
#include "formats/live/Recorder.h"

namespace memviz {

struct NativeRecordingOptions {
    int pid = 0;                      // attach to this process ...
    std::vector<std::string> command; // ... or launch this one (argv)
    std::string workingDirectory;     // where it runs (empty: memviz's own)
    std::int64_t intervalNs = 100'000'000;
    // The heaptrack file (.zst); empty: heaptrack.NAME.PID.zst beside the store.
    std::string heaptrackFile;
    int topSites = 20;
};

class NativeRecorder : public Recorder {
public:
    NativeRecorder(std::string storePath, NativeRecordingOptions options);
    ~NativeRecorder() override;

    // Once finished: the heaptrack file and the trace it was imported as (0 when the import
    // failed; the reason is in status().message).
    std::string heaptrackFile() const;
    std::int64_t heaptrackTraceId() const;
    // Checks made before anything starts, for the command line and the window: heaptrack
    // installed, the program found / the process there. Throws std::runtime_error.
    static void check(const NativeRecordingOptions& options);

protected:
    void run() override;

private:
    NativeRecordingOptions options_;
    mutable std::mutex resultMutex_;
    std::string heaptrackFile_;
    std::int64_t heaptrackTraceId_ = 0;
};

} // namespace memviz

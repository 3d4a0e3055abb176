// SPDX-License-Identifier: MIT
#pragma once
// Records a process' memory from /proc into a store: attached to a running pid, or launched
// by memviz and sampled from its first moment. It ends when the process ends, when asked to
// stop, when the duration is over, or when the process cannot be read any more; whatever
// was recorded is kept and finalised. A launched program that outlives its recording stays
// the recorder's child: it can still be signalled, and is reaped when it ends.
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

#include "formats/live/Launcher.h"
#include "formats/live/Recorder.h"

namespace memviz {

struct ProcRecordingOptions {
    int pid = 0;                      // attach to this process ...
    std::vector<std::string> command; // ... or launch this one (argv)
    std::string workingDirectory;     // where it runs (empty: memviz's own)
    std::int64_t intervalNs = 100'000'000;
    bool children = false;
    // Launch: keep the program's last stderr lines (RecorderStatus::stderrTail) while passing
    // everything through to ours. The window does; the command line leaves stderr alone.
    bool captureStderr = false;
};

// Shortest sampling interval (10 ms): below it, /proc reads would cost the machine more
// than they tell.
inline constexpr std::int64_t kMinIntervalNs = 10'000'000;

class ProcRecorder : public Recorder {
public:
    ProcRecorder(std::string storePath, ProcRecordingOptions options);
    // A launched program still running is left running (and reaped whenever it ends).
    ~ProcRecorder() override;
    // Sends a signal to a launched program, during the recording or after it (no-op when
    // attached or when the program ended).
    void signalProgram(int sig);
    // A launched program that has not ended yet (it may outlive the recording: Stop, --duration).
    bool programRunning();
    // How the launched program ended, once it did.
    std::optional<ExitStatus> programExit();
    // The launched program's last stderr lines so far (empty unless captureStderr).
    std::string programStderr();

protected:
    void run() override;

private:
    ProcRecordingOptions options_;
    std::mutex programMutex_; // guards launched_ (the recorder thread and the window both use it)
    std::unique_ptr<LaunchedProcess> launched_;
};

} // namespace memviz

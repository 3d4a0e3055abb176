#pragma once
// Records a process' memory from /proc into a store: attached to a running pid, or launched
// by memviz and sampled from its first moment. It ends when the process ends, when asked to
// stop, when the duration is over, or when the process cannot be read any more; whatever
// was recorded is kept and finalised.
#include <memory>
#include <string>
#include <vector>

#include "formats/live/Recorder.h"

namespace memviz {

class LaunchedProcess;

struct ProcRecordingOptions {
    int pid = 0;                      // attach to this process ...
    std::vector<std::string> command; // ... or launch this one (argv)
    std::string workingDirectory;     // where it runs (empty: memviz's own)
    std::int64_t intervalNs = 100'000'000;
    bool children = false;
};

// Shortest sampling interval (10 ms): below it, /proc reads would cost the machine more
// than they tell.
inline constexpr std::int64_t kMinIntervalNs = 10'000'000;

class ProcRecorder : public Recorder {
public:
    ProcRecorder(std::string storePath, ProcRecordingOptions options);
    ~ProcRecorder() override;
    // Sends a signal to a launched program (no-op when attached or when it ended).
    void signalProgram(int sig);

protected:
    void run() override;

private:
    ProcRecordingOptions options_;
    std::unique_ptr<LaunchedProcess> launched_;
    std::atomic<int> launchedPid_{0};
};

} // namespace memviz

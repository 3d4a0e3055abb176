// SPDX-License-Identifier: MIT
#pragma once
// memviz record --pid PID --probe: a ProbeRecorder listening on a fresh private Unix socket,
// and the probe injected into the running Python to connect to it (ProbeInjector). The
// recording is then exactly a --listen recording; this owns the socket's directory.
#include <memory>
#include <string>

#include "formats/live/ProbeRecorder.h"

namespace memviz::cli {

class AttachedProbe {
public:
    // Listens, then injects. Throws ProbeInjectError (or std::runtime_error when it cannot
    // listen) with the message to print; nothing is recorded then.
    AttachedProbe(int pid, const std::string& store, const std::string& mode);
    ~AttachedProbe(); // removes the socket's directory
    AttachedProbe(const AttachedProbe&) = delete;
    AttachedProbe& operator=(const AttachedProbe&) = delete;

    // Hands the recorder over (once); this object keeps only the directory.
    std::unique_ptr<ProbeRecorder> takeRecorder() { return std::move(recorder_); }
    // Why the probe has not connected yet, when it never will: the target exited. Empty
    // while it may still come.
    std::string waitProblem() const;

private:
    int pid_;
    std::string dir_;
    std::unique_ptr<ProbeRecorder> recorder_;
};

} // namespace memviz::cli

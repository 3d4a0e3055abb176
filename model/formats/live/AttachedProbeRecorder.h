// SPDX-License-Identifier: MIT
#pragma once
// The PyTorch probe attached to a running Python (memviz record --pid PID --probe, and the
// process picker's "Attach the PyTorch Probe"): a ProbeRecorder listening on a fresh Unix
// socket in a private directory, which, on its own thread, first injects the probe through
// gdb (ProbeInjector) and then records exactly as --listen does. An injection that fails
// ends the recording as Failed with ProbeInjectError's message, before the store is touched.
#include <string>

#include "formats/live/ProbeRecorder.h"

namespace memviz {

class AttachedProbeRecorder : public ProbeRecorder {
public:
    // Listens at once (throws std::runtime_error when it cannot); `probeDir` holds
    // the package memviz_probe/; `mode` is "op" or "module".
    AttachedProbeRecorder(std::string storePath, int pid, std::string probeDir, std::string mode = "op");
    ~AttachedProbeRecorder() override; // stops, then removes the socket's directory

    int pid() const { return pid_; }
    // Why the probe has not connected yet when it never will (the target exited, a zombie
    // included); empty while it may still come.
    std::string waitProblem() const;

protected:
    void run() override;

private:
    AttachedProbeRecorder(std::string storePath, int pid, std::string probeDir, std::string mode, std::string dir);

    int pid_;
    std::string probeDir_, mode_, dir_;
};

} // namespace memviz

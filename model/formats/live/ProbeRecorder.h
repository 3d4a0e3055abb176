// SPDX-License-Identifier: MIT
#pragma once
// Listens for the PyTorch probe and records its stream into a store: operator (or module)
// records with their memory, phases, training steps and marks. The trace row is created when
// a probe connects; the recording ends when the script ends (the probe says bye, or the
// connection drops), when asked to stop, or when the duration is over.
#include <string>

#include "formats/live/ProbeSocket.h"
#include "formats/live/Recorder.h"

namespace memviz {

class ProbeRecorder : public Recorder {
public:
    // Listens at once (so the address is known and taken before start()); throws
    // std::runtime_error when it cannot.
    ProbeRecorder(std::string storePath, const ProbeAddress& address);
    ~ProbeRecorder() override;

    // Where the probe must connect (with the real port when port 0 was asked for).
    ProbeAddress address() const { return listener_.address(); }
    // Give up waiting for a probe after this long (0 = wait until stopped).
    void setAcceptTimeoutNs(std::int64_t ns) { acceptTimeoutNs_ = ns; }

protected:
    void run() override;

private:
    ProbeListener listener_;
    std::int64_t acceptTimeoutNs_ = 0;
};

} // namespace memviz

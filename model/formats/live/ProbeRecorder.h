// SPDX-License-Identifier: MIT
#pragma once
// Listens for the PyTorch probe and records its stream into a store: operator (or module)
// records with their memory, phases, training steps and marks. A trace row is created when
// a probe connects. With setAcceptSeveral (memviz record --listen), several probes may
// connect at once — the ranks of a distributed job — and each process becomes a trace of
// its own in the same store, named by its rank. A probe's trace ends when its script ends
// (the probe says bye, or the connection drops); the recording ends when asked to stop,
// when the duration is over, or, once every probe has gone, when no new one came within
// the grace period (one probe: as soon as it has gone, unless several are accepted).
#include <cstdint>
#include <mutex>
#include <string>
#include <vector>

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
    // Give up waiting for the first probe after this long (0 = wait until stopped).
    void setAcceptTimeoutNs(std::int64_t ns) { acceptTimeoutNs_ = ns; }
    // Accept more probes while recording (each its own trace); the recording ends `graceNs`
    // after the last one went, when no other connected meanwhile. Off by default: the
    // first probe is the only one, a second one is refused and runs on unharmed.
    void setAcceptSeveral(bool several, std::int64_t graceNs = 2'000'000'000) {
        several_ = several;
        graceNs_ = graceNs;
    }
    // Every trace recorded so far, in the order the probes connected (safe from any thread).
    std::vector<std::int64_t> traceIds() const;

protected:
    void run() override;

private:
    struct Connection;
    void finish(Connection& c);

    ProbeListener listener_;
    std::int64_t acceptTimeoutNs_ = 0;
    bool several_ = false;
    std::int64_t graceNs_ = 0;
    mutable std::mutex idsMutex_;
    std::vector<std::int64_t> traceIds_;
};

} // namespace memviz

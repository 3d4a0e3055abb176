// SPDX-License-Identifier: MIT
#pragma once
// A live recording running on its own thread, with its own store connection: the /proc
// sampler (ProcRecorder) or the probe stream (ProbeRecorder). Other threads (the window,
// the command line) start and stop it, add markers, and read its status; they never wait
// on /proc or a socket.
#include <atomic>
#include <condition_variable>
#include <cstdint>
#include <functional>
#include <mutex>
#include <optional>
#include <string>
#include <thread>
#include <vector>

#include "formats/live/LiveWriter.h"

namespace memviz {

struct ExitStatus;

struct RecorderStatus {
    enum class State { Starting, Waiting, Recording, Finished, Failed };
    State state = State::Starting;
    std::int64_t traceId = 0;          // 0 until the trace row exists
    std::int64_t committedSamples = 0; // sampling moments committed, not rows: one reading of all series counts once
    std::int64_t lastT = 0;            // newest sample time, ns from the recording's start
    std::string message;               // what happened, in words (errors, how it ended)
    std::string endReason;             // live_recordings.end_reason once finished
    std::optional<int> exitCode;       // the recorded program's, when memviz saw it end
    std::optional<int> exitSignal;
    std::string stderrTail; // a launched program's last stderr lines, once it ended (when captured)
    int targetPid = 0;
    std::string targetName;
    std::vector<std::pair<std::string, std::int64_t>> latest; // last value per series, for read-outs

    bool done() const { return state == State::Finished || state == State::Failed; }
};

class Recorder {
public:
    // Called on the recorder thread after every commit (for progress output).
    using CommitCallback = std::function<void(const RecorderStatus&)>;

    explicit Recorder(std::string storePath);
    virtual ~Recorder(); // stops and joins
    Recorder(const Recorder&) = delete;
    Recorder& operator=(const Recorder&) = delete;

    void start();
    // Asks the recording to stop (it finalises the trace, then the thread ends).
    void stop();
    // Blocks until the thread ended.
    void wait();
    // Waits at most `ms`; true when the thread ended.
    bool waitFor(int ms);
    // A labelled point in time, stored as a user marker at the moment of the call.
    void addMarker(const std::string& label);
    RecorderStatus status() const;
    const std::string& storePath() const { return storePath_; }
    // Stop after this long (ns from the start of recording; 0 = until stopped).
    void setDurationNs(std::int64_t ns) { durationNs_ = ns; }
    void setCommitIntervalNs(std::int64_t ns) { commitIntervalNs_ = ns; }
    void setCommitCallback(CommitCallback cb) { onCommit_ = std::move(cb); }

protected:
    virtual void run() = 0;

    bool stopRequested() const { return stop_.load(); }
    // Sleeps until `deadlineNs` (monotonic) or until stop()/addMarker wake it.
    void sleepUntil(std::int64_t deadlineNs);
    // Writes the queued user markers at time t.
    void flushMarkers(LiveWriter& writer, std::int64_t t);
    void commitIfDue(LiveWriter& writer, std::int64_t nowNs);
    void commitNow(LiveWriter& writer);
    template <typename F>
    void updateStatus(F&& f) {
        std::lock_guard lock(statusMutex_);
        f(status_);
    }
    std::int64_t durationNs() const { return durationNs_; }
    std::int64_t commitIntervalNs() const { return commitIntervalNs_; }
    // How the recording ends at time t (ns from its start) when stop() was called or the
    // duration is up; nothing while it goes on.
    std::optional<LiveEnd> stopOrDurationEnd(std::int64_t t) const;
    // How it ends when the recorded program (`who`, in words) ended with `status`.
    static LiveEnd programEnd(const ExitStatus& status, const std::string& who);

private:
    void commitNotify(LiveWriter& writer);

    std::string storePath_;
    std::atomic<bool> stop_{false};
    std::int64_t durationNs_ = 0;
    std::int64_t commitIntervalNs_ = 250'000'000;
    CommitCallback onCommit_;
    mutable std::mutex statusMutex_;
    RecorderStatus status_;
    std::mutex wakeMutex_;
    std::condition_variable wake_;
    std::vector<std::string> markers_; // guarded by wakeMutex_
    std::thread thread_;
    std::mutex joinMutex_;
    std::condition_variable ended_;
    bool threadEnded_ = false; // guarded by joinMutex_
};

} // namespace memviz

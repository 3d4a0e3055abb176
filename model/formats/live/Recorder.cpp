// SPDX-License-Identifier: MIT
#include "formats/live/Recorder.h"

#include <chrono>
#include <csignal>

#include "words/Units.h"
#include "formats/live/Launcher.h"
#include "formats/live/LiveWriter.h"
#include "formats/live/ProcSampler.h"

namespace memviz {

Recorder::Recorder(std::string storePath) : storePath_(std::move(storePath)) {}

Recorder::~Recorder() {
    stop();
    if (thread_.joinable()) thread_.join();
}

void Recorder::start() {
    if (thread_.joinable()) return;
    // A program or probe that goes away must not kill the recorder with SIGPIPE.
    std::signal(SIGPIPE, SIG_IGN);
    thread_ = std::thread([this] {
        try {
            run();
        } catch (const std::exception& e) {
            updateStatus([&](RecorderStatus& s) {
                s.state = RecorderStatus::State::Failed;
                s.message = e.what();
            });
        }
        {
            std::lock_guard lock(joinMutex_);
            threadEnded_ = true;
        }
        ended_.notify_all();
    });
}

LiveEnd Recorder::programEnd(const ExitStatus& status, const std::string& who) {
    return LiveEnd{"exited", status.code, status.signal, who + " " + status.text()};
}

std::optional<LiveEnd> Recorder::stopOrDurationEnd(std::int64_t t) const {
    if (stopRequested()) return LiveEnd{"stopped", std::nullopt, std::nullopt, "recording stopped"};
    if (durationNs() > 0 && t >= durationNs())
        return LiveEnd{"duration", std::nullopt, std::nullopt, "recorded for " + formatDuration(static_cast<double>(durationNs()))};
    return std::nullopt;
}

void Recorder::stop() {
    stop_ = true;
    std::lock_guard lock(wakeMutex_);
    wake_.notify_all();
}

void Recorder::wait() {
    if (thread_.joinable()) thread_.join();
}

bool Recorder::waitFor(int ms) {
    std::unique_lock lock(joinMutex_);
    return ended_.wait_for(lock, std::chrono::milliseconds(ms), [this] { return threadEnded_; });
}

void Recorder::addMarker(const std::string& label) {
    std::lock_guard lock(wakeMutex_);
    markers_.push_back(label);
    wake_.notify_all();
}

RecorderStatus Recorder::status() const {
    std::lock_guard lock(statusMutex_);
    return status_;
}

void Recorder::sleepUntil(std::int64_t deadlineNs) {
    std::unique_lock lock(wakeMutex_);
    while (!stop_ && markers_.empty()) {
        const std::int64_t left = deadlineNs - monotonicNs();
        if (left <= 0) return;
        wake_.wait_for(lock, std::chrono::nanoseconds(left));
    }
}

void Recorder::flushMarkers(LiveWriter& writer, std::int64_t t) {
    std::vector<std::string> labels;
    {
        std::lock_guard lock(wakeMutex_);
        labels.swap(markers_);
    }
    for (const std::string& label : labels) writer.addMarker(t, "user", label);
}

void Recorder::commitIfDue(LiveWriter& writer, std::int64_t nowNs) {
    if (writer.commitIfDue(nowNs)) commitNotify(writer);
}

void Recorder::commitNow(LiveWriter& writer) {
    writer.commit();
    commitNotify(writer);
}

void Recorder::commitNotify(LiveWriter& writer) {
    RecorderStatus copy;
    updateStatus([&](RecorderStatus& s) {
        s.committedSamples = writer.committedMoments();
        copy = s;
    });
    if (onCommit_) onCommit_(copy);
}

} // namespace memviz

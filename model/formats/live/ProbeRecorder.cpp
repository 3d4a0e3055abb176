// SPDX-License-Identifier: MIT
// One or several probe streams into a store, each its own trace (see ProbeRecorder.h).
// Everything runs on the recorder thread with one store connection; the live writers share
// it, so before another writer writes, the one with an open transaction commits
// (LiveWriter transactions cannot nest).
#include "formats/live/ProbeRecorder.h"

#include <ctime>
#include <memory>
#include <optional>
#include <stdexcept>

#include "words/Units.h"
#include "formats/FormatIds.h"
#include "formats/live/LiveFinalizer.h"
#include "formats/live/LiveWriter.h"
#include "formats/live/ProbeStreamWriter.h"
#include "formats/live/ProcSampler.h"
#include "store/Database.h"

namespace memviz {

namespace {

constexpr int kPollMs = 100;
constexpr int kIdlePollMs = 10;     // several probes: how long a round without data waits
constexpr int kLinesPerTurn = 4096; // several probes: lines read from one before the next
constexpr std::int64_t kStatusEveryNs = 50'000'000;

} // namespace

struct ProbeRecorder::Connection {
    Connection(int fd, Database& db, const LiveRecordingSpec& spec) : socket(fd), writer(db, spec), stream(writer) {}
    ProbeConnection socket;
    LiveWriter writer;
    ProbeStreamWriter stream;
    LiveEnd end;
    bool done = false;
    // "rank 1" or "pid 4242", for messages naming the probe among several.
    std::string name() const {
        if (stream.rank()) return "rank " + std::to_string(*stream.rank());
        if (stream.pid()) return "pid " + std::to_string(stream.pid());
        return "trace " + std::to_string(writer.traceId());
    }
};

ProbeRecorder::ProbeRecorder(std::string storePath, const ProbeAddress& address)
    : Recorder(std::move(storePath)), listener_(address) {}

ProbeRecorder::~ProbeRecorder() {
    stop();
    wait();
}

std::vector<std::int64_t> ProbeRecorder::traceIds() const {
    std::lock_guard lock(idsMutex_);
    return traceIds_;
}

// Ends one probe's trace: what it said about itself, then the ordinary trace shape.
void ProbeRecorder::finish(Connection& c) {
    LiveWriter& writer = c.writer;
    ProbeStreamWriter& stream = c.stream;
    LiveEnd& end = c.end;
    if (stream.malformed() > 0) {
        writer.setMetadata(metadata_key::kProbeMalformedLines,
                           std::to_string(stream.malformed()) + " (first: " + stream.firstMalformed() + ")");
        end.message += "; " + std::to_string(stream.malformed()) +
                       " malformed line(s) skipped (first: " + stream.firstMalformed() + ")";
    }
    if (stream.dropped() > 0)
        end.message += "; the probe dropped " + std::to_string(stream.dropped()) + " record(s) (memviz read too slowly)";
    const std::int64_t tEnd = stream.probeTimeAt(monotonicNs());
    flushMarkers(writer, tEnd);
    if (end.exitCode) writer.addMarker(stream.lastT(), "exit", "exited with status " + std::to_string(*end.exitCode));
    writer.setEnd(end);
    commitNow(writer);
    finalizeLiveRecording(writer.database(), writer.traceId());
    c.done = true;
}

void ProbeRecorder::run() {
    using State = RecorderStatus::State;
    const std::string where = listener_.address().text();
    updateStatus([&](RecorderStatus& s) {
        s.state = State::Waiting;
        s.message = "waiting for a probe on " + where;
    });
    const std::int64_t waitStart = monotonicNs();
    std::optional<Database> db; // opened when the first probe connects: a wait alone leaves the store alone
    std::vector<std::unique_ptr<Connection>> connections;
    LiveWriter* open = nullptr; // the writer that may hold the store's open transaction
    const auto use = [&](LiveWriter* w) {
        if (open && open != w) commitNow(*open);
        open = w;
    };
    std::int64_t firstAt = -1;   // when the first probe connected (--duration counts from there)
    std::int64_t lastGoneAt = 0; // when the last active probe went
    std::int64_t statusAt = 0;
    bool idleRound = false; // several probes: the last round read nothing (the next waits a little)
    const auto active = [&] {
        int n = 0;
        for (const auto& c : connections) n += c->done ? 0 : 1;
        return n;
    };
    const auto endAll = [&](const std::string& reason, const std::string& message) {
        for (auto& c : connections) {
            if (c->done) continue;
            c->end.reason = reason;
            c->end.message = message;
            use(&c->writer);
            finish(*c);
        }
    };

    try {
        for (;;) {
            // New probes: the first one waits here; more only when several are accepted.
            if (connections.empty() || several_) {
                const int fd = listener_.accept(connections.empty() ? kPollMs : idleRound ? kIdlePollMs : 0);
                if (fd >= 0) {
                    if (!db) db.emplace(storePath());
                    use(nullptr);
                    LiveRecordingSpec spec;
                    spec.source = "probe";
                    spec.format = format_id::kLiveProbe;
                    spec.title = "PyTorch probe on " + where;
                    spec.epochNs = wallClockNs();
                    connections.push_back(std::make_unique<Connection>(fd, *db, spec));
                    Connection& c = *connections.back();
                    c.writer.setCommitIntervalNs(commitIntervalNs());
                    if (firstAt < 0) firstAt = monotonicNs();
                    {
                        std::lock_guard lock(idsMutex_);
                        traceIds_.push_back(c.writer.traceId());
                    }
                    const std::size_t count = connections.size();
                    updateStatus([&](RecorderStatus& s) {
                        s.state = State::Recording;
                        if (!s.traceId) s.traceId = c.writer.traceId();
                        s.message = count == 1 ? "probe connected" : std::to_string(count) + " probes connected";
                    });
                    // One probe per recording unless several are accepted: a second one
                    // is refused and runs on unharmed.
                    if (!several_) listener_.close();
                }
            }
            if (connections.empty()) {
                if (stopRequested()) {
                    updateStatus([](RecorderStatus& s) {
                        s.state = State::Finished;
                        s.endReason = "stopped";
                        s.message = "stopped before a probe connected; nothing was recorded";
                    });
                    return;
                }
                if (acceptTimeoutNs_ > 0 && monotonicNs() - waitStart > acceptTimeoutNs_)
                    throw std::runtime_error("no probe connected to " + where + " within " +
                                             formatDuration(static_cast<double>(acceptTimeoutNs_)));
                continue;
            }

            // Each active probe's lines: one alone waits for data as before; among several,
            // each gets a turn of what it has sent, and an idle round waits on the listener.
            const bool single = !several_;
            idleRound = true;
            for (auto& cp : connections) {
                Connection& c = *cp;
                if (c.done) continue;
                std::string line;
                for (int n = 0; n < kLinesPerTurn; ++n) {
                    const auto result = c.socket.next(line, single ? kPollMs : 0);
                    const std::int64_t now = monotonicNs();
                    if (result == ProbeConnection::Result::Timeout) break;
                    idleRound = false;
                    use(&c.writer);
                    if (result == ProbeConnection::Result::Closed) {
                        c.end.reason = "disconnected";
                        c.end.message = "the probe disconnected without saying goodbye (the script was killed or crashed)";
                        finish(c);
                        break;
                    }
                    try {
                        c.stream.applyLine(line, now);
                    } catch (const ProbeProtocolError& e) {
                        c.end.reason = "error";
                        c.end.message = e.what();
                        finish(c);
                        break;
                    }
                    if (c.stream.saidBye()) {
                        c.end.reason = "exited";
                        c.end.exitCode = c.stream.exitCode();
                        c.end.message = "the script " + (c.stream.exitCode()
                                                             ? "exited with status " + std::to_string(*c.stream.exitCode())
                                                             : std::string("ended"));
                        if (!c.stream.error().empty()) c.end.message += ": " + c.stream.error();
                        finish(c);
                        break;
                    }
                    if (single) break;
                }
            }
            const std::int64_t now = monotonicNs();
            const int stillActive = active();
            if (stillActive == 0) {
                if (!several_) break;
                if (lastGoneAt == 0) lastGoneAt = now;
                if (now - lastGoneAt >= graceNs_ || stopRequested()) break;
                continue;
            }
            lastGoneAt = 0;
            if (stopRequested()) {
                endAll("stopped", "recording stopped");
                break;
            }
            if (durationNs() > 0 && now - firstAt >= durationNs()) {
                endAll("duration", "recorded for " + formatDuration(static_cast<double>(durationNs())));
                break;
            }
            // Markers asked for by hand go to the first probe still recording.
            for (auto& c : connections) {
                if (c->done) continue;
                use(&c->writer);
                flushMarkers(c->writer, c->stream.probeTimeAt(now));
                break;
            }
            if (now - statusAt >= kStatusEveryNs) { // not per line: a busy stream has thousands a second
                statusAt = now;
                for (auto& c : connections) {
                    if (c->done) continue;
                    updateStatus([&](RecorderStatus& s) {
                        s.lastT = c->stream.lastT();
                        s.latest = c->stream.latest();
                        if (c->stream.saidHello()) s.targetName = c->stream.scriptTitle();
                    });
                    break;
                }
            }
            if (open) commitIfDue(*open, now);
        }
    } catch (const std::exception& e) {
        // Whatever goes wrong (the store, say), what was recorded is kept and finalised,
        // and the reason is stored with it.
        if (connections.empty()) throw;
        endAll("error", e.what());
    }
    listener_.close();

    // How it ended: one probe's own words, or each probe's among several.
    std::string reason, message;
    std::optional<int> exitCode;
    std::int64_t lastT = 0;
    for (const auto& c : connections) {
        if (reason.empty() || (reason == "exited" && c->end.reason != "exited")) reason = c->end.reason;
        if (c->end.exitCode && (!exitCode || *exitCode == 0)) exitCode = c->end.exitCode;
        message += (message.empty() ? "" : "\n") + (connections.size() > 1 ? c->name() + ": " : std::string()) + c->end.message;
        if (c->stream.lastT() > lastT) lastT = c->stream.lastT();
    }
    updateStatus([&](RecorderStatus& s) {
        s.state = State::Finished;
        s.endReason = reason;
        s.exitCode = exitCode;
        s.message = message;
        s.lastT = lastT;
    });
}

} // namespace memviz

// SPDX-License-Identifier: MIT
#include "formats/live/ProbeRecorder.h"

#include <ctime>
#include <stdexcept>

#include "core/Units.h"
#include "formats/FormatIds.h"
#include "formats/live/LiveFinalizer.h"
#include "formats/live/LiveWriter.h"
#include "formats/live/ProbeStreamWriter.h"
#include "formats/live/ProcSampler.h"
#include "store/Database.h"

namespace memviz {

namespace {

constexpr int kPollMs = 100;
constexpr std::int64_t kStatusEveryNs = 50'000'000;

std::int64_t wallClockNs() {
    timespec ts{};
    ::clock_gettime(CLOCK_REALTIME, &ts);
    return static_cast<std::int64_t>(ts.tv_sec) * 1'000'000'000 + ts.tv_nsec;
}

} // namespace

ProbeRecorder::ProbeRecorder(std::string storePath, const ProbeAddress& address)
    : Recorder(std::move(storePath)), listener_(address) {}

ProbeRecorder::~ProbeRecorder() {
    stop();
    wait();
}

void ProbeRecorder::run() {
    using State = RecorderStatus::State;
    const std::string where = listener_.address().text();
    updateStatus([&](RecorderStatus& s) {
        s.state = State::Waiting;
        s.message = "waiting for a probe on " + where;
    });
    const std::int64_t waitStart = monotonicNs();
    int fd = -1;
    while (fd < 0) {
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
        fd = listener_.accept(kPollMs);
    }
    listener_.close(); // one probe per recording: a second one is refused and runs on unharmed
    ProbeConnection connection(fd);

    Database db(storePath());
    LiveRecordingSpec spec;
    spec.source = "probe";
    spec.format = format_id::kLiveProbe;
    spec.title = "PyTorch probe on " + where;
    spec.epochNs = wallClockNs();
    LiveWriter writer(db, spec);
    writer.setCommitIntervalNs(commitIntervalNs());
    ProbeStreamWriter stream(writer);
    const std::int64_t connectedAt = monotonicNs();
    updateStatus([&](RecorderStatus& s) {
        s.state = State::Recording;
        s.traceId = writer.traceId();
        s.message = "probe connected";
    });

    LiveEnd end;
    std::string line;
    std::int64_t statusAt = 0;
    // Whatever goes wrong from here on (the store, say), what was recorded is kept and
    // finalised, and the reason is stored with it.
    try {
        for (;;) {
            const auto result = connection.next(line, kPollMs);
            const std::int64_t now = monotonicNs();
            if (result == ProbeConnection::Result::Line) {
                try {
                    stream.applyLine(line, now);
                } catch (const ProbeProtocolError& e) {
                    end.reason = "error";
                    end.message = e.what();
                    break;
                }
                if (stream.saidBye()) {
                    end.reason = "exited";
                    end.exitCode = stream.exitCode();
                    end.message = "the script " + (stream.exitCode() ? "exited with status " + std::to_string(*stream.exitCode())
                                                                     : std::string("ended"));
                    if (!stream.error().empty()) end.message += ": " + stream.error();
                    break;
                }
            } else if (result == ProbeConnection::Result::Closed) {
                end.reason = "disconnected";
                end.message = "the probe disconnected without saying goodbye (the script was killed or crashed)";
                break;
            }
            if (stopRequested()) {
                end.reason = "stopped";
                end.message = "recording stopped";
                break;
            }
            if (durationNs() > 0 && now - connectedAt >= durationNs()) {
                end.reason = "duration";
                end.message = "recorded for " + formatDuration(static_cast<double>(durationNs()));
                break;
            }
            flushMarkers(writer, stream.probeTimeAt(now));
            if (now - statusAt >= kStatusEveryNs) { // not per line: a busy stream has thousands a second
                statusAt = now;
                updateStatus([&](RecorderStatus& s) {
                    s.lastT = stream.lastT();
                    s.latest = stream.latest();
                    if (stream.saidHello()) s.targetName = stream.scriptTitle();
                });
            }
            commitIfDue(writer, now);
        }
    } catch (const std::exception& e) {
        end.reason = "error";
        end.message = e.what();
    }
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
    finalizeLiveRecording(db, writer.traceId());
    updateStatus([&](RecorderStatus& s) {
        s.state = State::Finished;
        s.endReason = end.reason;
        s.exitCode = end.exitCode;
        s.message = end.message;
        s.lastT = stream.lastT();
    });
}

} // namespace memviz

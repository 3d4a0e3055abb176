// SPDX-License-Identifier: MIT
#include "formats/live/ProcRecorder.h"

#include <array>
#include <filesystem>
#include <csignal>
#include <ctime>
#include <optional>
#include <stdexcept>
#include <sys/wait.h>

#include "words/Units.h"
#include "formats/FormatIds.h"
#include "formats/live/Launcher.h"
#include "formats/live/LiveFinalizer.h"
#include "formats/live/LiveWriter.h"
#include "formats/live/ProcFiles.h"
#include "formats/live/ProcSampler.h"
#include "formats/live/ProcessTable.h"
#include "formats/live/StderrTail.h"
#include "store/Database.h"

namespace memviz {

namespace {

} // namespace

ProcRecorder::ProcRecorder(std::string storePath, ProcRecordingOptions options)
    : Recorder(std::move(storePath)), options_(std::move(options)) {}

ProcRecorder::~ProcRecorder() {
    stop();
    wait(); // the thread uses launched_: join before it goes
    std::lock_guard lock(programMutex_);
    if (launched_ && !launched_->poll()) {
        // Reap the program whenever it ends, so it never lingers as a zombie of ours.
        const int child = launched_->pid();
        std::thread([child] {
            int raw = 0;
            ::waitpid(child, &raw, 0);
        }).detach();
    }
}

void ProcRecorder::signalProgram(int sig) {
    std::lock_guard lock(programMutex_);
    if (launched_ && !launched_->poll()) launched_->signal(sig); // reaped first: never a recycled pid
}

bool ProcRecorder::programRunning() {
    std::lock_guard lock(programMutex_);
    return launched_ && !launched_->poll();
}

std::optional<ExitStatus> ProcRecorder::programExit() {
    std::lock_guard lock(programMutex_);
    return launched_ ? launched_->poll() : std::nullopt;
}

std::string ProcRecorder::programStderr() {
    StderrTail* tail = nullptr;
    {
        std::lock_guard lock(programMutex_);
        tail = launched_ ? launched_->stderrTail() : nullptr;
    }
    return tail ? tail->text() : std::string();
}

void ProcRecorder::run() {
    const bool launch = !options_.command.empty();
    if (options_.intervalNs < kMinIntervalNs)
        throw std::runtime_error("the sampling interval must be at least " + formatDuration(static_cast<double>(kMinIntervalNs)));
    int pid = options_.pid;
    std::string name, commandLine;
    std::optional<ProcSampler> attached;
    if (!launch) {
        // No such process, not permitted: refused before the store is touched.
        attached.emplace(ProcSamplerOptions{pid, options_.children, options_.intervalNs});
        attached->check();
    }
    if (launch)
        resolveProgram(options_.command.front(),
                       options_.workingDirectory); // not found, not executable: refused before the store is touched
    Database db(storePath());
    if (launch) {
        {
            std::lock_guard lock(programMutex_);
            // throws: not found, not executable
            launched_ = std::make_unique<LaunchedProcess>(options_.command, options_.workingDirectory, options_.captureStderr);
            pid = launched_->pid();
        }
        name = std::filesystem::path(options_.command.front()).filename().string();
        commandLine = joinCommandLine(options_.command);
    }
    ProcSampler sampler = attached ? *attached : ProcSampler({pid, options_.children, options_.intervalNs});
    if (!launch) {
        name = sampler.processName();
        commandLine = processCommandLine(pid);
        if (commandLine.empty()) commandLine = name;
    }

    LiveRecordingSpec spec;
    spec.source = launch ? "launch" : "attach";
    spec.format = format_id::kLiveProc;
    spec.title = oneLineTitle(commandLine) + " (pid " + std::to_string(pid) + ")";
    spec.command = commandLine;
    spec.targetPid = pid;
    spec.intervalNs = options_.intervalNs;
    spec.children = options_.children;
    spec.epochNs = wallClockNs();
    const std::int64_t t0 = monotonicNs();
    LiveWriter writer(db, spec);
    writer.setCommitIntervalNs(commitIntervalNs());
    writer.setMetadata(metadata_key::kLiveMonotonicStart, std::to_string(t0));
    std::array<int, kProcSeriesCount> seriesOf{};
    seriesOf.fill(-1);
    for (int i = 0; i < kProcSeriesCount; ++i) {
        if (i == kProcesses && !options_.children) continue;
        if ((i == kPss || i == kPrivate) && sampler.smapsEvery() == 0) continue;
        seriesOf[static_cast<std::size_t>(i)] = writer.addSeries(
            {device_name::kProcess, procSeriesSpec(i).name, procSeriesSpec(i).unit, i == kRss});
    }
    writer.commit();
    updateStatus([&](RecorderStatus& s) {
        s.state = RecorderStatus::State::Recording;
        s.traceId = writer.traceId();
        s.targetPid = pid;
        s.targetName = name;
    });
    if (launch) {
        try {
            std::lock_guard lock(programMutex_);
            launched_->release();
        } catch (...) {
            // exec failed: the program never ran, so there is no recording to keep.
            db.exec("DELETE FROM traces WHERE id = " + std::to_string(writer.traceId()));
            updateStatus([](RecorderStatus& s) { s.traceId = 0; });
            throw;
        }
    }

    const auto who = name + " (pid " + std::to_string(pid) + ")";
    LiveEnd end;
    bool alive = true;
    auto writeSample = [&](std::int64_t t) {
        const ProcSample sample = sampler.sample();
        std::vector<std::pair<std::string, std::int64_t>> latest;
        for (int i = 0; i < kProcSeriesCount; ++i) {
            const auto& v = sample.values[static_cast<std::size_t>(i)];
            const int series = seriesOf[static_cast<std::size_t>(i)];
            if (!v || series < 0) continue;
            writer.addSample(series, t, *v);
            latest.emplace_back(procSeriesSpec(i).name, *v);
        }
        updateStatus([&](RecorderStatus& s) {
            s.lastT = t;
            s.latest = std::move(latest);
        });
    };
    std::int64_t next = t0;
    // Whatever goes wrong from here on (the store, say), what was recorded is kept and
    // finalised, and the reason is stored with it.
    try {
        for (;;) {
            const std::int64_t now = monotonicNs();
            const std::int64_t t = now - t0;
            if (launch) {
                if (const auto status = programExit()) {
                    end = programEnd(*status, who);
                    alive = false;
                    break;
                }
            }
            if (auto stopped = stopOrDurationEnd(t)) {
                end = std::move(*stopped);
                break;
            }
            if (now >= next) {
                try {
                    writeSample(t);
                } catch (const ProcError& e) {
                    alive = false;
                    if (e.failure() == ProcFailure::NotPermitted) {
                        end.reason = "not-permitted";
                        end.message = e.what();
                    } else if (e.failure() == ProcFailure::Other) {
                        end.reason = "error";
                        end.message = e.what();
                    } else if (launch) {
                        std::lock_guard lock(programMutex_);
                        end = programEnd(launched_->wait(), who); // gone from /proc: it ended a moment ago
                    } else {
                        end.reason = "exited";
                        end.message = who + " ended (its exit status is known only to its parent)";
                    }
                    break;
                }
                while (next <= now) next += options_.intervalNs; // a late sample is not made up for
            }
            flushMarkers(writer, t);
            commitIfDue(writer, now);
            std::int64_t deadline = next;
            if (durationNs() > 0) deadline = std::min(deadline, t0 + durationNs());
            sleepUntil(deadline);
        }
    } catch (const std::exception& e) {
        end.reason = "error";
        end.message = e.what();
    }
    const std::int64_t tEnd = monotonicNs() - t0;
    if (alive) {
        try {
            writeSample(tEnd); // the series reach the moment the recording stopped
        } catch (const std::exception&) {
            // gone or unreadable at the very end: the samples so far stand
        }
        if (launch) end.message += "; " + who + " keeps running";
    }
    std::string stderrTail;
    if (launch && !alive) {
        StderrTail* tail = nullptr;
        {
            std::lock_guard lock(programMutex_);
            tail = launched_->stderrTail();
        }
        if (tail) {
            tail->waitForEnd(500); // the last lines may still be in the pipe
            stderrTail = tail->text();
        }
    }
    flushMarkers(writer, tEnd);
    if (end.exitCode || end.exitSignal) writer.addMarker(tEnd, "exit", ExitStatus{end.exitCode, end.exitSignal}.text());
    writer.setEnd(end);
    commitNow(writer);
    finalizeLiveRecording(db, writer.traceId());
    updateStatus([&](RecorderStatus& s) {
        s.state = RecorderStatus::State::Finished;
        s.endReason = end.reason;
        s.exitCode = end.exitCode;
        s.exitSignal = end.exitSignal;
        s.message = end.message;
        s.lastT = tEnd;
        s.stderrTail = std::move(stderrTail);
    });
}

} // namespace memviz

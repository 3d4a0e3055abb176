// SPDX-License-Identifier: MIT
// heaptrack live: /proc samples, heap figures and top sites, then the complete import
// (see NativeRecorder.h).
#include "formats/live/NativeRecorder.h"

#include <array>
#include <cerrno>
#include <csignal>
#include <ctime>
#include <filesystem>
#include <stdexcept>
#include <sys/wait.h>
#include <thread>

#include "core/Progress.h"
#include "words/Units.h"
#include "formats/FormatIds.h"
#include "formats/FormatRegistry.h"
#include "formats/live/HeaptrackSession.h"
#include "formats/live/LiveFinalizer.h"
#include "formats/live/LiveWriter.h"
#include "formats/live/ProcFiles.h"
#include "formats/live/ProcRecorder.h"
#include "formats/live/ProcSampler.h"
#include "formats/live/ProcessTable.h"
#include "store/Database.h"

namespace memviz {

namespace fs = std::filesystem;

namespace {

// How long heaptrack_interpret may take after the program ended to resolve the last
// symbols and end its output.
constexpr int kInterpretEndMs = 60'000;

void writeSites(Database& db, std::int64_t traceId, std::int64_t t, const std::vector<HeaptrackLiveSite>& sites) {
    Statement clear(db, "DELETE FROM live_native_sites WHERE trace_id = ?");
    clear.bind(1, traceId).run();
    Statement insert(db, "INSERT INTO live_native_sites(trace_id, rank, t, function, location, bytes, peak_bytes, calls) "
                         "VALUES (?,?,?,?,?,?,?,?)");
    int rank = 0;
    for (const HeaptrackLiveSite& s : sites) {
        insert.bind(1, traceId)
            .bind(2, ++rank)
            .bind(3, t)
            .bind(4, s.function)
            .bind(5, s.location)
            .bind(6, s.bytes)
            .bind(7, s.peakBytes)
            .bind(8, s.calls)
            .run();
    }
}

} // namespace

NativeRecorder::NativeRecorder(std::string storePath, NativeRecordingOptions options)
    : Recorder(std::move(storePath)), options_(std::move(options)) {}

NativeRecorder::~NativeRecorder() {
    stop();
    wait();
}

std::string NativeRecorder::heaptrackFile() const {
    std::lock_guard lock(resultMutex_);
    return heaptrackFile_;
}

std::int64_t NativeRecorder::heaptrackTraceId() const {
    std::lock_guard lock(resultMutex_);
    return heaptrackTraceId_;
}

void NativeRecorder::check(const NativeRecordingOptions& options) {
    const HeaptrackTools tools = findHeaptrack();
    if (!tools.found) throw HeaptrackError(tools.problem);
    if (!options.command.empty()) {
        resolveProgram(options.command.front(), options.workingDirectory); // not found, not executable
        return;
    }
    ProcSampler sampler({options.pid, false, options.intervalNs});
    sampler.check(); // no such process, not permitted
}

void NativeRecorder::run() {
    const bool launch = !options_.command.empty();
    if (options_.intervalNs < kMinIntervalNs)
        throw std::runtime_error("the sampling interval must be at least " + formatDuration(static_cast<double>(kMinIntervalNs)));
    check(options_); // refused before the store is touched
    const HeaptrackTools tools = findHeaptrack();

    std::string name;
    std::unique_ptr<LaunchedProcess> launched;
    std::int64_t attachedAt = 0;
    int pid = options_.pid;
    std::vector<std::string> argv;
    if (launch) {
        name = std::filesystem::path(options_.command.front()).filename().string();
        // `env` puts heaptrack's preload into the program's environment (memviz's own stays
        // as it is); the program keeps env's pid.
        argv.push_back("env");
    } else {
        ProcSampler probe({pid, false, options_.intervalNs});
        probe.check();
        name = probe.processName();
        if (name.empty()) name = "process";
    }
    std::string file = options_.heaptrackFile;
    const auto defaultFile = [&](int p) {
        const fs::path dir = fs::absolute(fs::path(storePath())).parent_path();
        return (dir / ("heaptrack." + name + "." + std::to_string(p) + ".zst")).string();
    };
    // A launched program's pid is known only after the fork: the file is named after it.
    if (file.empty() && !launch) file = defaultFile(pid);
    const std::string pendingFile = file.empty() ? defaultFile(::getpid()) + ".part" : file;
    auto session = std::make_unique<HeaptrackSession>(tools, pendingFile);
    if (launch) {
        for (const std::string& e : session->launchEnvironment()) argv.push_back(e);
        argv.push_back(resolveProgram(options_.command.front(), options_.workingDirectory));
        argv.insert(argv.end(), options_.command.begin() + 1, options_.command.end());
        launched = std::make_unique<LaunchedProcess>(argv, options_.workingDirectory);
        pid = launched->pid();
    } else {
        updateStatus([&](RecorderStatus& s) {
            s.state = RecorderStatus::State::Waiting;
            s.message = "attaching heaptrack to process " + std::to_string(pid) + " through gdb";
        });
        session->attach(pid); // throws: ptrace refused, the process exited, ...
        attachedAt = monotonicNs(); // heaptrack_inject started its clock a moment ago
    }

    Database db(storePath());
    const std::string commandLine = launch ? joinCommandLine(options_.command) : [&] {
        std::string c = processCommandLine(pid);
        return c.empty() ? name : c;
    }();
    LiveRecordingSpec spec;
    spec.source = launch ? "launch" : "attach";
    spec.format = format_id::kLiveProc;
    spec.title = "heaptrack: " + oneLineTitle(commandLine) + " (pid " + std::to_string(pid) + ")";
    spec.command = commandLine;
    spec.targetPid = pid;
    spec.intervalNs = options_.intervalNs;
    spec.epochNs = wallClockNs();
    const std::int64_t t0 = monotonicNs();
    LiveWriter writer(db, spec);
    writer.setCommitIntervalNs(commitIntervalNs());
    writer.setMetadata(metadata_key::kLiveMonotonicStart, std::to_string(t0));
    writer.setMetadata("native.recorder", "heaptrack");
    ProcSampler sampler({pid, false, options_.intervalNs});
    std::array<int, kProcSeriesCount> seriesOf{};
    seriesOf.fill(-1);
    for (int i = 0; i < kProcSeriesCount; ++i) {
        if (i == kProcesses || i == kPss || i == kPrivate) continue; // the heap is the point here
        seriesOf[static_cast<std::size_t>(i)] =
            writer.addSeries({device_name::kProcess, procSeriesSpec(i).name, procSeriesSpec(i).unit, i == kRss});
    }
    const int heapSeries = writer.addSeries({device_name::kProcess, "heap_consumed", "bytes", false});
    const int rateSeries = writer.addSeries({device_name::kProcess, "allocations_per_s", "calls/s", false});
    writer.commit();
    updateStatus([&](RecorderStatus& s) {
        s.state = RecorderStatus::State::Recording;
        s.traceId = writer.traceId();
        s.targetPid = pid;
        s.targetName = name;
        s.message.clear();
    });
    std::int64_t heapOffsetNs = launch ? 0 : attachedAt - t0; // heaptrack's t = 0 on the recording's clock
    if (launch) {
        try {
            heapOffsetNs = monotonicNs() - t0;
            launched->release();
        } catch (...) {
            db.exec("DELETE FROM traces WHERE id = " + std::to_string(writer.traceId()));
            updateStatus([](RecorderStatus& s) { s.traceId = 0; });
            throw;
        }
    }

    const std::string who = name + " (pid " + std::to_string(pid) + ")";
    LiveEnd end;
    bool alive = true;
    // heaptrack's clock starts with the program (launch: at the release; attach: before t = 0,
    // drawn from 0). Its ticks come late (heaptrack buffers them), but are drawn at their time.
    std::int64_t lastHeapT = 0, lastHeap = -1, lastCalls = 0;
    // The allocation rate: calls per interval of heaptrack's clock, one sample at the end of
    // each interval with calls, and a 0 where calls stopped.
    std::int64_t bucket = 0, bucketCalls = 0;
    const std::int64_t interval = options_.intervalNs;
    auto closeBuckets = [&](std::int64_t upTo) {
        while (bucket < upTo) {
            writer.addSample(rateSeries, std::max<std::int64_t>(0, heapOffsetNs + (bucket + 1) * interval),
                             bucketCalls * 1'000'000'000 / interval);
            const bool quiet = bucketCalls == 0;
            bucketCalls = 0;
            bucket = quiet ? upTo : bucket + 1; // one 0 stands for a quiet stretch
        }
    };
    auto writeHeap = [&](bool final) {
        std::vector<HeaptrackTick> ticks = session->takeTicks();
        if (final) {
            const HeaptrackSnapshot h = session->snapshot();
            ticks.push_back({h.timeMs, h.consumed, h.calls});
        }
        for (const HeaptrackTick& tick : ticks) {
            const std::int64_t t = std::max(lastHeapT, heapOffsetNs + tick.timeMs * 1'000'000);
            if (tick.consumed != lastHeap || final) {
                writer.addSample(heapSeries, t, tick.consumed);
                lastHeap = tick.consumed;
            }
            lastHeapT = t;
            closeBuckets((t - heapOffsetNs) / interval);
            bucketCalls += tick.calls - lastCalls;
            lastCalls = tick.calls;
        }
        if (final) closeBuckets((lastHeapT - heapOffsetNs) / interval + 1);
    };
    auto writeSample = [&](std::int64_t t, bool procToo) {
        std::vector<std::pair<std::string, std::int64_t>> latest;
        if (procToo) {
            const ProcSample sample = sampler.sample();
            for (int i = 0; i < kProcSeriesCount; ++i) {
                const auto& v = sample.values[static_cast<std::size_t>(i)];
                const int series = seriesOf[static_cast<std::size_t>(i)];
                if (!v || series < 0) continue;
                writer.addSample(series, t, *v);
                latest.emplace_back(procSeriesSpec(i).name, *v);
            }
        }
        writeHeap(!procToo);
        latest.emplace_back("heap_consumed", std::max<std::int64_t>(lastHeap, 0));
        latest.emplace_back("allocation_calls", lastCalls);
        updateStatus([&](RecorderStatus& s) {
            s.lastT = t;
            s.latest = std::move(latest);
        });
    };
    std::int64_t next = t0, nextSites = t0;
    try {
        for (;;) {
            const std::int64_t now = monotonicNs();
            const std::int64_t t = now - t0;
            if (launch) {
                if (const auto status = launched->poll()) {
                    end = programEnd(*status, who);
                    alive = false;
                    break;
                }
            } else if (session->snapshot().ended) {
                end.reason = "exited";
                end.message = who + " stopped writing heaptrack's data (it ended)";
                alive = false;
                break;
            }
            if (auto stopped = stopOrDurationEnd(t)) {
                end = std::move(*stopped);
                break;
            }
            if (now >= next) {
                try {
                    writeSample(t, true);
                } catch (const ProcError& e) {
                    if (e.failure() == ProcFailure::NotPermitted || e.failure() == ProcFailure::Other) {
                        end.reason = e.failure() == ProcFailure::NotPermitted ? "not-permitted" : "error";
                        end.message = e.what();
                        break;
                    }
                    if (!launch) {
                        end.reason = "exited";
                        end.message = who + " ended (its exit status is known only to its parent)";
                        alive = false;
                        break;
                    }
                    // launched: poll() tells the exit status next round
                }
                while (next <= now) next += options_.intervalNs;
            }
            if (now >= nextSites) {
                writeSites(db, writer.traceId(), t, session->topSites(static_cast<std::size_t>(options_.topSites)));
                nextSites = now + 500'000'000;
            }
            flushMarkers(writer, t);
            commitIfDue(writer, now);
            std::int64_t deadline = std::min(next, nextSites);
            if (durationNs() > 0) deadline = std::min(deadline, t0 + durationNs());
            sleepUntil(deadline);
        }
    } catch (const std::exception& e) {
        end.reason = "error";
        end.message = e.what();
    }

    // heaptrack's data ends when the program stops writing: a launched one still running is
    // ended (heaptrack -- CMD ends with its program too), an attached one is detached.
    if (launch && alive) {
        for (const int sig : {SIGINT, SIGTERM, SIGKILL}) {
            launched->signal(sig);
            for (int i = 0; i < 40 && !launched->poll(); ++i) std::this_thread::sleep_for(std::chrono::milliseconds(50));
            if (const auto status = launched->poll()) {
                end.message += "; " + who + " was ended: " + status->text();
                end.exitCode = status->code;
                end.exitSignal = status->signal;
                break;
            }
        }
    } else if (!launch && alive) {
        session->detach(pid);
        end.message += "; heaptrack was detached from " + who + ", which keeps running";
    }
    session->finish(kInterpretEndMs);
    const std::int64_t tEnd = monotonicNs() - t0;
    try {
        writeSample(tEnd, false); // the heap as heaptrack's complete data says
        writeSites(db, writer.traceId(), tEnd, session->topSites(static_cast<std::size_t>(options_.topSites)));
    } catch (const std::exception&) {
    }
    flushMarkers(writer, tEnd);
    if (end.exitCode || end.exitSignal) writer.addMarker(tEnd, "exit", ExitStatus{end.exitCode, end.exitSignal}.text());
    const HeaptrackSnapshot last = session->snapshot();
    session.reset();

    // The complete file, imported as its own heaptrack trace.
    if (file.empty()) {
        file = defaultFile(pid);
        std::error_code ec;
        fs::rename(pendingFile, file, ec);
        if (ec) file = pendingFile;
    }
    std::int64_t imported = 0;
    std::string importProblem;
    if (last.bytesRead == 0) {
        importProblem = "heaptrack recorded nothing (the program never ran under it)";
    } else {
        try {
            writer.commit();
            imported = importFile(db, file, Progress(), format_id::kHeaptrack);
        } catch (const std::exception& e) {
            importProblem = std::string("importing ") + file + " failed: " + e.what();
        }
    }
    writer.setMetadata("native.heaptrack_file", file);
    if (imported) writer.setMetadata("native.heaptrack_trace", std::to_string(imported));
    if (!importProblem.empty()) end.message += "; " + importProblem;
    writer.setEnd(end);
    commitNow(writer);
    finalizeLiveRecording(db, writer.traceId());
    {
        std::lock_guard lock(resultMutex_);
        heaptrackFile_ = file;
        heaptrackTraceId_ = imported;
    }
    updateStatus([&](RecorderStatus& s) {
        s.state = RecorderStatus::State::Finished;
        s.endReason = end.reason;
        s.exitCode = end.exitCode;
        s.exitSignal = end.exitSignal;
        s.message = end.message;
        s.lastT = tEnd;
    });
}

} // namespace memviz

// SPDX-License-Identifier: MIT
// memviz record: a live recording from the command line (docs/cli.md).
//   memviz record --out FILE [--interval-ms N] [--duration S] [--children] -- CMD ARGS...
//   memviz record --pid PID --out FILE [...]
//   memviz record --listen [ADDRESS] --out FILE [--duration S] [--wait S]
//   memviz record --pid PID --probe --out FILE [--duration S] [--wait S] [--mode op|module]
//   memviz record --native [--out FILE] [--duration S] -- CMD ARGS...   (heaptrack: cli/NativeRecording.cpp)
//   memviz record --native --pid PID [--out FILE] [--duration S]
#include <QCoreApplication>
#include <QJsonArray>
#include <QJsonDocument>
#include <atomic>
#include <csignal>
#include <memory>

#include "cli/Cli.h"
#include "cli/CliSupport.h"
#include "cli/Output.h"
#include "cli/RecordingOutput.h"
#include "words/Units.h"
#include "formats/live/AttachedProbeRecorder.h"
#include "cli/NativeRecording.h"
#include "formats/live/LiveQueries.h"
#include "formats/live/ProbeInjector.h"
#include "formats/live/ProbeRecorder.h"
#include "formats/live/ProcRecorder.h"
#include "formats/live/ProcSampler.h"
#include "store/Database.h"
#include "store/TraceQueries.h"

namespace memviz::cli {

namespace {

const char* const kUsage = "memviz record --out FILE.memviz [--interval-ms N] [--duration S] [--children] -- CMD ARGS...\n"
                           "       memviz record --pid PID --out FILE.memviz [--interval-ms N] [--duration S] [--children]\n"
                           "       memviz record --listen [ADDRESS] --out FILE.memviz [--duration S] [--wait S] [--grace S]\n"
                           "       memviz record --pid PID --probe --out FILE.memviz [--duration S] [--wait S] [--mode op|module]\n"
                           "       memviz record --native [--out FILE.memviz] [--interval-ms N] [--duration S] -- CMD ARGS...\n"
                           "       memviz record --native --pid PID [--out FILE.memviz] [--interval-ms N] [--duration S]";

// An attached probe starts when the target's main thread next runs Python code.
constexpr double kAttachWaitS = 30;

// A launched program gets this long to end by itself after Ctrl+C (the terminal sent the
// signal to it too) before the recording stops without it.
constexpr int kSignalGraceMs = 2000;

std::atomic<int> gSignal{0};
void onStopSignal(int sig) { gSignal = sig; }

double secondsOption(const QCommandLineParser& p, const QString& name) {
    if (!p.isSet(name)) return 0;
    bool ok = false;
    const double s = p.value(name).toDouble(&ok);
    if (!ok || s <= 0) throw UsageError{"--" + name + " needs a positive number of seconds, got \"" + p.value(name) + "\""};
    return s;
}

std::int64_t intervalOption(const QCommandLineParser& p) {
    if (!p.isSet("interval-ms")) return 100'000'000;
    bool ok = false;
    const double ms = p.value("interval-ms").toDouble(&ok);
    if (!ok || ms * 1e6 < static_cast<double>(kMinIntervalNs) || ms > 3'600'000)
        throw UsageError{"--interval-ms needs a number of milliseconds from 10 to 3600000, got \"" + p.value("interval-ms") +
                         "\""};
    return static_cast<std::int64_t>(ms * 1e6);
}

QString statusLine(const RecorderStatus& s) {
    return QStringLiteral("memviz record: %1 samples committed, t = %2\n")
        .arg(s.committedSamples)
        .arg(QString::fromStdString(formatDuration(static_cast<double>(s.lastT))));
}

// What the store now says about the recording, for the report.
void report(const QString& store, const RecorderStatus& s, bool json) {
    Database db(store.toStdString(), Database::Mode::ReadOnly);
    if (json) {
        QJsonObject o = liveTraceJson(db, s.traceId);
        o.insert("store", store);
        printOut(QString::fromUtf8(QJsonDocument(o).toJson(QJsonDocument::Indented)));
        return;
    }
    printOut(liveTraceHeadline(db, store, s.traceId) + deviceLines(loadSummary(db, s.traceId)));
}

// --listen with several probes (the ranks of a distributed job): each one's trace.
void reportSeveral(const QString& store, const std::vector<std::int64_t>& ids, const RecorderStatus& s, bool json) {
    Database db(store.toStdString(), Database::Mode::ReadOnly);
    QJsonArray traces;
    QString out = QStringLiteral("recorded %1 probes into %2\n").arg(ids.size()).arg(store);
    for (const std::int64_t id : ids) {
        const auto rec = findLiveRecording(db, id);
        const TraceSummary summary = loadSummary(db, id);
        if (json) {
            traces.append(liveTraceJson(db, id));
            continue;
        }
        out += QStringLiteral("trace %1: %2 over %3\n")
                   .arg(id)
                   .arg(QString::fromStdString(summary.trace.sourcePath),
                        QString::fromStdString(formatDuration(static_cast<double>(summary.trace.durationNs))));
        if (rec) out += "  " + recordingText(*rec).trimmed().replace("\n", "\n  ") + "\n";
        out += deviceLines(summary, QStringLiteral("  "));
    }
    if (json) {
        QJsonObject o;
        o.insert("store", store);
        o.insert("end_reason", QString::fromStdString(s.endReason));
        o.insert("traces", traces);
        printOut(QString::fromUtf8(QJsonDocument(o).toJson(QJsonDocument::Indented)));
        return;
    }
    printOut(out + QStringLiteral("compare them: memviz ranks %1\n").arg(store));
}

} // namespace

int recordCommand(const QStringList& args) {
    QCommandLineParser p;
    p.addOption({"out", "The .memviz store to record into (created, or a trace added).", "FILE"});
    p.addOption({"pid", "Attach to this running process.", "PID"});
    p.addOption({"listen", "Wait for the PyTorch probe (default address: unix:$XDG_RUNTIME_DIR/memviz-probe.sock)."});
    p.addOption({"address", "Where --listen listens: unix:PATH or 127.0.0.1:PORT.", "ADDRESS"});
    p.addOption({"interval-ms", "Sampling interval in ms (default 100, at least 10).", "N"});
    p.addOption({"duration", "Stop after S seconds.", "S"});
    p.addOption({"wait", "--listen: give up when no probe connected within S seconds.", "S"});
    p.addOption({"grace", "--listen: once every probe has gone, end when none came within S seconds (default 2).", "S"});
    p.addOption({"probe", "With --pid: attach the PyTorch probe to that running Python (through gdb)."});
    p.addOption({"mode", "--probe: record every operator (op, the default) or every module call (module).", "MODE"});
    p.addOption({"children", "Sum the memory of the process' descendants in."});
    p.addOption({"native", "Record native allocations through heaptrack (launch CMD, or attach to --pid) beside /proc."});
    p.addOption({"progress", "Print a line to stderr after every commit."});
    p.addOption({"json", "Print the result as JSON."});
    p.setSingleDashWordOptionMode(QCommandLineParser::ParseAsLongOptions);
    // `--listen ADDRESS` reads naturally; QCommandLineParser wants a value-less flag or a
    // value always, so a lone word after --listen is taken as its address here.
    QStringList a = args;
    const qsizetype listenAt = a.indexOf("--listen");
    if (listenAt >= 0 && listenAt + 1 < a.size() && !a[listenAt + 1].startsWith("-")) {
        a.insert(listenAt + 1, "--address");
    }
    if (!p.parse(QStringList{QStringLiteral("memviz")} + a)) throw UsageError{p.errorText() + "\nusage: " + kUsage};
    const QStringList command = p.positionalArguments();
    if (p.isSet("native")) return recordNative(p, command, kUsage);
    if (!p.isSet("out")) throw UsageError{QStringLiteral("--out FILE.memviz is required\nusage: ") + kUsage};
    const int modes = (p.isSet("pid") ? 1 : 0) + (p.isSet("listen") ? 1 : 0) + (command.isEmpty() ? 0 : 1);
    if (modes != 1)
        throw UsageError{QStringLiteral("give exactly one of --pid PID, --listen or -- CMD ARGS...\nusage: ") + kUsage};
    const QString store = p.value("out");
    const double duration = secondsOption(p, "duration");

    std::unique_ptr<Recorder> recorder;
    ProcRecorder* proc = nullptr;
    AttachedProbeRecorder* attached = nullptr;
    ProbeRecorder* listening = nullptr; // --listen: several probes, one trace each
    if (p.isSet("probe") && !p.isSet("pid"))
        throw UsageError{QStringLiteral("--probe attaches to a running Python: give --pid PID (to run a script under the "
                                        "probe, use --listen and python3 -m memviz_probe)")};
    if (p.isSet("mode") && !p.isSet("probe")) throw UsageError{QStringLiteral("--mode is for --pid PID --probe")};
    if (p.isSet("wait") && !p.isSet("listen") && !p.isSet("probe"))
        throw UsageError{QStringLiteral("--wait is for --listen and --probe")};
    if (p.isSet("grace") && !p.isSet("listen")) throw UsageError{QStringLiteral("--grace is for --listen")};
    if (p.isSet("probe")) {
        if (p.isSet("interval-ms") || p.isSet("children"))
            throw UsageError{QStringLiteral("--interval-ms and --children are for /proc sampling, not --probe")};
        bool ok = false;
        const int pid = p.value("pid").toInt(&ok);
        if (!ok || pid <= 0) throw UsageError{"--pid needs a process id, got \"" + p.value("pid") + "\""};
        const QString mode = p.isSet("mode") ? p.value("mode") : QStringLiteral("op");
        if (mode != "op" && mode != "module") throw UsageError{"--mode is op or module, got \"" + mode + "\""};
        const double wait = p.isSet("wait") ? secondsOption(p, "wait") : kAttachWaitS;
        printErr(QStringLiteral("memviz record: attaching the PyTorch probe to process %1 through gdb\n").arg(pid));
        const std::string probeDir =
            findProbeDirectory(QCoreApplication::applicationDirPath().toStdString(), MEMVIZ_PROBE_SOURCE_DIR);
        std::unique_ptr<AttachedProbeRecorder> probe;
        try {
            checkProbeTarget(pid); // at once, before listening: no such process, not Python, no PyTorch
            if (probeDir.empty()) throw ProbeInjectError("the memviz_probe package is not installed beside memviz (../share/memviz/python/memviz_probe)");
            probe = std::make_unique<AttachedProbeRecorder>(store.toStdString(), pid, probeDir, mode.toStdString());
        } catch (const std::exception& e) {
            const QString message = QString::fromUtf8(e.what());
            printErr("memviz record: " + message + "\n");
            if (message.contains("is not running Python") || message.contains("PyTorch is not imported"))
                printErr(QStringLiteral("memviz record: without --probe, memviz record --pid %1 samples its memory\n").arg(pid));
            return 1;
        }
        probe->setAcceptTimeoutNs(static_cast<std::int64_t>(wait * 1e9));
        attached = probe.get();
        recorder = std::move(probe);
    } else if (p.isSet("listen")) {
        if (p.isSet("interval-ms") || p.isSet("children"))
            throw UsageError{QStringLiteral("--interval-ms and --children are for /proc sampling, not --listen")};
        ProbeAddress address = defaultProbeAddress();
        if (p.isSet("address")) {
            try {
                address = parseProbeAddress(p.value("address").toStdString());
            } catch (const std::invalid_argument& e) {
                throw UsageError{QString::fromUtf8(e.what())};
            }
        }
        auto probe = std::make_unique<ProbeRecorder>(store.toStdString(), address);
        if (p.isSet("wait")) probe->setAcceptTimeoutNs(static_cast<std::int64_t>(secondsOption(p, "wait") * 1e9));
        const double grace = p.isSet("grace") ? secondsOption(p, "grace") : 2.0;
        probe->setAcceptSeveral(true, static_cast<std::int64_t>(grace * 1e9));
        listening = probe.get();
        const QString where = QString::fromStdString(probe->address().text());
        printErr(QStringLiteral("memviz record: waiting for a probe on %1\n"
                                "  run: python3 -m memviz_probe --connect %1 your_script.py\n")
                     .arg(where));
        recorder = std::move(probe);
    } else {
        ProcRecordingOptions o;
        o.intervalNs = intervalOption(p);
        o.children = p.isSet("children");
        if (p.isSet("pid")) {
            bool ok = false;
            o.pid = p.value("pid").toInt(&ok);
            if (!ok || o.pid <= 0) throw UsageError{"--pid needs a process id, got \"" + p.value("pid") + "\""};
        } else {
            for (const QString& c : command) o.command.push_back(c.toStdString());
        }
        auto r = std::make_unique<ProcRecorder>(store.toStdString(), o);
        proc = r.get();
        recorder = std::move(r);
    }
    if (duration > 0) recorder->setDurationNs(static_cast<std::int64_t>(duration * 1e9));
    if (p.isSet("progress")) recorder->setCommitCallback([](const RecorderStatus& s) { printErr(statusLine(s)); });

    struct sigaction sa {};
    sa.sa_handler = onStopSignal;
    sigemptyset(&sa.sa_mask);
    ::sigaction(SIGINT, &sa, nullptr);
    ::sigaction(SIGTERM, &sa, nullptr);
    recorder->start();
    int waitedAfterSignal = -1;
    while (!recorder->waitFor(50)) {
        if (attached && recorder->status().state == RecorderStatus::State::Waiting) {
            const std::string problem = attached->waitProblem();
            if (!problem.empty()) {
                recorder->stop();
                recorder->wait();
                printErr("memviz record: " + QString::fromStdString(problem) + "\n");
                return 1;
            }
        }
        if (!gSignal) continue;
        // A launched program got the terminal's Ctrl+C as well: let it end on its own first.
        if (proc && !p.isSet("pid")) {
            if (waitedAfterSignal < 0) waitedAfterSignal = 0;
            waitedAfterSignal += 50;
            if (waitedAfterSignal < kSignalGraceMs) continue;
        }
        recorder->stop();
    }
    recorder->wait();
    const RecorderStatus s = recorder->status();
    if (s.state == RecorderStatus::State::Failed) {
        printErr("memviz record: " + QString::fromStdString(s.message) + "\n");
        if (attached && !s.traceId && s.message.rfind("no probe connected", 0) == 0)
            printErr(QStringLiteral("memviz record: the probe was handed to process %1, but Python runs it on its main thread "
                                    "between two bytecodes, and that thread ran none (busy in a long C call, or blocked in "
                                    "a wait or join); when it does, the probe finds nobody listening and the script runs "
                                    "on without it\n")
                         .arg(p.value("pid")));
        if (s.traceId)
            printErr(QStringLiteral("memviz record: what was recorded is kept in %1 (trace %2)\n").arg(store).arg(s.traceId));
        return 1;
    }
    if (!s.traceId) {
        printErr("memviz record: " + QString::fromStdString(s.message) + "\n");
        return 1;
    }
    // The probe reached, but it declined (PyTorch not imported, or still being imported): it
    // said so in its goodbye; the empty recording stays in the store, the attach failed.
    if (const auto at = s.message.find("the probe did not attach: "); attached && at != std::string::npos) {
        printErr("memviz record: " + QString::fromStdString(s.message.substr(at)) + "\n");
        return 1;
    }
    if (listening && listening->traceIds().size() > 1) {
        reportSeveral(store, listening->traceIds(), s, p.isSet("json"));
        return 0;
    }
    report(store, s, p.isSet("json"));
    return 0;
}

} // namespace memviz::cli

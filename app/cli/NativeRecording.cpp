// SPDX-License-Identifier: MIT
// memviz record --native: runs a NativeRecorder until the program ends, Ctrl+C or
// --duration, then prints the live trace and heaptrack's figures of the imported file.
#include "cli/NativeRecording.h"

#include <QJsonDocument>
#include <QJsonObject>
#include <atomic>
#include <csignal>

#include "cli/CliSupport.h"
#include "cli/Output.h"
#include "cli/RecordingOutput.h"
#include "words/Units.h"
#include "formats/heaptrack/HeaptrackQueries.h"
#include "formats/live/LiveQueries.h"
#include "formats/live/NativeRecorder.h"
#include "formats/live/ProcRecorder.h"
#include "formats/live/RecordingName.h"
#include "store/Database.h"
#include "store/TraceQueries.h"

namespace memviz::cli {

namespace {

std::atomic<int> gNativeSignal{0};
void onNativeSignal(int sig) { gNativeSignal = sig; }

// A launched program gets this long to end by itself after Ctrl+C (the terminal sent the
// signal to it too) before the recorder ends it.
constexpr int kGraceMs = 2000;

QString bytes(std::int64_t b) { return QString::fromStdString(formatBytes(static_cast<double>(b))); }

void report(const QString& store, const NativeRecorder& r, const RecorderStatus& s, bool json) {
    Database db(store.toStdString(), Database::Mode::ReadOnly);
    const std::int64_t heaptrackTrace = r.heaptrackTraceId();
    const auto ht = heaptrackTrace ? loadHeaptrackSummary(db, heaptrackTrace) : std::nullopt;
    if (json) {
        QJsonObject o = liveTraceJson(db, s.traceId);
        o.insert("store", store);
        QJsonObject h;
        h.insert("file", QString::fromStdString(r.heaptrackFile()));
        h.insert("trace", static_cast<qint64>(heaptrackTrace));
        if (ht) {
            h.insert("calls", static_cast<qint64>(ht->calls));
            h.insert("temporary", static_cast<qint64>(ht->temporary));
            h.insert("peak_bytes", static_cast<qint64>(ht->peakBytes));
            h.insert("leaked_bytes", static_cast<qint64>(ht->leakedBytes));
        }
        o.insert("heaptrack", h);
        printOut(QString::fromUtf8(QJsonDocument(o).toJson(QJsonDocument::Indented)));
        return;
    }
    QString out = liveTraceHeadline(db, store, s.traceId);
    out += QStringLiteral("heaptrack file %1").arg(QString::fromStdString(r.heaptrackFile()));
    if (ht)
        out += QStringLiteral(", imported as trace %1: peak heap memory consumption %2, %3 calls to allocation "
                              "functions (%4 temporary), %5 leaked\n")
                   .arg(heaptrackTrace)
                   .arg(bytes(ht->peakBytes))
                   .arg(ht->calls)
                   .arg(ht->temporary)
                   .arg(bytes(ht->leakedBytes));
    else
        out += QStringLiteral(" (not imported)\n");
    printOut(out);
}

} // namespace

int recordNative(const QCommandLineParser& p, const QStringList& command, const char* usage) {
    for (const char* other : {"listen", "probe", "mode", "wait", "children", "address"})
        if (p.isSet(other))
            throw UsageError{QStringLiteral("--%1 is not for --native\nusage: %2").arg(QString::fromLatin1(other), usage)};
    if (p.isSet("pid") == !command.isEmpty())
        throw UsageError{QStringLiteral("--native needs exactly one of --pid PID or -- CMD ARGS...\nusage: ") + usage};
    NativeRecordingOptions o;
    if (p.isSet("interval-ms")) {
        bool ok = false;
        const double ms = p.value("interval-ms").toDouble(&ok);
        if (!ok || ms * 1e6 < static_cast<double>(kMinIntervalNs) || ms > 3'600'000)
            throw UsageError{"--interval-ms needs a number of milliseconds from 10 to 3600000, got \"" +
                             p.value("interval-ms") + "\""};
        o.intervalNs = static_cast<std::int64_t>(ms * 1e6);
    }
    double duration = 0;
    if (p.isSet("duration")) {
        bool ok = false;
        duration = p.value("duration").toDouble(&ok);
        if (!ok || duration <= 0)
            throw UsageError{"--duration needs a positive number of seconds, got \"" + p.value("duration") + "\""};
    }
    std::string name;
    if (p.isSet("pid")) {
        bool ok = false;
        o.pid = p.value("pid").toInt(&ok);
        if (!ok || o.pid <= 0) throw UsageError{"--pid needs a process id, got \"" + p.value("pid") + "\""};
        name = "pid-" + std::to_string(o.pid);
    } else {
        for (const QString& c : command) o.command.push_back(c.toStdString());
        name = recordingName(o.command);
    }
    const QString store = p.isSet("out") ? p.value("out") : QString::fromStdString(fileNameStem(name) + ".native.memviz");
    try {
        NativeRecorder::check(o); // heaptrack missing, no such program or process: before anything starts
    } catch (const std::exception& e) {
        printErr("memviz record: " + QString::fromUtf8(e.what()) + "\n");
        return 1;
    }
    NativeRecorder recorder(store.toStdString(), o);
    if (duration > 0) recorder.setDurationNs(static_cast<std::int64_t>(duration * 1e9));
    if (p.isSet("progress"))
        recorder.setCommitCallback([](const RecorderStatus& s) {
            std::int64_t heap = 0;
            for (const auto& [series, v] : s.latest)
                if (series == "heap_consumed") heap = v;
            printErr(QStringLiteral("memviz record: %1 samples committed, t = %2, heap consumed %3\n")
                         .arg(s.committedSamples)
                         .arg(QString::fromStdString(formatDuration(static_cast<double>(s.lastT))), bytes(heap)));
        });
    printErr(QStringLiteral("memviz record: recording %1 through heaptrack into %2\n")
                 .arg(p.isSet("pid") ? "process " + p.value("pid") : command.join(' '), store));
    struct sigaction sa {};
    sa.sa_handler = onNativeSignal;
    sigemptyset(&sa.sa_mask);
    ::sigaction(SIGINT, &sa, nullptr);
    ::sigaction(SIGTERM, &sa, nullptr);
    recorder.start();
    int waited = -1;
    while (!recorder.waitFor(50)) {
        if (!gNativeSignal) continue;
        if (!p.isSet("pid")) { // the program got the terminal's Ctrl+C as well: let it end first
            if (waited < 0) waited = 0;
            waited += 50;
            if (waited < kGraceMs) continue;
        }
        recorder.stop();
    }
    const RecorderStatus s = recorder.status();
    if (s.state == RecorderStatus::State::Failed || !s.traceId) {
        printErr("memviz record: " + QString::fromStdString(s.message) + "\n");
        if (s.traceId)
            printErr(QStringLiteral("memviz record: what was recorded is kept in %1 (trace %2)\n").arg(store).arg(s.traceId));
        return 1;
    }
    report(store, recorder, s, p.isSet("json"));
    return 0;
}

} // namespace memviz::cli

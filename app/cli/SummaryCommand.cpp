// SPDX-License-Identifier: MIT
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <map>

#include "cli/AllocatorReplayOutput.h"
#include "cli/Cli.h"
#include "cli/CliSupport.h"
#include "cli/Output.h"
#include "cli/RecordingOutput.h"
#include "formats/live/LiveQueries.h"
#include "formats/snapshot/SnapshotAllocatorReplay.h"
#include "formats/snapshot/SnapshotQueries.h"
#include "store/Database.h"
#include "store/TraceQueries.h"

namespace memviz::cli {

namespace {

// A CUDA snapshot's OOMs, each with why reserved exceeded allocated at that moment (the
// allocator replay's gap; docs/cli.md, "allocator-replay").
QJsonArray snapshotOomsJson(Database& db, std::int64_t traceId) {
    QJsonArray out;
    const SnapshotOverview overview = loadSnapshotOverview(db, traceId);
    std::map<int, costmodel::AllocatorReplayResult> replays;
    for (const SnapshotOomRow& oom : overview.ooms) {
        const SnapshotDeviceStats* d = overview.device(oom.device);
        QJsonObject o{{"device", d ? QString::fromStdString(d->name) : QString::number(oom.device)},
                      {"entry", qint64(oom.seq)},
                      {"time_ns", qint64(oom.t)},
                      {"bytes_requested", qint64(oom.requestedBytes)}};
        if (oom.deviceFreeBytes) o.insert("device_free", qint64(*oom.deviceFreeBytes));
        if (d && d->cudaDevice >= 0) {
            auto it = replays.find(oom.device);
            if (it == replays.end())
                it = replays.emplace(oom.device, costmodel::replayAllocator(loadAllocatorReplayInput(db, traceId, oom.device))).first;
            for (const auto& r : it->second.ooms)
                if (r.seq == oom.seq) o.insert("reserved_gap", gapJson(r.gap));
        }
        out.append(o);
    }
    return out;
}

} // namespace

int summaryCommand(const QStringList& args) {
    QCommandLineParser p;
    p.addOption({"json", "Print JSON."});
    p.addOption({"trace", "Trace id inside a .memviz store (default: the latest).", "ID"});
    parseOrThrow(p, args, 1, "memviz summary FILE_OR_DB [--json] [--trace ID]");
    OpenedSource source(p.positionalArguments().first(), traceIdOption(p));
    Database db(source.storePath(), Database::Mode::ReadOnly);
    const TraceSummary summary = loadSummary(db, source.traceId());
    const auto recording = findLiveRecording(db, source.traceId());
    const std::vector<PlotPeak> peaks = recording ? std::vector<PlotPeak>{} // a recording's series are not final
                                                  : plotPeaks(db, source.traceId(), summary, listSeries(db, source.traceId()));
    if (p.isSet("json")) {
        QJsonObject o = summaryJson(summary, peaks);
        if (recording) o.insert("recording", recordingJson(*recording));
        // Everything the format kept about the file (docs/cli.md, "JSON"), unknown fields too.
        QJsonObject metadata;
        for (const auto& [k, v] : loadMetadata(db, source.traceId()))
            metadata.insert(QString::fromStdString(k), QString::fromStdString(v));
        o.insert("metadata", metadata);
        if (isSnapshotTrace(db, source.traceId())) o.insert("ooms", snapshotOomsJson(db, source.traceId()));
        printOut(QString::fromUtf8(QJsonDocument(o).toJson(QJsonDocument::Indented)));
    } else {
        printOut(summaryText(summary, peaks) + (recording ? "\n" + recordingText(*recording) : QString()));
    }
    return 0;
}

} // namespace memviz::cli

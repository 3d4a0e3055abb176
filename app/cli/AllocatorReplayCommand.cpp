// SPDX-License-Identifier: MIT
// `memviz allocator-replay`: a CUDA snapshot's requests fed through the caching-allocator model,
// its predicted segments and reserved bytes beside the recorded ones, why reserved exceeds
// allocated at any entry, and which request would fail on a card of a given size.
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <stdexcept>

#include "cli/AllocatorReplayOutput.h"
#include "cli/Cli.h"
#include "cli/CliSupport.h"
#include "formats/snapshot/SnapshotAllocatorReplay.h"
#include "formats/snapshot/SnapshotQueries.h"
#include "store/Database.h"
#include "words/Units.h"

namespace memviz::cli {

int allocatorReplayCommand(const QStringList& args) {
    QCommandLineParser p;
    p.addOption({"json", "Print JSON."});
    p.addOption({"device", "Only this device (cuda:0, ...).", "NAME"});
    p.addOption({"at", "Break down reserved - allocated after this entry (-1: before the first).", "ENTRY"});
    p.addOption({"card", "Also replay on a card of this size (16GiB, 80GB, ...).", "SIZE"});
    p.addOption({"steps", "With --json: reserved after every entry that changes it, recorded and predicted."});
    p.addOption({"trace", "Trace id inside a .memviz store (default: the latest).", "ID"});
    parseOrThrow(p, args, 1, "memviz allocator-replay FILE_OR_DB [--json] [--device NAME] [--at ENTRY] [--card SIZE] [--steps] [--trace ID]");
    std::int64_t at = -2, card = 0;
    if (p.isSet("at")) {
        bool ok = false;
        at = p.value("at").toLongLong(&ok);
        if (!ok || at < -1) throw UsageError{"--at needs an entry index (-1: before the first), got \"" + p.value("at") + "\""};
    }
    if (p.isSet("card")) {
        try {
            card = parseByteSize(p.value("card").toStdString());
        } catch (const std::invalid_argument& e) {
            throw UsageError{"--card: " + QString::fromStdString(e.what())};
        }
        if (card <= 0) throw UsageError{"--card needs a size above zero"};
    }
    OpenedSource source(p.positionalArguments().first(), traceIdOption(p));
    Database db(source.storePath(), Database::Mode::ReadOnly);
    if (!isSnapshotTrace(db, source.traceId())) throw UsageError{"allocator-replay reads CUDA memory snapshots; this trace is not one"};
    const SnapshotOverview overview = loadSnapshotOverview(db, source.traceId());
    QJsonArray devices;
    QString text;
    bool found = false;
    for (const SnapshotDeviceStats& d : overview.devices) {
        if (d.cudaDevice < 0) continue; // pinned host memory has no caching allocator of this kind
        const QString name = QString::fromStdString(d.name);
        if (p.isSet("device") && p.value("device") != name) continue;
        found = true;
        costmodel::AllocatorReplayInput in = loadAllocatorReplayInput(db, source.traceId(), d.device);
        in.gapAt = at;
        in.cardBytes = card;
        const costmodel::AllocatorReplayResult r = costmodel::replayAllocator(in);
        QJsonObject o = replayJson(r, p.isSet("steps"));
        o.insert("device", name);
        devices.append(o);
        text += name + (r.traced ? QString() : QStringLiteral(" (no allocations traced)")) + "\n" + replayText(r);
    }
    if (!found && p.isSet("device")) throw UsageError{"no CUDA device named \"" + p.value("device") + "\" in this snapshot"};
    if (p.isSet("json")) printOut(QString::fromUtf8(QJsonDocument(QJsonObject{{"devices", devices}}).toJson(QJsonDocument::Indented)));
    else printOut(text);
    return 0;
}

} // namespace memviz::cli

// SPDX-License-Identifier: MIT
#include <QJsonDocument>
#include <QJsonObject>

#include "cli/Cli.h"
#include "cli/CliSupport.h"
#include "cli/Output.h"
#include "cli/RecordingOutput.h"
#include "formats/live/LiveQueries.h"
#include "store/Database.h"
#include "store/TraceQueries.h"

namespace memviz::cli {

int summaryCommand(const QStringList& args) {
    QCommandLineParser p;
    p.addOption({"json", "Print JSON."});
    p.addOption({"trace", "Trace id inside a .memviz store (default: the latest).", "ID"});
    parseOrThrow(p, args, 1, "memviz summary FILE_OR_DB [--json] [--trace ID]");
    OpenedSource source(p.positionalArguments().first(), traceIdOption(p));
    Database db(source.storePath(), Database::Mode::ReadOnly);
    const TraceSummary summary = loadSummary(db, source.traceId());
    const auto recording = findLiveRecording(db, source.traceId());
    if (p.isSet("json")) {
        QJsonObject o = summaryJson(summary);
        if (recording) o.insert("recording", recordingJson(*recording));
        // Everything the format kept about the file (docs/cli.md, "JSON"), unknown fields too.
        QJsonObject metadata;
        for (const auto& [k, v] : loadMetadata(db, source.traceId()))
            metadata.insert(QString::fromStdString(k), QString::fromStdString(v));
        o.insert("metadata", metadata);
        printOut(QString::fromUtf8(QJsonDocument(o).toJson(QJsonDocument::Indented)));
    } else {
        printOut(summaryText(summary) + (recording ? "\n" + recordingText(*recording) : QString()));
    }
    return 0;
}

} // namespace memviz::cli

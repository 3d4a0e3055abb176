// SPDX-License-Identifier: MIT
#include <QFileInfo>
#include <QJsonDocument>

#include "cli/Cli.h"
#include "cli/CliSupport.h"
#include "cli/Output.h"
#include "core/Progress.h"
#include "formats/FormatRegistry.h"
#include "store/Database.h"

namespace memviz::cli {

int importCommand(const QStringList& args) {
    QCommandLineParser p;
    p.addOption({"db", "Store to add the trace to (default: FILE with the extension .memviz).", "OUT"});
    p.addOption({"format", "Skip sniffing and use this format id.", "ID"});
    p.addOption({"json", "Print the summary of the new trace as JSON."});
    parseOrThrow(p, args, 1, "memviz import FILE [--db OUT] [--format ID] [--json]");
    const QString file = p.positionalArguments().first();
    QString out = p.value("db");
    if (out.isEmpty()) {
        const QFileInfo info(file);
        QString base = info.fileName();
        for (const char* ext : {".gz", ".zst"})
            if (base.endsWith(ext)) base.chop(static_cast<qsizetype>(std::strlen(ext)));
        const qsizetype dot = base.lastIndexOf('.');
        if (dot > 0) base.truncate(dot);
        out = info.dir().filePath(base + ".memviz");
    }
    Database db(out.toStdString());
    const std::int64_t id = importFile(db, file.toStdString(), Progress{}, p.value("format").toStdString());
    const TraceSummary summary = loadSummary(db, id);
    const std::vector<PlotPeak> peaks = plotPeaks(db, id, summary, listSeries(db, id));
    if (p.isSet("json")) {
        QJsonObject o = summaryJson(summary, peaks);
        o.insert("store", out);
        printOut(QString::fromUtf8(QJsonDocument(o).toJson(QJsonDocument::Indented)));
    } else {
        printOut(QStringLiteral("imported %1 as trace %2 into %3\n\n").arg(file).arg(id).arg(out) + summaryText(summary, peaks));
    }
    return 0;
}

} // namespace memviz::cli

// SPDX-License-Identifier: MIT
// memviz report FILE|STORE[#ID] [--baseline FILE|STORE#ID] [--fold PRESETS|none] -o report.html: one self-contained
// HTML page (model/report/HtmlReport.h).
#include <QFile>
#include <QFileInfo>
#include <memory>

#include "cli/Cli.h"
#include "cli/CliSupport.h"
#include "core/Progress.h"
#include "report/HtmlReport.h"
#include "store/Database.h"

namespace memviz::cli {

int reportCommand(const QStringList& args) {
    QCommandLineParser p;
    p.addOption({{"o", "out"}, "The HTML file to write.", "FILE"});
    p.addOption({"baseline", "A trace to compare with, lined up at the peaks.", "FILE|STORE#ID"});
    p.addOption({"fold", "The flame graph's fold presets, comma-separated, or none (default: python,torch,alloc,startup, "
                         "as the window's \"Fold plumbing\").",
                 "PRESETS"});
    parseOrThrow(p, args, 1, "memviz report FILE|STORE[#ID] [--baseline FILE|STORE#ID] [--fold PRESETS|none] -o REPORT.html");
    if (!p.isSet("o")) throw UsageError{"-o REPORT.html is required"};
    const QString target = p.positionalArguments().first();
    const TraceRef ref = traceRefOrUsage(target);
    OpenedSource source(QString::fromStdString(ref.path), ref.traceId);
    Database db(source.storePath(), Database::Mode::ReadOnly);
    ReportData data = loadReportData(db, source.traceId(), QFileInfo(target).fileName().toStdString(), Progress{}, foldOption(p));
    if (p.isSet("baseline")) {
        const TraceRef baseRef = traceRefOrUsage(p.value("baseline"));
        OpenedSource base(QString::fromStdString(baseRef.path), baseRef.traceId);
        Database baseDb(base.storePath(), Database::Mode::ReadOnly);
        try {
            addReportBaseline(data, db, source.traceId(), baseDb, base.traceId(),
                              QFileInfo(p.value("baseline")).fileName().toStdString(), Progress{});
        } catch (const std::invalid_argument& e) {
            throw UsageError{QString::fromUtf8(e.what())};
        }
    }
    const std::string html = htmlReport(data);
    QFile f(p.value("o"));
    if (!f.open(QIODevice::WriteOnly | QIODevice::Truncate) ||
        f.write(html.data(), static_cast<qint64>(html.size())) != static_cast<qint64>(html.size()))
        throw std::runtime_error(p.value("o").toStdString() + ": cannot write: " + f.errorString().toStdString());
    printOut(QStringLiteral("wrote %1 (%2 bytes)\n").arg(p.value("o")).arg(html.size()));
    return 0;
}

} // namespace memviz::cli

// SPDX-License-Identifier: MIT
#include <QJsonDocument>

#include "cli/Cli.h"
#include "cli/CliSupport.h"
#include "cli/Output.h"
#include "formats/live/LiveQueries.h"
#include "formats/profiler/ProfilerQuery.h"
#include "store/Database.h"
#include <algorithm>

namespace memviz::cli {

namespace {

std::optional<int> deviceIndex(const TraceSummary& s, const QString& name) {
    if (name.isEmpty()) return std::nullopt;
    QStringList known;
    for (const DeviceSummary& d : s.devices) {
        if (QString::fromStdString(d.name).compare(name, Qt::CaseInsensitive) == 0) return d.device;
        known << QString::fromStdString(d.name);
    }
    throw UsageError{"no device \"" + name + "\" in this trace (devices: " + known.join(", ") + ")"};
}

} // namespace

int opsCommand(const QStringList& args) {
    QCommandLineParser p;
    p.addOption({"json", "Print JSON."});
    p.addOption({"limit", "Print at most N operators.", "N"});
    p.addOption({"device", "Only this device (cpu, cuda:0, ...).", "NAME"});
    p.addOption({"range", "Only events in this time window (ns from the trace start).", "BEGIN:END"});
    p.addOption({"trace", "Trace id inside a .memviz store (default: the latest).", "ID"});
    p.addOption({"group-by-shapes", "Profiler traces: one row per operator and input shapes."});
    const QString usage = "memviz ops FILE_OR_DB [--json] [--limit N] [--device NAME] [--range BEGIN:END] "
                          "[--group-by-shapes] [--trace ID]";
    parseOrThrow(p, args, 1, usage);
    const qsizetype limit = limitOption(p, -1);
    const auto range = rangeOption(p.value("range"));
    OpenedSource source(p.positionalArguments().first(), traceIdOption(p));
    Database db(source.storePath(), Database::Mode::ReadOnly);
    const TraceSummary summary = loadSummary(db, source.traceId());
    const std::optional<int> device = deviceIndex(summary, p.value("device"));
    if (hasProfilerCalls(db, source.traceId())) {
        const bool grouped = p.isSet("group-by-shapes");
        ProfilerOpsTable table = queryProfilerOps(db, source.traceId(), range, grouped);
        std::vector<int> devices;
        if (device) devices.push_back(*device);
        else
            for (std::size_t d = 0; d < table.devices.size(); ++d) devices.push_back(static_cast<int>(d));
        if (device) // sort by self memory on the chosen device, like sort_by="self_<device>_memory_usage"
            std::stable_sort(table.rows.begin(), table.rows.end(),
                             [d = static_cast<std::size_t>(*device)](const auto& a, const auto& b) {
                                 return a.memory[d].selfBytes > b.memory[d].selfBytes;
                             });
        if (limit >= 0 && static_cast<std::size_t>(limit) < table.rows.size()) table.rows.resize(static_cast<std::size_t>(limit));
        if (p.isSet("json"))
            printOut(QString::fromUtf8(
                QJsonDocument(profilerOpsJson(summary, table, devices, grouped)).toJson(QJsonDocument::Indented)));
        else printOut(profilerOpsText(table, devices, grouped));
        return 0;
    }
    OpsFilter filter;
    filter.device = device;
    filter.range = range;
    // A probe recording still running has its records in live_ops only (not finalised yet).
    const auto recording = findLiveRecording(db, source.traceId());
    std::vector<OpRow> rows = recording && recording->recording() ? queryLiveOps(db, source.traceId(), filter)
                                                                  : queryOps(db, source.traceId(), filter);
    if (limit >= 0 && static_cast<std::size_t>(limit) < rows.size()) rows.resize(static_cast<std::size_t>(limit));
    if (p.isSet("json"))
        printOut(QString::fromUtf8(QJsonDocument(opsJson(summary, rows, p.value("device"))).toJson(QJsonDocument::Indented)));
    else printOut(opsText(rows));
    return 0;
}

} // namespace memviz::cli

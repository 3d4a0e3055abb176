// SPDX-License-Identifier: MIT
// `memviz stacks`: the call tree of a trace with stacks for one metric, range or moment, as
// Brendan Gregg's collapsed stacks (flamegraph.pl, speedscope, inferno read it) or as JSON.
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <stdexcept>

#include "cli/Cli.h"
#include "cli/CliSupport.h"
#include "formats/StackSources.h"
#include "store/Database.h"

namespace memviz::cli {

namespace {

qint64 numberOption(const QCommandLineParser& p, const QString& name) {
    bool ok = false;
    const qint64 v = p.value(name).toLongLong(&ok);
    if (!ok || v < 0) throw UsageError{"--" + name + " needs a time in ns from the trace start, got \"" + p.value(name) + "\""};
    return v;
}

std::optional<TimeRange> rangeOf(const QString& text) {
    if (text.isEmpty()) return std::nullopt;
    const QStringList parts = text.split(':');
    bool ok1 = false, ok2 = false;
    const qint64 begin = parts.size() == 2 ? parts[0].toLongLong(&ok1) : 0;
    const qint64 end = parts.size() == 2 ? parts[1].toLongLong(&ok2) : 0;
    if (!ok1 || !ok2 || end < begin) throw UsageError{"--range needs BEGIN_NS:END_NS with BEGIN <= END, got \"" + text + "\""};
    return TimeRange{begin, end};
}

FrameFolder folderOf(const QCommandLineParser& p) {
    if (!p.isSet("fold")) return FrameFolder::fromPresets(defaultFoldPresets());
    std::vector<std::string> ids;
    for (const QString& id : p.value("fold").split(',', Qt::SkipEmptyParts))
        if (id != "none") ids.push_back(id.trimmed().toStdString());
    try {
        return FrameFolder::fromPresets(ids);
    } catch (const std::invalid_argument& e) {
        throw UsageError{QString::fromUtf8(e.what())};
    }
}

QJsonObject nodeJson(const StackTree& t, std::int32_t node) {
    const StackNode& n = t.nodes[static_cast<std::size_t>(node)];
    QJsonObject o;
    if (const StackFrameInfo* f = t.frameOf(node)) {
        o["function"] = QString::fromStdString(f->function);
        if (!f->file.empty()) o["file"] = QString::fromStdString(f->file);
        if (f->line > 0) o["line"] = static_cast<qint64>(f->line);
        if (!f->module.empty()) o["module"] = QString::fromStdString(f->module);
    } else {
        o["function"] = "all";
    }
    o["value"] = static_cast<qint64>(n.inclusive);
    o["self"] = static_cast<qint64>(n.self);
    QJsonArray children;
    for (std::int32_t c : n.children) children.append(nodeJson(t, c));
    if (!children.isEmpty()) o["children"] = children;
    return o;
}

} // namespace

int stacksCommand(const QStringList& args) {
    QCommandLineParser p;
    p.addOption({"metric", "What each stack counts (depends on the format; see docs/cli.md).", "M"});
    p.addOption({"at", "The moment (ns from the trace start) for per-moment metrics.", "T"});
    p.addOption({"range", "Only what happened in this time window (ns from the trace start).", "BEGIN:END"});
    p.addOption({"fold", "Fold presets, comma-separated, or none (default: python,torch,alloc,startup).", "PRESETS"});
    p.addOption({"format", "collapsed (default) or json.", "FORMAT"});
    p.addOption({"trace", "Trace id inside a .memviz store (default: the latest).", "ID"});
    const QString usage = "memviz stacks FILE_OR_DB [--metric M] [--at T] [--range BEGIN:END] [--fold PRESETS|none] "
                          "[--format collapsed|json] [--trace ID]";
    parseOrThrow(p, args, 1, usage);
    const QString format = p.isSet("format") ? p.value("format") : QStringLiteral("collapsed");
    if (format != "collapsed" && format != "json") throw UsageError{"--format is collapsed or json, got \"" + format + "\""};
    StackRequest request;
    request.metric = p.value("metric").toStdString();
    request.range = rangeOf(p.value("range"));
    if (p.isSet("at")) request.at = numberOption(p, "at");
    request.folder = folderOf(p);

    OpenedSource source(p.positionalArguments().first(), traceIdOption(p));
    Database db(source.storePath(), Database::Mode::ReadOnly);
    const StackAvailability available = stackAvailability(db, source.traceId());
    if (!available.hasStacks()) {
        printErr("memviz stacks: " + QString::fromStdString(available.howToRecord) + "\n");
        return 1;
    }
    StackTree tree;
    try {
        tree = loadStackTree(db, source.traceId(), request);
    } catch (const std::invalid_argument& e) {
        throw UsageError{QString::fromUtf8(e.what())};
    }
    if (tree.stacksTruncated > 0)
        printErr(QStringLiteral("memviz stacks: %1 stacks deeper than %2 frames: their innermost frames are folded into one\n")
                     .arg(tree.stacksTruncated)
                     .arg(StackTreeBuilder::kDefaultMaxDepth));
    if (format == "collapsed") {
        printOut(QString::fromStdString(collapsedStacks(tree)));
        return 0;
    }
    const std::string metricId = request.metric.empty() ? available.metrics.front().id : request.metric;
    const StackMetric* metric = available.find(metricId);
    QJsonObject o;
    o["metric"] = QString::fromStdString(metricId);
    o["unit"] = metric && !metric->bytes ? "count" : "bytes";
    o["total"] = static_cast<qint64>(tree.total());
    o["stacks_truncated"] = static_cast<qint64>(tree.stacksTruncated);
    o["root"] = nodeJson(tree, 0);
    printOut(QString::fromUtf8(QJsonDocument(o).toJson(QJsonDocument::Indented)));
    return 0;
}

} // namespace memviz::cli

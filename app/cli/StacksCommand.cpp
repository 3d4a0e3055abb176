// SPDX-License-Identifier: MIT
// `memviz stacks`: the call tree of a trace with stacks for one metric, range or moment, as
// Brendan Gregg's collapsed stacks (flamegraph.pl, speedscope, inferno read it) or as JSON.
#include <cstdio>
#include <stdexcept>
#include <string>
#include <vector>

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

void appendJsonString(std::string& out, const std::string& text) {
    out += '"';
    for (const char c : text) {
        switch (c) {
        case '"': out += "\\\""; break;
        case '\\': out += "\\\\"; break;
        case '\n': out += "\\n"; break;
        case '\r': out += "\\r"; break;
        case '\t': out += "\\t"; break;
        default:
            if (static_cast<unsigned char>(c) < 0x20) {
                char buf[8];
                std::snprintf(buf, sizeof buf, "\\u%04x", c);
                out += buf;
            } else {
                out += c;
            }
        }
    }
    out += '"';
}

// The tree as nested JSON objects, written depth-first without recursion (stacks can be
// 10,000 frames deep) and without a DOM (trees can have millions of nodes).
std::string treeJson(const StackTree& t) {
    std::string out;
    struct Item {
        std::int32_t node;
        std::size_t next; // children written so far
    };
    std::vector<Item> todo{{0, 0}};
    const auto open = [&](std::int32_t node) {
        const StackNode& n = t.nodes[static_cast<std::size_t>(node)];
        out += "{\"function\": ";
        if (const StackFrameInfo* f = t.frameOf(node)) {
            appendJsonString(out, f->function);
            if (!f->file.empty()) {
                out += ", \"file\": ";
                appendJsonString(out, f->file);
            }
            if (f->line > 0) out += ", \"line\": " + std::to_string(f->line);
            if (!f->module.empty()) {
                out += ", \"module\": ";
                appendJsonString(out, f->module);
            }
        } else {
            out += "\"all\"";
        }
        out += ", \"value\": " + std::to_string(n.inclusive) + ", \"self\": " + std::to_string(n.self);
        if (!n.children.empty()) out += ", \"children\": [";
    };
    open(0);
    while (!todo.empty()) {
        Item& top = todo.back();
        const StackNode& n = t.nodes[static_cast<std::size_t>(top.node)];
        if (top.next < n.children.size()) {
            if (top.next > 0) out += ", ";
            const std::int32_t c = n.children[top.next++];
            open(c);
            todo.push_back({c, 0});
            continue;
        }
        out += n.children.empty() ? "}" : "]}";
        todo.pop_back();
    }
    return out;
}

void writeOut(const std::string& text) {
    std::fwrite(text.data(), 1, text.size(), stdout);
    std::fflush(stdout);
}

} // namespace

int stacksCommand(const QStringList& args) {
    QCommandLineParser p;
    p.addOption({"metric", "What each stack counts (depends on the format; see docs/cli.md).", "M"});
    p.addOption({"at", "The moment (ns from the trace start) for per-moment metrics.", "T"});
    p.addOption({"range", "Only what happened in this time window (ns from the trace start).", "BEGIN:END"});
    p.addOption({"fold", "Fold presets, comma-separated, or none (default: python,torch,alloc,startup).", "PRESETS"});
    p.addOption({"group-by", "The root level: stack (default), or for CUDA snapshots compile-context, user-metadata, "
                             "forward-stack.", "KEY"});
    p.addOption({"format", "collapsed (default) or json.", "FORMAT"});
    p.addOption({"trace", "Trace id inside a .memviz store (default: the latest).", "ID"});
    const QString usage = "memviz stacks FILE_OR_DB [--metric M] [--at T] [--range BEGIN:END] [--fold PRESETS|none] "
                          "[--group-by stack|compile-context|user-metadata|forward-stack] [--format collapsed|json] [--trace ID]";
    parseOrThrow(p, args, 1, usage);
    const QString format = p.isSet("format") ? p.value("format") : QStringLiteral("collapsed");
    if (format != "collapsed" && format != "json") throw UsageError{"--format is collapsed or json, got \"" + format + "\""};
    StackRequest request;
    request.metric = p.value("metric").toStdString();
    request.range = rangeOption(p.value("range"));
    if (p.isSet("at")) request.at = numberOption(p, "at");
    request.folder = foldOption(p);
    request.groupBy = p.value("group-by").toStdString();

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
        writeOut(collapsedStacks(tree));
        return 0;
    }
    const std::string metricId = request.metric.empty() ? available.metrics.front().id : request.metric;
    const StackMetric* metric = available.find(metricId);
    std::string json = "{\"metric\": ";
    appendJsonString(json, metricId);
    json += std::string(", \"unit\": \"") + (metric && !metric->bytes ? "count" : "bytes") + "\"";
    if (!request.groupBy.empty()) {
        json += ", \"group_by\": ";
        appendJsonString(json, request.groupBy);
    }
    json += ", \"total\": " + std::to_string(tree.total());
    json += ", \"stacks_truncated\": " + std::to_string(tree.stacksTruncated);
    json += ", \"root\": " + treeJson(tree) + "}\n";
    writeOut(json);
    return 0;
}

} // namespace memviz::cli

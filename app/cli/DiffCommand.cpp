// SPDX-License-Identifier: MIT
// memviz diff A B: two traces compared (model/compare/TraceDiff.h); B - A throughout.
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QLocale>
#include <stdexcept>

#include "cli/Cli.h"
#include "cli/CliSupport.h"
#include "cli/Output.h"
#include "compare/Alignment.h"
#include "compare/TraceComparison.h"
#include "core/Progress.h"
#include "words/UnitTexts.h"
#include "formats/FormatIds.h"
#include "store/Database.h"
#include "store/TraceRef.h"

namespace memviz::cli {

namespace {

struct Side {
    explicit Side(const TraceRef& r)
        : source(QString::fromStdString(r.path), r.traceId), db(source.storePath(), Database::Mode::ReadOnly) {}
    explicit Side(const QString& arg) : Side(traceRefOrUsage(arg)) {}
    OpenedSource source;
    Database db;
};

using words::bytes;
using words::signedBytes;
QString count(std::int64_t n) { return words::count(n, QLocale::c()); }
QString signedCount(std::int64_t n) { return words::signedCount(n, QLocale::c()); }

QJsonObject valueJson(const DiffValue& v) {
    return {{"a", static_cast<qint64>(v.a)}, {"b", static_cast<qint64>(v.b)}, {"delta", static_cast<qint64>(v.delta())}};
}

QString siteName(const SiteDiff& s) {
    const QString f = s.function.empty() ? "?? in " + QString::fromStdString(s.module) : QString::fromStdString(s.function);
    return s.file.empty() ? f : f + "  " + QString::fromStdString(s.file) + ":" + QString::number(s.line);
}

QString inWhich(bool inA, bool inB) { return inA && inB ? "both" : inA ? "a" : "b"; }
QString inWhichText(bool inA, bool inB) { return inA && inB ? "both" : inA ? "A only" : "B only"; }
QString hex(std::int64_t v) { return "0x" + QString::number(v, 16); }

template <class Row>
std::vector<Row> limited(std::vector<Row> rows, qsizetype limit) {
    if (limit >= 0 && static_cast<qsizetype>(rows.size()) > limit) rows.resize(static_cast<std::size_t>(limit));
    return rows;
}

} // namespace

int diffCommand(const QStringList& args) {
    QCommandLineParser p;
    p.addOption({"json", "Print JSON."});
    p.addOption({"limit", "Print at most N rows per table (default 20; 0: none).", "N"});
    p.addOption({"device", "Only this device (cpu, cuda:0, ...).", "NAME"});
    p.addOption({"align", "Line B up with A: auto (the first step both mark, else the starts), start, peak, step:N or "
                          "marker:NAME.",
                 "MODE", "auto"});
    const QString usage = "memviz diff A B [--json] [--limit N] [--device NAME] [--align auto|start|peak|step:N|marker:NAME]";
    parseOrThrow(p, args, 2, usage);
    const qsizetype limit = limitOption(p, 20);
    AlignSpec alignSpec;
    try {
        alignSpec = parseAlignSpec(p.value("align").toStdString());
    } catch (const std::invalid_argument& e) {
        throw UsageError{QString::fromUtf8(e.what())};
    }
    Side a(p.positionalArguments()[0]);
    Side b(p.positionalArguments()[1]);
    TraceComparison c;
    try {
        c = compareTraces(a.db, a.source.traceId(), b.db, b.source.traceId(), p.value("device").toStdString(), 0, Progress{});
    } catch (const std::invalid_argument& e) { // an unknown device
        throw UsageError{QString::fromUtf8(e.what())};
    }
    if (alignSpec.kind == CompareAlign::Marker) {
        c.a.marker = findMarker(a.db, a.source.traceId(), c.a.summary.trace.format, alignSpec.marker);
        c.b.marker = findMarker(b.db, b.source.traceId(), c.b.summary.trace.format, alignSpec.marker);
    }
    const Alignment aligned = alignTraces(c, alignSpec);
    if (!aligned.problem.empty()) throw std::runtime_error("cannot line up at " + alignSpecText(alignSpec) + ": " + aligned.problem);
    const AlignSpec usedSpec{aligned.used, aligned.step, alignSpec.marker};
    // B's peak after the shift, relative to A's peak (both devices present).
    auto peakOffset = [&](const DeviceDiff& d) { return d.peakTimeNs.b + aligned.shift - d.peakTimeNs.a; };
    const std::vector<DeviceDiff>& devices = c.devices;
    const std::vector<OpDiff> opDiffs = limited(c.ops, limit);
    auto both = [&](const char* format) { return c.a.summary.trace.format == format && c.b.summary.trace.format == format; };
    const bool heaptrack = both(format_id::kHeaptrack);
    const std::vector<SiteDiff> sites = limited(c.sites, limit);
    const bool snapshots = both(format_id::kSnapshot);
    const auto& segments = c.segments;

    if (p.isSet("json")) {
        QJsonObject o;
        auto traceJson = [](const Side& s, const TraceSummary& summary, const QString& arg) {
            return QJsonObject{{"source", arg},
                               {"format", QString::fromStdString(summary.trace.format)},
                               {"trace_id", static_cast<qint64>(s.source.traceId())}};
        };
        o.insert("a", traceJson(a, c.a.summary, p.positionalArguments()[0]));
        o.insert("b", traceJson(b, c.b.summary, p.positionalArguments()[1]));
        o.insert("alignment", QJsonObject{{"requested", QString::fromStdString(alignSpecText(alignSpec))},
                                          {"used", QString::fromStdString(alignSpecText(usedSpec))},
                                          {"shift_ns", static_cast<qint64>(aligned.shift)}});
        QJsonArray ds;
        for (const DeviceDiff& d : devices)
            ds.append(QJsonObject{{"device", QString::fromStdString(d.name)},
                                  {"in_a", d.inA},
                                  {"in_b", d.inB},
                                  {"peak_bytes", valueJson(d.peakBytes)},
                                  {"peak_time_ns", valueJson(d.peakTimeNs)},
                                  {"peak_offset_ns", d.inA && d.inB ? QJsonValue(static_cast<qint64>(peakOffset(d))) : QJsonValue()},
                                  {"final_bytes", valueJson(d.finalBytes)},
                                  {"allocations", valueJson(d.allocs)}});
        o.insert("devices", ds);
        QJsonArray os;
        for (const OpDiff& d : opDiffs)
            os.append(QJsonObject{{"name", QString::fromStdString(d.name)},
                                  {"bytes_allocated", valueJson(d.bytesAllocated)},
                                  {"allocations", valueJson(d.allocs)},
                                  {"net_bytes", valueJson(d.netBytes)}});
        o.insert("operators", os);
        if (!c.keyAverages.empty()) {
            QJsonArray ks;
            for (const ProfilerOpDiff& d : limited(c.keyAverages, limit)) {
                QJsonObject memory;
                for (const OpMemoryDiff& m : d.devices)
                    memory.insert(QString::fromStdString(m.device), QJsonObject{{"mem", valueJson(m.mem)},
                                                                                {"self_mem", valueJson(m.selfMem)},
                                                                                {"allocs", valueJson(m.allocs)},
                                                                                {"alloc_bytes", valueJson(m.allocBytes)}});
                ks.append(QJsonObject{{"name", QString::fromStdString(d.name)}, {"calls", valueJson(d.calls)}, {"memory", memory}});
            }
            o.insert("key_averages", ks);
        }
        if (heaptrack) {
            QJsonArray ss;
            for (const SiteDiff& s : sites)
                ss.append(QJsonObject{{"function", QString::fromStdString(s.function)},
                                      {"file", QString::fromStdString(s.file)},
                                      {"line", static_cast<qint64>(s.line)},
                                      {"module", QString::fromStdString(s.module)},
                                      {"allocations", valueJson(s.allocations)},
                                      {"temporary", valueJson(s.temporary)},
                                      {"peak_bytes", valueJson(s.peakBytes)},
                                      {"leaked_bytes", valueJson(s.leakedBytes)}});
            o.insert("sites", ss);
        }
        if (snapshots) {
            QJsonArray ss; // every changed segment, whatever --limit says
            for (const auto& [device, sd] : segments)
                ss.append(QJsonObject{{"device", QString::fromStdString(device)},
                                      {"address", static_cast<qint64>(sd.address)},
                                      {"total_size", static_cast<qint64>(sd.totalSize)},
                                      {"stream", static_cast<qint64>(sd.stream)},
                                      {"in", inWhich(sd.inA, sd.inB)},
                                      {"allocated_bytes", valueJson(sd.allocatedBytes)},
                                      {"active_bytes", valueJson(sd.activeBytes)}});
            o.insert("segments", ss);
            QJsonArray bs; // every block that differs, whatever --limit says
            for (const TraceComparison::Block& bd : c.blocks)
                bs.append(QJsonObject{{"device", QString::fromStdString(bd.device)},
                                      {"segment", static_cast<qint64>(bd.diff.segmentAddress)},
                                      {"address", static_cast<qint64>(bd.diff.address)},
                                      {"in", inWhich(bd.diff.inA, bd.diff.inB)},
                                      {"size", valueJson(bd.diff.size)},
                                      {"requested_size", valueJson(bd.diff.requestedSize)},
                                      {"state_a", QString::fromStdString(bd.diff.stateA)},
                                      {"state_b", QString::fromStdString(bd.diff.stateB)},
                                      {"site_a", QString::fromStdString(bd.siteA)},
                                      {"site_b", QString::fromStdString(bd.siteB)}});
            o.insert("blocks", bs);
            QJsonArray ps;
            for (const auto& [device, pd] : limited(c.peakSites, limit))
                ps.append(QJsonObject{{"device", QString::fromStdString(device)},
                                      {"site", QString::fromStdString(pd.site)},
                                      {"bytes", valueJson(pd.bytes)},
                                      {"allocations", valueJson(pd.allocations)}});
            o.insert("alive_at_peak", ps);
        }
        if (!c.categories.empty()) {
            QJsonArray cs;
            for (const CategoryDiff& d : c.categories)
                cs.append(QJsonObject{{"device", QString::fromStdString(d.device)},
                                      {"category", QString::fromStdString(d.name)},
                                      {"at_peak_bytes", valueJson(d.atPeak)}});
            o.insert("categories", cs);
        }
        printOut(QString::fromUtf8(QJsonDocument(o).toJson(QJsonDocument::Indented)));
        return 0;
    }

    QString text = QStringLiteral("A: %1 (%2)\nB: %3 (%4)\ndelta = B - A; lined up at %5: B's times shifted by %6\n\n")
                       .arg(p.positionalArguments()[0], QString::fromStdString(c.a.summary.trace.format),
                            p.positionalArguments()[1], QString::fromStdString(c.b.summary.trace.format),
                            QString::fromStdString(alignSpecText(usedSpec)),
                            signedShift(c.b.summary, aligned.shift));
    std::vector<QStringList> rows;
    for (const DeviceDiff& d : devices)
        rows.push_back({QString::fromStdString(d.name), bytes(d.peakBytes.a), bytes(d.peakBytes.b),
                        signedBytes(d.peakBytes.delta()), d.inA ? position(c.a.summary, d.peakTimeNs.a) : "-",
                        d.inB ? position(c.b.summary, d.peakTimeNs.b) : "-",
                        !(d.inA && d.inB) ? "-" : signedShift(c.b.summary, peakOffset(d)),
                        bytes(d.finalBytes.a), bytes(d.finalBytes.b), signedBytes(d.finalBytes.delta())});
    text += formatTable({"device", "peak A", "peak B", "delta", "peak at A", "peak at B", "B's peak, lined up", "final A",
                         "final B", "delta"},
                        rows);
    if (!c.categories.empty()) {
        rows.clear();
        for (const CategoryDiff& d : limited(c.categories, limit))
            rows.push_back({QString::fromStdString(d.device), QString::fromStdString(d.name), bytes(d.atPeak.a), bytes(d.atPeak.b),
                            signedBytes(d.atPeak.delta())});
        text += "\nmemory categories at each trace's peak, most changed first:\n" +
                formatTable({"device", "category", "at peak A", "at peak B", "delta"}, rows);
    }
    if (!c.keyAverages.empty()) {
        // key_averages' columns: the self memory per device, and the inclusive memory's change.
        QStringList header{"operator", "calls A", "calls B", "delta"};
        for (const OpMemoryDiff& m : c.keyAverages.front().devices) {
            const QString dev = QString::fromStdString(m.device);
            header << "self " + dev + " mem A" << "self " + dev + " mem B" << "delta" << dev + " mem delta";
        }
        rows.clear();
        for (const ProfilerOpDiff& d : limited(c.keyAverages, limit)) {
            QStringList row{QString::fromStdString(d.name), count(d.calls.a), count(d.calls.b), signedCount(d.calls.delta())};
            for (const OpMemoryDiff& m : d.devices)
                row << bytes(m.selfMem.a) << bytes(m.selfMem.b) << signedBytes(m.selfMem.delta()) << signedBytes(m.mem.delta());
            rows.push_back(row);
        }
        text += QStringLiteral("\noperators as key_averages counts them, most changed self memory first (%1 changed):\n")
                    .arg(c.keyAverages.size()) +
                formatTable(header, rows);
    } else if (!opDiffs.empty()) {
        rows.clear();
        for (const OpDiff& d : opDiffs)
            rows.push_back({QString::fromStdString(d.name), bytes(d.bytesAllocated.a), bytes(d.bytesAllocated.b),
                            signedBytes(d.bytesAllocated.delta()), count(d.allocs.a), count(d.allocs.b),
                            signedCount(d.allocs.delta())});
        text += "\noperators, most changed bytes allocated first:\n" +
                formatTable({"operator", "allocated A", "allocated B", "delta", "allocs A", "allocs B", "delta"}, rows);
    }
    if (heaptrack && !sites.empty()) {
        rows.clear();
        for (const SiteDiff& s : sites)
            rows.push_back({siteName(s), count(s.allocations.a), count(s.allocations.b), signedCount(s.allocations.delta()),
                            signedCount(s.temporary.delta()), signedBytes(s.peakBytes.delta()),
                            signedBytes(s.leakedBytes.delta())});
        text += "\nallocation sites, most changed calls first (as heaptrack_print B --diff A):\n" +
                formatTable({"site", "calls A", "calls B", "delta", "temporary", "peak", "leaked"}, rows);
    }
    if (snapshots && !segments.empty()) {
        rows.clear();
        for (const auto& [device, sd] : limited(segments, limit))
            rows.push_back({QString::fromStdString(device), hex(sd.address), bytes(sd.totalSize), inWhichText(sd.inA, sd.inB),
                            bytes(sd.allocatedBytes.a), bytes(sd.allocatedBytes.b), signedBytes(sd.allocatedBytes.delta())});
        text += QStringLiteral("\nsegments only in A, only in B, or changed (%1 in all):\n").arg(segments.size()) +
                formatTable({"device", "segment", "size", "in", "allocated A", "allocated B", "delta"}, rows);
    }
    if (snapshots && !c.blocks.empty()) {
        rows.clear();
        for (const TraceComparison::Block& bd : limited(c.blocks, limit)) {
            const BlockDiff& d = bd.diff;
            auto state = [](const std::string& s) { return s.empty() ? QStringLiteral("-") : QString::fromStdString(s); };
            rows.push_back({QString::fromStdString(bd.device), hex(d.segmentAddress), hex(d.address), inWhichText(d.inA, d.inB),
                            d.inA ? bytes(d.size.a) : "-", d.inB ? bytes(d.size.b) : "-", state(d.stateA), state(d.stateB),
                            QString::fromStdString(d.inA ? bd.siteA : bd.siteB)});
        }
        text += QStringLiteral("\nblocks only in A, only in B, or changed (%1 in all):\n").arg(c.blocks.size()) +
                formatTable({"device", "segment", "block", "in", "size A", "size B", "state A", "state B", "site"}, rows);
    }
    if (snapshots && !c.peakSites.empty()) {
        rows.clear();
        for (const auto& [device, pd] : limited(c.peakSites, limit))
            rows.push_back({QString::fromStdString(device), pd.site.empty() ? "(no stack)" : QString::fromStdString(pd.site),
                            bytes(pd.bytes.a), bytes(pd.bytes.b), signedBytes(pd.bytes.delta()), count(pd.allocations.a),
                            count(pd.allocations.b), signedCount(pd.allocations.delta())});
        text += "\nalive at each snapshot's peak, by call site, most changed first:\n" +
                formatTable({"device", "site", "at peak A", "at peak B", "delta", "allocs A", "allocs B", "delta"}, rows);
    }
    printOut(text);
    return 0;
}

} // namespace memviz::cli

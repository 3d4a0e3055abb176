// SPDX-License-Identifier: MIT
#include "cli/Output.h"

#include <QJsonArray>

#include "words/UnitTexts.h"

namespace memviz::cli {

namespace {
using words::bytes;
QString duration(std::int64_t ns) { return words::duration(ns); }
// Exact 64-bit integers in JSON (std::int64_t is not qint64 on LP64).
QJsonValue num(std::int64_t v) { return QJsonValue(static_cast<qint64>(v)); }

// The device's curve peak when the file names a lower one of its own; nullptr otherwise.
const PlotPeak* peakAboveFilePeak(const std::vector<PlotPeak>& peaks, int device) {
    const PlotPeak* p = findPlotPeak(peaks, device);
    return p && p->named ? p : nullptr;
}
} // namespace

QString position(const TraceSummary& s, std::int64_t x) {
    if (s.trace.timeKind == "instructions") return QStringLiteral("%1 instr").arg(x);
    if (s.trace.timeKind == "bytes") return QStringLiteral("%1 B alloc'd").arg(x);
    if (s.trace.timeKind == "index") return QStringLiteral("event %1").arg(x);
    return duration(x);
}

QString signedShift(const TraceSummary& s, std::int64_t x) {
    const QString sign = x < 0 ? QStringLiteral("-") : QStringLiteral("+");
    const std::int64_t magnitude = x < 0 ? -x : x;
    if (s.trace.timeKind == "time") return sign + duration(magnitude);
    return sign + QString::number(magnitude) + (s.trace.timeKind == "index" ? QStringLiteral(" events") : QStringLiteral(" ") + QString::fromStdString(s.trace.timeKind));
}

QJsonObject summaryJson(const TraceSummary& s, const std::vector<PlotPeak>& peaks) {
    QJsonArray devices;
    for (const DeviceSummary& d : s.devices) {
        const PlotPeak* above = peakAboveFilePeak(peaks, d.device);
        QJsonObject o{
            {"device", QString::fromStdString(d.name)},
            {"events", num(d.events)},
            {"allocs", num(d.allocs)},
            {"frees", num(d.frees)},
            {"unmatched_frees", num(d.unmatchedFrees)},
            {"peak_bytes", num(above ? above->bytes : d.peakBytes)},
            {"peak_time_ns", num(above ? above->t : d.peakTimeNs)},
            {"final_bytes", num(d.finalBytes)},
            {"duration_ns", num(d.durationNs)},
        };
        if (above) {
            QJsonObject file{{"what", QString::fromStdString(above->named->what)},
                             {"bytes", num(above->named->bytes)},
                             {"time_ns", num(above->named->t)}};
            if (above->named->snapshot >= 0) file.insert("snapshot", num(above->named->snapshot));
            o.insert("file_peak", file);
        }
        devices.append(o);
    }
    QJsonArray warnings;
    for (const ImportWarning& w : s.warnings)
        warnings.append(QJsonObject{{"kind", QString::fromStdString(w.kind)},
                                    {"count", num(w.count)},
                                    {"first_location", QString::fromStdString(w.firstLocation)},
                                    {"message", QString::fromStdString(w.message)}});
    return QJsonObject{
        {"format", QString::fromStdString(s.trace.format)},
        {"source", QString::fromStdString(s.trace.sourcePath)},
        {"trace_id", num(s.trace.id)},
        {"time_kind", QString::fromStdString(s.trace.timeKind)},
        {"duration_ns", num(s.trace.durationNs)},
        {"devices", devices},
        {"warnings", warnings},
    };
}

QString formatTable(const QStringList& header, const std::vector<QStringList>& rows) {
    QList<int> widths;
    for (const QString& h : header) widths.append(static_cast<int>(h.size()));
    for (const QStringList& r : rows)
        for (int i = 0; i < r.size() && i < widths.size(); ++i) widths[i] = std::max(widths[i], static_cast<int>(r[i].size()));
    auto line = [&](const QStringList& cells) {
        QString out;
        for (int i = 0; i < cells.size(); ++i) {
            if (i) out += "  ";
            out += i == 0 ? cells[i].leftJustified(widths[i]) : cells[i].rightJustified(widths[i]);
        }
        return out.trimmed() + "\n";
    };
    QString out = line(header);
    for (const QStringList& r : rows) out += line(r);
    return out;
}

QString summaryText(const TraceSummary& s, const std::vector<PlotPeak>& peaks) {
    QString out = QStringLiteral("%1 (%2), trace %3, imported %4\n")
                      .arg(QString::fromStdString(s.trace.sourcePath), QString::fromStdString(s.trace.format))
                      .arg(s.trace.id)
                      .arg(QString::fromStdString(s.trace.importedAt));
    out += s.trace.timeKind == "index"
               ? QStringLiteral("no times recorded: positions are event numbers; %1 events\n\n").arg(s.trace.eventCount)
               : QStringLiteral("duration %1, %2 events\n\n").arg(position(s, s.trace.durationNs)).arg(s.trace.eventCount);
    std::vector<QStringList> rows;
    QString notes;
    for (const DeviceSummary& d : s.devices) {
        const PlotPeak* above = peakAboveFilePeak(peaks, d.device);
        rows.push_back({QString::fromStdString(d.name), QString::number(d.events), QString::number(d.allocs),
                        QString::number(d.frees), bytes(above ? above->bytes : d.peakBytes),
                        position(s, above ? above->t : d.peakTimeNs), bytes(d.finalBytes)});
        if (above)
            notes += QStringLiteral("note: %1's peak is the curve's maximum; %2: %3 at %4\n")
                         .arg(QString::fromStdString(d.name), QString::fromStdString(above->named->what), bytes(above->named->bytes),
                              position(s, above->named->t));
    }
    out += formatTable({"device", "events", "allocs", "frees", "peak", "peak at", "final"}, rows) + notes;
    for (const ImportWarning& w : s.warnings) {
        const QString where = w.firstLocation.empty() ? QString()
                                                      : QStringLiteral(" (first at %1)").arg(QString::fromStdString(w.firstLocation));
        out += QStringLiteral("\nwarning: %1 x%2%3: %4")
                   .arg(QString::fromStdString(w.kind))
                   .arg(w.count)
                   .arg(where, QString::fromStdString(w.message));
    }
    if (!s.warnings.empty()) out += "\n";
    return out;
}

QJsonObject opsJson(const TraceSummary& s, const std::vector<OpRow>& rows, const QString& device) {
    QJsonArray ops;
    for (const OpRow& r : rows)
        ops.append(QJsonObject{{"name", QString::fromStdString(r.name)},
                               {"allocs", num(r.allocs)},
                               {"frees", num(r.frees)},
                               {"bytes_allocated", num(r.bytesAllocated)},
                               {"bytes_freed", num(r.bytesFreed)},
                               {"net_bytes", num(r.netBytes())},
                               {"largest_alloc", num(r.largestAlloc)}});
    return QJsonObject{{"format", QString::fromStdString(s.trace.format)},
                       {"source", QString::fromStdString(s.trace.sourcePath)},
                       {"trace_id", num(s.trace.id)},
                       {"device", device.isEmpty() ? QJsonValue("all") : QJsonValue(device)},
                       {"ops", ops}};
}

QJsonObject profilerOpsJson(const TraceSummary& s, const ProfilerOpsTable& table, const std::vector<int>& devices, bool grouped) {
    QJsonArray ops;
    for (const ProfilerOpRow& r : table.rows) {
        QJsonObject memory;
        for (int d : devices) {
            const OpMemory& m = r.memory[static_cast<std::size_t>(d)];
            memory.insert(QString::fromStdString(table.devices[static_cast<std::size_t>(d)]),
                          QJsonObject{{"mem", num(m.bytes)},
                                      {"self_mem", num(m.selfBytes)},
                                      {"allocs", num(m.allocs)},
                                      {"alloc_bytes", num(m.allocBytes)},
                                      {"self_allocs", num(m.selfAllocs)},
                                      {"self_alloc_bytes", num(m.selfAllocBytes)}});
        }
        QJsonObject row{{"name", QString::fromStdString(r.name)}, {"calls", num(r.calls)}, {"memory", memory}};
        if (grouped) row.insert("input_shapes", QString::fromStdString(r.shapes));
        ops.append(row);
    }
    return QJsonObject{{"format", QString::fromStdString(s.trace.format)},
                       {"source", QString::fromStdString(s.trace.sourcePath)},
                       {"trace_id", num(s.trace.id)},
                       {"semantics", "key_averages"},
                       {"grouped_by_input_shapes", grouped},
                       {"ops", ops}};
}

QString profilerOpsText(const ProfilerOpsTable& table, const std::vector<int>& devices, bool grouped) {
    QStringList header{"name"};
    if (grouped) header << "input shapes";
    header << "calls";
    for (int d : devices) {
        const QString name = QString::fromStdString(table.devices[static_cast<std::size_t>(d)]);
        header << name + " mem"
               << "self " + name + " mem" << name + " allocs";
    }
    std::vector<QStringList> cells;
    for (const ProfilerOpRow& r : table.rows) {
        QStringList row{QString::fromStdString(r.name)};
        if (grouped) row << QString::fromStdString(r.shapes);
        row << QString::number(r.calls);
        for (int d : devices) {
            const OpMemory& m = r.memory[static_cast<std::size_t>(d)];
            row << bytes(m.bytes) << bytes(m.selfBytes) << QString::number(m.allocs);
        }
        cells.push_back(row);
    }
    return formatTable(header, cells);
}

QString opsText(const std::vector<OpRow>& rows) {
    std::vector<QStringList> cells;
    for (const OpRow& r : rows)
        cells.push_back({QString::fromStdString(r.name), QString::number(r.allocs), bytes(r.bytesAllocated), bytes(r.bytesFreed),
                         bytes(r.netBytes()), bytes(r.largestAlloc)});
    return formatTable({"operator", "allocs", "allocated", "freed", "net", "largest"}, cells);
}

} // namespace memviz::cli

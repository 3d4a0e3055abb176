#include "cli/Output.h"

#include <QJsonArray>

#include "core/Units.h"

namespace memviz::cli {

namespace {
QString bytes(std::int64_t b) { return QString::fromStdString(formatBytes(static_cast<double>(b))); }
QString duration(std::int64_t ns) { return QString::fromStdString(formatDuration(static_cast<double>(ns))); }
// Exact 64-bit integers in JSON (std::int64_t is not qint64 on LP64).
QJsonValue num(std::int64_t v) { return QJsonValue(static_cast<qint64>(v)); }
} // namespace

QJsonObject summaryJson(const TraceSummary& s) {
    QJsonArray devices;
    for (const DeviceSummary& d : s.devices) {
        devices.append(QJsonObject{
            {"device", QString::fromStdString(d.name)},
            {"events", num(d.events)},
            {"allocs", num(d.allocs)},
            {"frees", num(d.frees)},
            {"unmatched_frees", num(d.unmatchedFrees)},
            {"peak_bytes", num(d.peakBytes)},
            {"peak_time_ns", num(d.peakTimeNs)},
            {"final_bytes", num(d.finalBytes)},
            {"duration_ns", num(d.durationNs)},
        });
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

QString summaryText(const TraceSummary& s) {
    QString out = QStringLiteral("%1 (%2), trace %3, imported %4\n")
                      .arg(QString::fromStdString(s.trace.sourcePath), QString::fromStdString(s.trace.format))
                      .arg(s.trace.id)
                      .arg(QString::fromStdString(s.trace.importedAt));
    // Traces without times count in event numbers (time_kind "index").
    const bool byIndex = s.trace.timeKind == "index";
    const auto when = [byIndex](std::int64_t t) { return byIndex ? "#" + QString::number(t) : duration(t); };
    out += byIndex ? QStringLiteral("no times recorded: positions are event numbers; %1 events\n\n").arg(s.trace.eventCount)
                   : QStringLiteral("duration %1, %2 events\n\n").arg(duration(s.trace.durationNs)).arg(s.trace.eventCount);
    std::vector<QStringList> rows;
    for (const DeviceSummary& d : s.devices)
        rows.push_back({QString::fromStdString(d.name), QString::number(d.events), QString::number(d.allocs),
                        QString::number(d.frees), bytes(d.peakBytes), when(d.peakTimeNs), bytes(d.finalBytes)});
    out += formatTable({"device", "events", "allocs", "frees", "peak", "peak at", "final"}, rows);
    for (const ImportWarning& w : s.warnings)
        out += QStringLiteral("\nwarning: %1 x%2 (first at %3): %4")
                   .arg(QString::fromStdString(w.kind))
                   .arg(w.count)
                   .arg(QString::fromStdString(w.firstLocation), QString::fromStdString(w.message));
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

QString opsText(const std::vector<OpRow>& rows) {
    std::vector<QStringList> cells;
    for (const OpRow& r : rows)
        cells.push_back({QString::fromStdString(r.name), QString::number(r.allocs), bytes(r.bytesAllocated),
                         bytes(r.bytesFreed), bytes(r.netBytes()), bytes(r.largestAlloc)});
    return formatTable({"operator", "allocs", "allocated", "freed", "net", "largest"}, cells);
}

} // namespace memviz::cli

// SPDX-License-Identifier: MIT
#include "cli/RecordingOutput.h"

#include <csignal>
#include <cstring>

#include "cli/Output.h"
#include "words/Units.h"
#include "formats/live/Launcher.h"

namespace memviz::cli {

namespace {

QJsonValue optionalInt(const std::optional<int>& v) { return v ? QJsonValue(*v) : QJsonValue(QJsonValue::Null); }

QString endText(const LiveRecordingInfo& r) {
    if (r.recording()) return QStringLiteral("still recording (or its recorder died a moment ago)");
    const QString reason = QString::fromStdString(r.endReason);
    QString text;
    if (r.exitCode) text = QStringLiteral("the program exited with status %1").arg(*r.exitCode);
    else if (r.exitSignal)
        text = QStringLiteral("the program was killed by signal %1 (%2)")
                   .arg(*r.exitSignal)
                   .arg(QString::fromUtf8(::strsignal(*r.exitSignal)));
    else if (reason == "recorder-died")
        text = QStringLiteral("memviz stopped recording unexpectedly (killed or crashed); what it had committed is kept");
    else text = QString::fromStdString(r.message);
    if (text.isEmpty()) text = reason;
    return text;
}

} // namespace

QJsonObject recordingJson(const LiveRecordingInfo& r) {
    return QJsonObject{
        {"source", QString::fromStdString(r.source)},
        {"state", QString::fromStdString(r.state)},
        {"target_pid", optionalInt(r.targetPid)},
        {"command", QString::fromStdString(r.command)},
        {"interval_ns", static_cast<qint64>(r.intervalNs)},
        {"children", r.children},
        {"end_reason", r.endReason.empty() ? QJsonValue(QJsonValue::Null) : QJsonValue(QString::fromStdString(r.endReason))},
        {"exit_code", optionalInt(r.exitCode)},
        {"exit_signal", optionalInt(r.exitSignal)},
        {"message", QString::fromStdString(r.message)},
    };
}

QString recordingText(const LiveRecordingInfo& r) {
    QString what;
    if (r.source == "probe") what = QStringLiteral("PyTorch probe stream");
    else
        what = QStringLiteral("%1 every %2%3")
                   .arg(r.source == "launch" ? QStringLiteral("launched and sampled") : QStringLiteral("attached and sampled"))
                   .arg(QString::fromStdString(formatDuration(static_cast<double>(r.intervalNs), 0)))
                   .arg(r.children ? QStringLiteral(", children summed in") : QString());
    QString out = QStringLiteral("live recording: %1").arg(what);
    if (r.targetPid) out += QStringLiteral(", pid %1").arg(*r.targetPid);
    out += "\n";
    if (!r.command.empty()) out += QStringLiteral("command: %1\n").arg(QString::fromStdString(oneLineTitle(r.command, 400)));
    out += QStringLiteral("ended: %1\n").arg(endText(r));
    return out;
}

QJsonObject liveTraceJson(Database& db, std::int64_t traceId) {
    QJsonObject o = summaryJson(loadSummary(db, traceId));
    o.insert("samples", static_cast<qint64>(liveSampleMoments(db, traceId))); // moments, not one row per series
    if (const auto rec = findLiveRecording(db, traceId)) o.insert("recording", recordingJson(*rec));
    return o;
}

QString liveTraceHeadline(Database& db, const QString& store, std::int64_t traceId) {
    QString out = QStringLiteral("recorded %1 samples over %2 into %3 (trace %4)\n")
                      .arg(liveSampleMoments(db, traceId))
                      .arg(QString::fromStdString(formatDuration(static_cast<double>(loadSummary(db, traceId).trace.durationNs))), store)
                      .arg(traceId);
    if (const auto rec = findLiveRecording(db, traceId)) out += recordingText(*rec);
    return out;
}

QString deviceLines(const TraceSummary& summary, const QString& indent) {
    QString out;
    for (const DeviceSummary& d : summary.devices)
        out += indent + QStringLiteral("%1 peak %2 at %3, final %4\n")
                            .arg(QString::fromStdString(d.name), QString::fromStdString(formatBytes(static_cast<double>(d.peakBytes))),
                                 QString::fromStdString(formatDuration(static_cast<double>(d.peakTimeNs))),
                                 QString::fromStdString(formatBytes(static_cast<double>(d.finalBytes))));
    return out;
}

} // namespace memviz::cli

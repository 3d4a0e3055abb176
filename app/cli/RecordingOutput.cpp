// SPDX-License-Identifier: MIT
#include "cli/RecordingOutput.h"

#include <csignal>
#include <cstring>

#include "core/Units.h"
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

} // namespace memviz::cli

// SPDX-License-Identifier: MIT
#include "widgets/snapshot/SnapshotSummaryView.h"

#include "words/Units.h"
#include "widgets/TraceSession.h"
#include "widgets/snapshot/SnapshotSession.h"

namespace memviz {

namespace {

QString bytes(std::int64_t b) {
    return QStringLiteral("%1 <span style='color:#777'>(%L2&nbsp;B)</span>")
        .arg(QString::fromStdString(formatBytes(static_cast<double>(b))))
        .arg(b);
}
QString esc(const std::string& s) { return QString::fromStdString(s).toHtmlEscaped(); }
QString row(const QString& label, const QString& value) {
    return QStringLiteral("<tr><td style='padding-right:14px'>%1</td><td>%2</td></tr>").arg(label, value);
}

} // namespace

SnapshotSummaryView::SnapshotSummaryView(SnapshotSession* session, QWidget* parent) : QTextBrowser(parent), session_(session) {
    setOpenLinks(false);
    connect(session_, &SnapshotSession::reloaded, this, &SnapshotSummaryView::refresh);
    refresh();
}

void SnapshotSummaryView::refresh() {
    html_.clear();
    if (!session_->isActive()) {
        setHtml(html_);
        return;
    }
    if (session_->loading() || !session_->loadError().isEmpty()) {
        html_ = session_->loading()
                    ? tr("<p style='color:#666'>Reading the snapshot\u2026</p>")
                    : tr("<p style='color:#a00'>Cannot read the snapshot: %1</p>").arg(session_->loadError().toHtmlEscaped());
        setHtml(html_);
        return;
    }
    const SnapshotOverview& o = session_->overview();
    const TraceSummary& summary = session_->trace()->summary();
    QString h;
    for (const SnapshotDeviceStats& d : o.devices) {
        const DeviceSummary* s = nullptr;
        for (const DeviceSummary& x : summary.devices)
            if (x.device == d.device) s = &x;
        h += QStringLiteral("<h3>%1</h3><table>").arg(esc(d.name));
        h += row(tr("Trace entries"), QStringLiteral("%L1").arg(d.entries));
        if (s) {
            h += row(tr("Allocations / frees"), QStringLiteral("%L1 / %L2").arg(s->allocs).arg(s->frees));
            h += row(
                tr("Peak allocated"),
                tr("%1 at %2 (after entry %L3)").arg(bytes(d.peakBytes), session_->formatTime(s->peakTimeNs)).arg(d.peakSeq));
            h += row(tr("Allocated at the end"), bytes(s->finalBytes));
        }
        h += row(tr("Reserved (segments)"), tr("%1 at the start, %2 at the end in %L3 segments")
                                                .arg(bytes(d.reservedInitial), bytes(d.reservedFinal))
                                                .arg(d.segments));
        if (d.entries > 0 && d.baselineBlocks > 0)
            h += row(tr("Before the trace"),
                     tr("%1 in %L2 allocations were made before the trace began (%L3 of them freed during it): "
                        "recording started after them, or its ring buffer (max_entries) dropped their alloc. "
                        "Allocated bytes start from this baseline, so they never go negative.")
                         .arg(bytes(d.baselineBytes))
                         .arg(d.baselineBlocks)
                         .arg(d.baselineFreedBlocks));
        else if (d.entries == 0) h += row(tr("Trace"), tr("none recorded: the numbers are the state the snapshot was taken in"));
        QString check = d.consistent() ? tr("<span style='color:#070'>&#10004; consistent</span>")
                                       : tr("<span style='color:#a00'>&#10008; inconsistent</span>");
        check += tr(": allocated bytes replayed to the end %1; the final segments' allocated blocks %2 requested")
                     .arg(bytes(d.finalReplayed), bytes(d.finalActiveRequested));
        if (d.finalPendingRequested) check += tr(" + %1 pending free").arg(bytes(d.finalPendingRequested));
        check += tr(" (%1 as the allocator rounds them)").arg(bytes(d.finalActiveBytes));
        if (d.unmatchedLive) check += tr("; %L1 allocations alive in the trace are not in the segments").arg(d.unmatchedLive);
        if (d.sizeMismatches) check += tr("; %L1 sizes differ from their block").arg(d.sizeMismatches);
        h += row(tr("Consistency"), check);
        QStringList actions;
        for (const auto& [device, count] : o.actionCounts)
            if (device == d.device) actions << QStringLiteral("%1&nbsp;%L2").arg(esc(count.first)).arg(count.second);
        if (!actions.isEmpty()) h += row(tr("Entries per action"), actions.join(QStringLiteral(", ")));
        h += QStringLiteral("</table>");
    }
    if (!o.ooms.empty()) {
        h += tr("<h3>Out of memory</h3><table>");
        for (const SnapshotOomRow& oom : o.ooms) {
            QString name;
            for (const SnapshotDeviceStats& d : o.devices)
                if (d.device == oom.device) name = QString::fromStdString(d.name);
            h += row(
                tr("%1 at %2").arg(name, session_->formatTime(oom.t)),
                tr("asked for %1; the device had %2 free")
                    .arg(bytes(oom.requestedBytes), oom.deviceFreeBytes ? bytes(*oom.deviceFreeBytes) : tr("(not recorded)")));
        }
        h += QStringLiteral("</table>");
    }
    if (!o.annotations.empty()) {
        h += tr("<h3>Annotations</h3><table>");
        for (const SnapshotAnnotationRow& a : o.annotations)
            h += row(a.t ? session_->formatTime(*a.t) : tr("(not placed: the trace has no times)"),
                     QStringLiteral("%1 %2").arg(esc(a.stage), esc(a.name)));
        h += QStringLiteral("</table>");
    }
    if (!o.allocatorSettings.empty()) {
        h += tr("<h3>Allocator settings</h3><table>");
        for (const auto& [key, value] : o.allocatorSettings)
            h += row(esc(key), value.empty() ? tr("<span style='color:#777'>(empty)</span>") : esc(value));
        h += QStringLiteral("</table>");
    }
    h += tr("<h3>File</h3><table>");
    for (const auto& [key, value] : o.snapshotInfo) h += row(esc(key), esc(value));
    h += QStringLiteral("</table>");
    html_ = h;
    setHtml(h);
}

} // namespace memviz

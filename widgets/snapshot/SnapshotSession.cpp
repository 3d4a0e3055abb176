// SPDX-License-Identifier: MIT
#include "widgets/snapshot/SnapshotSession.h"

#include <QLocale>
#include <algorithm>

#include "core/Units.h"
#include "widgets/TraceSession.h"

namespace memviz {

SnapshotSession::SnapshotSession(TraceSession* trace, QObject* parent)
    : QObject(parent), trace_(trace), allocations_(std::make_shared<const std::vector<SnapshotAllocationRow>>()) {
    connect(trace_, &TraceSession::traceChanged, this, &SnapshotSession::reload);
    reload();
}

SnapshotSession::~SnapshotSession() = default;

Database& SnapshotSession::database() { return trace_->database(); }

void SnapshotSession::reload() {
    active_ = trace_->isOpen() && isSnapshotTrace(trace_->database(), trace_->traceId());
    overview_ = {};
    stacks_ = {};
    allocations_ = std::make_shared<const std::vector<SnapshotAllocationRow>>();
    moment_ = -1;
    momentTime_.reset();
    if (active_) {
        overview_ = loadSnapshotOverview(trace_->database(), trace_->traceId());
        stacks_ = loadStackCatalog(trace_->database(), trace_->traceId());
        timed_ = trace_->summary().trace.timeKind != "index";
        device_ = overview_.devices.empty() ? 0 : overview_.devices.front().device;
        loadDevice();
    }
    emit reloaded();
    emit momentChanged();
}

void SnapshotSession::loadDevice() {
    allocations_ = std::make_shared<const std::vector<SnapshotAllocationRow>>(
        loadAllocations(trace_->database(), trace_->traceId(), device_));
    moment_ = peakMoment();
    momentTime_ = entryTime(trace_->database(), trace_->traceId(), device_, moment_);
}

void SnapshotSession::setDevice(int device) {
    if (!active_ || device == device_ || !overview_.device(device)) return;
    device_ = device;
    loadDevice();
    emit reloaded();
    emit momentChanged();
}

void SnapshotSession::setMoment(std::int64_t seq) {
    if (!active_) return;
    seq = std::clamp<std::int64_t>(seq, -1, lastMoment());
    if (seq == moment_) return;
    moment_ = seq;
    momentTime_ = entryTime(trace_->database(), trace_->traceId(), device_, moment_);
    emit momentChanged();
}

void SnapshotSession::setMomentAtTime(std::int64_t t) {
    if (active_) setMoment(entryAtTime(trace_->database(), trace_->traceId(), device_, t));
}

std::int64_t SnapshotSession::peakMoment() const {
    const SnapshotDeviceStats* d = deviceStats();
    return d ? d->peakSeq : -1;
}

std::int64_t SnapshotSession::lastMoment() const {
    const SnapshotDeviceStats* d = deviceStats();
    return d ? d->entries - 1 : -1;
}

QString SnapshotSession::formatTime(std::int64_t t) const {
    return timed_ ? QString::fromStdString(formatDuration(static_cast<double>(t))) : tr("entry %L1").arg(t);
}

QString SnapshotSession::formatSpan(std::int64_t span) const {
    return timed_ ? QString::fromStdString(formatDuration(static_cast<double>(span))) : tr("%L1 entries").arg(span);
}

QString SnapshotSession::describeMoment() const {
    const SnapshotDeviceStats* d = deviceStats();
    if (!active_ || !d) return {};
    if (d->entries == 0) return tr("no trace recorded: the state the snapshot was taken in");
    QString text = moment_ < 0 ? tr("before the first of %L1 entries").arg(d->entries)
                               : tr("after entry %L1 of %L2").arg(moment_).arg(d->entries);
    if (timed_ && momentTime_) text += tr(" at %1").arg(formatTime(*momentTime_));
    if (moment_ == d->peakSeq) text += tr(" (the peak)");
    else if (moment_ == d->entries - 1) text += tr(" (the end)");
    return text;
}

} // namespace memviz

// SPDX-License-Identifier: MIT
#include "widgets/snapshot/SnapshotSession.h"

#include <QLocale>
#include <algorithm>

#include "core/Progress.h"
#include "words/Units.h"
#include "widgets/TraceSession.h"
#include "widgets/WorkerPool.h"

namespace memviz {

// What the worker reads: the whole trace's overview and stacks (when another trace opens) and
// the device's allocations. Handed over by pointer: the GUI thread copies nothing big.
struct SnapshotSession::Loaded {
    std::optional<SnapshotOverview> overview;
    std::optional<StackCatalog> stacks;
    int device = 0;
    std::shared_ptr<const std::vector<SnapshotAllocationRow>> allocations;
    std::int64_t moment = -1; // the device's peak entry
    std::optional<std::int64_t> momentTime;
};

SnapshotSession::SnapshotSession(TraceSession* trace, QObject* parent)
    : QObject(parent), trace_(trace), allocations_(std::make_shared<const std::vector<SnapshotAllocationRow>>()), load_(this) {
    load_.setErrorHandler([this](const QString& message) {
        loadError_ = message;
        emit reloaded();
        emit momentChanged();
    });
    connect(trace_, &TraceSession::traceChanged, this, &SnapshotSession::reload);
    reload();
}

SnapshotSession::~SnapshotSession() { load_.cancel(); }

Database& SnapshotSession::database() { return trace_->database(); }

void SnapshotSession::waitForLoad() { load_.wait(); }

void SnapshotSession::reload() {
    load_.cancel(); // a read for the previous trace is dropped
    active_ = trace_->isOpen() && isSnapshotTrace(trace_->database(), trace_->traceId());
    overview_ = {};
    stacks_ = {};
    if (active_) timed_ = trace_->summary().trace.timeKind != "index";
    loadDevice(true);
}

// Clears what the views show, starts the read (of the overview and stacks too when
// `withOverview`) and tells the views that it runs.
void SnapshotSession::loadDevice(bool withOverview) {
    // The previous device's rows (up to millions) are freed on a worker, not here.
    releaseOnWorker(std::exchange(allocations_, std::make_shared<const std::vector<SnapshotAllocationRow>>()));
    moment_ = -1;
    momentTime_.reset();
    loadError_.clear();
    if (active_) {
        const std::int64_t trace = trace_->traceId();
        const int device = device_;
        // A device switch keeps the overview: its peak entry is known here.
        const SnapshotDeviceStats* known = withOverview ? nullptr : overview_.device(device);
        const std::int64_t knownPeak = known ? known->peakSeq : -1;
        load_.run(trace_->storePath(),
                  [this, trace, device, withOverview, knownPeak](Database& db,
                                                                 const Progress& cancel) -> BackgroundQuery::Apply {
                      auto loaded = std::make_shared<Loaded>();
                      Loaded& l = *loaded;
                      l.device = device;
                      if (withOverview) {
                          l.overview = loadSnapshotOverview(db, trace);
                          cancel.checkCancelled();
                          l.stacks = loadStackCatalog(db, trace);
                          cancel.checkCancelled();
                          l.device = l.overview->devices.empty() ? 0 : l.overview->devices.front().device;
                      }
                      l.allocations = std::make_shared<const std::vector<SnapshotAllocationRow>>(
                          loadAllocations(db, trace, l.device));
                      cancel.checkCancelled();
                      const SnapshotDeviceStats* stats = l.overview ? l.overview->device(l.device) : nullptr;
                      l.moment = stats ? stats->peakSeq : knownPeak;
                      // Decoding the moment's chunk of entries costs tens of ms: done here.
                      l.momentTime = entryTime(db, trace, l.device, l.moment);
                      return [this, loaded] { apply(std::move(*loaded)); };
                  });
    }
    emit reloaded();
    emit momentChanged();
}

void SnapshotSession::apply(Loaded l) {
    if (l.overview) overview_ = std::move(*l.overview);
    if (l.stacks) stacks_ = std::move(*l.stacks);
    device_ = l.device;
    allocations_ = std::move(l.allocations);
    moment_ = l.moment;
    momentTime_ = l.momentTime;
    emit reloaded();
    emit momentChanged();
}

void SnapshotSession::setDevice(int device) {
    // While another device's read runs, this one supersedes it (its result is dropped); while
    // the trace's overview is read, no device is known yet.
    if (!active_ || device == device_ || !overview_.device(device)) return;
    device_ = device;
    loadDevice(false);
}

void SnapshotSession::setMoment(std::int64_t seq) {
    if (!active_ || loading()) return;
    seq = std::clamp<std::int64_t>(seq, -1, lastMoment());
    if (seq == moment_) return;
    moment_ = seq;
    momentTime_ = entryTime(trace_->database(), trace_->traceId(), device_, moment_);
    emit momentChanged();
}

void SnapshotSession::setMomentAtTime(std::int64_t t) {
    if (active_ && !loading()) setMoment(entryAtTime(trace_->database(), trace_->traceId(), device_, t));
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
    if (loading()) return tr("reading the allocations\u2026");
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

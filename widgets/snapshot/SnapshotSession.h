// SPDX-License-Identifier: MIT
#pragma once
// What the snapshot views share: the open snapshot trace's overview, stacks and allocations
// (of the device shown), and the moment they show: an entry of that device's trace (after
// which the state is taken), by default the peak of allocated bytes. Views listen; the
// timeline sets the moment by a click. The overview, stacks and allocations are read on a
// worker (BackgroundQuery: 0.6 s for 1.87M allocations): reloaded() comes once when the read
// starts (loading() is true, the views say so) and once when its result is applied; a newer
// trace or device supersedes a read that is still running.
#include <QObject>
#include <QString>
#include <memory>
#include <optional>
#include <vector>

#include "formats/snapshot/SnapshotQueries.h"
#include "widgets/BackgroundQuery.h"

namespace memviz {

class Database;
class TraceSession;

class SnapshotSession : public QObject {
    Q_OBJECT
public:
    explicit SnapshotSession(TraceSession* trace, QObject* parent = nullptr);
    ~SnapshotSession() override;

    // A snapshot trace is open.
    bool isActive() const { return active_; }
    // The trace's or device's data are being read on the worker; the accessors below are
    // empty until they land.
    bool loading() const { return load_.isPending(); }
    // Why the last read failed ("" when it did not).
    const QString& loadError() const { return loadError_; }
    // Blocks until a pending read has landed and reloaded() was emitted (tests, screenshots).
    void waitForLoad();
    TraceSession* trace() const { return trace_; }
    Database& database();
    const SnapshotOverview& overview() const { return overview_; }
    const StackCatalog& stacks() const { return stacks_; }
    bool timed() const { return timed_; }

    // The memviz device shown; its statistics and allocations.
    int device() const { return device_; }
    void setDevice(int device);
    const SnapshotDeviceStats* deviceStats() const { return overview_.device(device_); }
    const std::vector<SnapshotAllocationRow>& allocations() const { return *allocations_; }
    // The same, for work on another thread (stays valid after the session moves on).
    std::shared_ptr<const std::vector<SnapshotAllocationRow>> sharedAllocations() const { return allocations_; }

    // The moment: after entry `moment()` of the device's trace (-1: before its first entry).
    std::int64_t moment() const { return moment_; }
    std::optional<std::int64_t> momentTime() const { return momentTime_; }
    void setMoment(std::int64_t seq);
    void setMomentAtTime(std::int64_t t);
    std::int64_t peakMoment() const;
    std::int64_t lastMoment() const;
    // "after entry 1,402 of 5,163 at 138.070 ms (the peak)".
    QString describeMoment() const;

    // A time on the trace's axis: "138.070 ms", or "entry 1,402" when the trace has no times.
    QString formatTime(std::int64_t t) const;
    QString formatSpan(std::int64_t ns) const;

signals:
    void reloaded(); // another trace or device
    void momentChanged();

private:
    struct Loaded;
    void reload();
    void loadDevice(bool withOverview);
    void apply(Loaded loaded);

    TraceSession* trace_;
    bool active_ = false;
    bool timed_ = true;
    SnapshotOverview overview_;
    StackCatalog stacks_;
    int device_ = 0;
    std::shared_ptr<const std::vector<SnapshotAllocationRow>> allocations_;
    std::int64_t moment_ = -1;
    std::optional<std::int64_t> momentTime_;
    QString loadError_;
    BackgroundQuery load_;
};

} // namespace memviz

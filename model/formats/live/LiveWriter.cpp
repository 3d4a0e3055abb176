// SPDX-License-Identifier: MIT
#include "formats/live/LiveWriter.h"

#include <unistd.h>

#include "core/Clock.h"
#include "core/Errors.h"
#include "formats/live/ProcFiles.h"

namespace memviz {

RecorderIdentity currentRecorder() {
    RecorderIdentity r;
    r.pid = static_cast<int>(::getpid());
    r.startTicks = processStartTicks(r.pid).value_or(0);
    r.boot = bootId();
    return r;
}

bool isRecorderAlive(const RecorderIdentity& recorder) {
    if (recorder.boot != bootId()) return false; // another boot (or machine): long gone
    const auto start = processStartTicks(recorder.pid);
    return start && *start == recorder.startTicks;
}

LiveWriter::LiveWriter(Database& db, const LiveRecordingSpec& spec)
    : db_(db), insertSample_(db, "INSERT INTO live_samples(trace_id, series, t, value) VALUES (?,?,?,?)"),
      insertMarker_(db, "INSERT INTO live_markers(trace_id, t, kind, label) VALUES (?,?,?,?)"),
      insertOp_(db, "INSERT OR REPLACE INTO live_ops(trace_id, seq, device, t, t_end, kind, name, phase, step, "
                    "bytes_before, bytes_after) VALUES (?,?,?,?,?,?,?,?,?,?,?)") {
    const RecorderIdentity me = currentRecorder();
    Transaction tx(db_);
    Statement trace(db_, "INSERT INTO traces(source_path, format, imported_at, epoch_ns, time_kind) VALUES (?,?,?,?,'time')");
    trace.bind(1, spec.title).bind(2, spec.format).bind(3, isoNowUtc());
    trace.bindOptional(4, spec.epochNs);
    trace.run();
    traceId_ = db_.lastInsertRowId();
    Statement rec(db_, "INSERT INTO live_recordings(trace_id, source, state, target_pid, command, interval_ns, children, "
                       "recorder_pid, recorder_start, recorder_boot) VALUES (?,?,'recording',?,?,?,?,?,?,?)");
    rec.bind(1, traceId_).bind(2, spec.source);
    rec.bindOptional(3, spec.targetPid);
    rec.bind(4, spec.command).bind(5, spec.intervalNs).bind(6, spec.children ? 1 : 0);
    rec.bind(7, me.pid).bind(8, me.startTicks).bind(9, me.boot).run();
    tx.commit();
}

LiveWriter::~LiveWriter() {
    try {
        commit();
    } catch (...) {
        // The destructor cannot report; what was committed before stays.
    }
}

void LiveWriter::begin() {
    if (inTransaction_) return;
    db_.exec("BEGIN IMMEDIATE");
    inTransaction_ = true;
}

int LiveWriter::addSeries(const LiveSeriesSpec& spec) {
    begin();
    const int series = seriesCount_++;
    Statement s(db_, "INSERT INTO live_series(trace_id, series, device, name, unit, is_primary) VALUES (?,?,?,?,?,?)");
    s.bind(1, traceId_).bind(2, series).bind(3, spec.device).bind(4, spec.name).bind(5, spec.unit);
    s.bind(6, spec.primary ? 1 : 0).run();
    return series;
}

void LiveWriter::addSample(int series, std::int64_t t, std::int64_t value) {
    if (series < 0 || series >= seriesCount_) throw StoreError("unknown live series " + std::to_string(series));
    begin();
    insertSample_.bind(1, traceId_).bind(2, series).bind(3, t).bind(4, value).run();
    ++pendingSamples_;
    if (t > latestSampleT_) {
        latestSampleT_ = t;
        ++pendingMoments_;
    }
    if (t > pendingT_) pendingT_ = t;
}

void LiveWriter::addMarker(std::int64_t t, std::string_view kind, std::string_view label) {
    begin();
    insertMarker_.bind(1, traceId_).bind(2, t).bind(3, kind).bind(4, label).run();
}

void LiveWriter::addOp(const LiveOpRecord& op) {
    begin();
    insertOp_.bind(1, traceId_)
        .bind(2, op.seq)
        .bind(3, op.device)
        .bind(4, op.t)
        .bind(5, op.tEnd)
        .bind(6, op.kind)
        .bind(7, op.name)
        .bind(8, op.phase)
        .bind(9, op.step)
        .bind(10, op.bytesBefore)
        .bind(11, op.bytesAfter)
        .run();
}

void LiveWriter::addStorage(std::int64_t id, std::string_view device, std::int64_t bytes, std::string_view op,
                            std::string_view phase, std::int64_t tAlloc) {
    begin();
    if (!insertStorage_)
        insertStorage_.emplace(db_, "INSERT OR REPLACE INTO live_storages(trace_id, id, device, bytes, op, phase, t_alloc) "
                                    "VALUES (?,?,?,?,?,?,?)");
    Statement& s = *insertStorage_;
    s.bind(1, traceId_).bind(2, id).bind(3, device).bind(4, bytes).bind(5, op).bind(6, phase).bind(7, tAlloc).run();
}

void LiveWriter::freeStorage(std::int64_t id, std::int64_t tFree) {
    begin();
    if (!freeStorage_) freeStorage_.emplace(db_, "UPDATE live_storages SET t_free = ? WHERE trace_id = ? AND id = ? AND t_free IS NULL");
    Statement& s = *freeStorage_;
    s.bind(1, tFree).bind(2, traceId_).bind(3, id).run();
}

void LiveWriter::setTarget(int pid, std::string_view command, std::string_view title) {
    begin();
    Statement r(db_, "UPDATE live_recordings SET target_pid = ?, command = ? WHERE trace_id = ?");
    r.bind(1, pid).bind(2, command).bind(3, traceId_).run();
    Statement t(db_, "UPDATE traces SET source_path = ? WHERE id = ?");
    t.bind(1, title).bind(2, traceId_).run();
}

void LiveWriter::setMetadata(std::string_view key, std::string_view value) {
    begin();
    Statement s(db_, "INSERT OR REPLACE INTO trace_metadata(trace_id, key, value) VALUES (?,?,?)");
    s.bind(1, traceId_).bind(2, key).bind(3, value).run();
}

void LiveWriter::setEpochNs(std::int64_t epochNs) {
    begin();
    Statement s(db_, "UPDATE traces SET epoch_ns = ? WHERE id = ?");
    s.bind(1, epochNs).bind(2, traceId_).run();
}

bool LiveWriter::commitIfDue(std::int64_t nowNs) {
    if (lastCommitNs_ < 0) lastCommitNs_ = nowNs;
    if (nowNs - lastCommitNs_ < commitIntervalNs_) return false;
    lastCommitNs_ = nowNs;
    commit();
    return true;
}

void LiveWriter::commit() {
    if (!inTransaction_) return;
    if (pendingT_ > committedT_) {
        Statement s(db_, "UPDATE live_recordings SET last_commit_ns = ? WHERE trace_id = ?");
        s.bind(1, pendingT_).bind(2, traceId_).run();
    }
    db_.exec("COMMIT");
    inTransaction_ = false;
    committedSamples_ += pendingSamples_;
    pendingSamples_ = 0;
    committedMoments_ += pendingMoments_;
    pendingMoments_ = 0;
    if (pendingT_ > committedT_) committedT_ = pendingT_;
}

void LiveWriter::setEnd(const LiveEnd& end) {
    begin();
    Statement s(db_, "UPDATE live_recordings SET end_reason = ?, exit_code = ?, exit_signal = ?, message = ? "
                     "WHERE trace_id = ?");
    s.bind(1, end.reason);
    s.bindOptional(2, end.exitCode).bindOptional(3, end.exitSignal);
    s.bind(4, end.message).bind(5, traceId_).run();
    commit();
}

} // namespace memviz

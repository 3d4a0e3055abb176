// SPDX-License-Identifier: MIT
#include "store/TraceWriter.h"

#include <algorithm>
#include <chrono>

#include "core/Clock.h"
#include "core/Errors.h"
#include "store/ChunkCodec.h"
#include "store/SeriesWriter.h"

namespace memviz {

namespace {


} // namespace

std::int32_t NameTable::intern(std::string_view name) {
    if (auto it = ids_.find(name); it != ids_.end()) return it->second;
    const auto id = static_cast<std::int32_t>(names_.size());
    names_.emplace_back(name);
    ids_.emplace(std::string(name), id);
    return id;
}

struct TraceWriter::DeviceState {
    std::int64_t events = 0, allocs = 0, frees = 0, unmatchedFrees = 0;
    std::vector<OpStat> ops; // index op + 1 (0 = no op)
    SeriesWriter* primary = nullptr;
    std::optional<std::pair<std::int64_t, std::int64_t>> peakOverride; // bytes, time
};

TraceWriter::TraceWriter(Database& db, TraceInfo info)
    : db_(db), info_(std::move(info)), tx_(db),
      insertEventChunk_(db, "INSERT INTO event_chunks(trace_id, chunk, first_seq, event_count, t_first, t_last, codec, data) "
                            "VALUES (?,?,?,?,?,?,?,?)"),
      insertSeriesChunk_(db, "INSERT INTO series_chunks(series_id, chunk, point_count, t_first, t_last, codec, data) "
                             "VALUES (?,?,?,?,?,?,?)"),
      insertLod_(db, "INSERT INTO series_lod(series_id, level, t_last, bucket, t_first, v_first, v_last, v_min, t_min, "
                     "v_max, t_max) VALUES (?,?,?,?,?,?,?,?,?,?,?)"),
      insertRecordChunk_(db, "INSERT INTO record_chunks(trace_id, kind, chunk, count, t_first, t_last, t_end, columns, "
                             "codec, data) VALUES (?,?,?,?,?,?,?,?,?,?)") {
    if (info_.adoptTraceId) {
        // imported_at stays: for a live recording it is when the recording began.
        Statement s(db, "UPDATE traces SET source_path = ?, format = ?, source_size = ?, source_mtime_ns = ?, "
                        "epoch_ns = ?, time_kind = ? WHERE id = ?");
        s.bind(1, info_.sourcePath).bind(2, info_.format);
        s.bindOptional(3, info_.sourceSize);
        s.bindOptional(4, info_.sourceMtimeNs);
        s.bindOptional(5, info_.epochNs);
        s.bind(6, info_.timeKind).bind(7, *info_.adoptTraceId);
        s.run();
        if (!queryInt(db, "SELECT count(*) FROM traces WHERE id = " + std::to_string(*info_.adoptTraceId)).value_or(0))
            throw StoreError(db.path() + ": no trace with id " + std::to_string(*info_.adoptTraceId) + " to fill");
        traceId_ = *info_.adoptTraceId;
    } else {
        Statement s(db, "INSERT INTO traces(source_path, format, imported_at, source_size, source_mtime_ns, epoch_ns, "
                        "time_kind) VALUES (?,?,?,?,?,?,?)");
        s.bind(1, info_.sourcePath).bind(2, info_.format).bind(3, isoNowUtc());
        s.bindOptional(4, info_.sourceSize);
        s.bindOptional(5, info_.sourceMtimeNs);
        s.bindOptional(6, info_.epochNs);
        s.bind(7, info_.timeKind);
        s.run();
        traceId_ = db.lastInsertRowId();
    }
    // No pending_.reserve(kEventsPerChunk) here: most traces are small, and a 2.5 MiB buffer
    // per import was most of a small import's time; addEvent() reserves once the trace has
    // kEventsBeforeReserve events (no copies of growing by doubling to a chunk after that).
}

TraceWriter::~TraceWriter() { restorePageCache(); } // then tx_ rolls back unless commit() ran

std::uint16_t TraceWriter::device(std::string_view name) {
    const std::int32_t id = devices_.intern(name);
    if (id > 65535) throw ImportError("more than 65536 devices");
    deviceState(static_cast<std::uint16_t>(id));
    return static_cast<std::uint16_t>(id);
}

TraceWriter::DeviceState& TraceWriter::deviceState(std::uint16_t device) {
    while (deviceStates_.size() <= device) deviceStates_.push_back(std::make_unique<DeviceState>());
    return *deviceStates_[device];
}

std::int32_t TraceWriter::name(NameKind kind, std::string_view text) { return names_[static_cast<int>(kind)].intern(text); }

std::int64_t TraceWriter::createSeries(std::uint16_t device, std::string_view name, std::string_view unit, bool primary,
                                       std::string_view style) {
    queue_.drain(); // the connection is the worker's while it has jobs
    Statement s(db_, "INSERT INTO series(trace_id, device, name, unit, style) VALUES (?,?,?,?,?)");
    s.bind(1, traceId_).bind(2, static_cast<int>(device)).bind(3, name).bind(4, unit).bind(5, style).run();
    const std::int64_t id = db_.lastInsertRowId();
    series_.push_back(std::make_unique<SeriesWriter>(id, insertSeriesChunk_, insertLod_));
    seriesIds_.push_back(id);
    pendingPoints_.emplace_back(); // reserved once a chunk has filled (flushPoints): 1 MiB each
    if (primary) deviceState(device).primary = series_.back().get();
    return id;
}

void TraceWriter::setSeriesStyle(std::int64_t seriesId, std::string_view style) {
    queue_.drain();
    Statement s(db_, "UPDATE series SET style = ? WHERE id = ?");
    s.bind(1, style).bind(2, seriesId).run();
}

void TraceWriter::setDevicePeak(std::uint16_t device, std::int64_t bytes, std::int64_t timeNs) {
    deviceState(device).peakOverride = std::make_pair(bytes, timeNs);
    noteTime(timeNs);
}

Database& TraceWriter::database() {
    queue_.drain();
    queue_.setSynchronous(true);
    return db_;
}

Database& TraceWriter::databaseForJobs() {
    queue_.drain();
    return db_;
}

void TraceWriter::post(std::function<void()> job) { queue_.post(std::move(job)); }

void TraceWriter::drainQuietly() noexcept {
    try {
        queue_.drain();
    } catch (...) {
        // The error surfaces where the caller's own exception goes.
    }
}

void TraceWriter::limitPageCache(std::int64_t kib) {
    queue_.drain(); // the connection is the worker's while it has jobs
    Database& db = db_;
    if (!cacheSizeBefore_) cacheSizeBefore_ = queryInt(db, "PRAGMA cache_size");
    db.exec("PRAGMA cache_size = " + std::to_string(-kib));
}

void TraceWriter::restorePageCache() noexcept {
    if (!cacheSizeBefore_) return;
    try {
        db_.exec("PRAGMA cache_size = " + std::to_string(*cacheSizeBefore_));
    } catch (...) {
        // Only the connection's speed depends on it.
    }
    cacheSizeBefore_.reset();
}

std::int32_t TraceWriter::thread(std::string_view label) { return threads_.intern(label); }

RowAppender& TraceWriter::appender(std::string_view insertSql, int columns) {
    queue_.drain(); // preparing a statement uses the connection
    appenders_.push_back(std::make_unique<RowAppender>(db_, queue_, insertSql, columns));
    return *appenders_.back();
}

void TraceWriter::noteTime(std::int64_t t) {
    if (t > maxTime_) maxTime_ = t;
}

void TraceWriter::addPoint(std::int64_t seriesId, std::int64_t timeNs, std::int64_t value) {
    // Ids of one writer's series are consecutive rowids, so the index is a subtraction.
    // The ids from this thread's own list: a SeriesWriter is the worker's, which writes it for
    // every point, and reading its id here for every point made the two threads pass its cache
    // line back and forth (the 10M-event allocation log's import: 12 % more CPU, issue 33).
    const auto index = static_cast<std::size_t>(seriesId - (seriesIds_.empty() ? 0 : seriesIds_.front()));
    if (index >= seriesIds_.size() || seriesIds_[index] != seriesId) throw StoreError("unknown series id");
    auto& pending = pendingPoints_[index];
    pending.push_back({timeNs, value});
    if (pending.size() == kPointsPerChunk) flushPoints(index);
    noteTime(timeNs);
}

void TraceWriter::flushPoints(std::size_t index) {
    if (pendingPoints_[index].empty()) return;
    const bool full = pendingPoints_[index].size() == kPointsPerChunk;
    SeriesWriter* writer = series_[index].get();
    queue_.post([writer, points = std::move(pendingPoints_[index])] {
        for (const SeriesPoint& p : points) writer->add(p.t, p.v);
    });
    pendingPoints_[index] = {};
    // A long series: the next chunk fills too. (Freed 1 MiB buffers come back from glibc's heap
    // without faults once its mmap threshold has risen past them: a LendingPool here did not
    // change the 240 MB profiler trace's faults.)
    if (full) pendingPoints_[index].reserve(kPointsPerChunk);
}

void TraceWriter::addEvent(const Event& e) {
    // The device's state exists after its first event: no call per event for it.
    DeviceState& d = e.device < deviceStates_.size() ? *deviceStates_[e.device] : deviceState(e.device);
    // Inferred events (kFlagImplicit) move bytes but are not records of the file.
    const bool recorded = !(e.flags & kFlagImplicit);
    if (recorded) ++d.events;
    const std::size_t opIndex = static_cast<std::size_t>(e.op + 1);
    if (d.ops.size() <= opIndex) d.ops.resize(opIndex + 1);
    OpStat& op = d.ops[opIndex];
    if (e.kind == EventKind::Alloc) {
        ++d.allocs;
        ++op.allocs;
        op.bytesAllocated += e.size;
        if (e.size > op.largest) op.largest = e.size;
    } else if (e.kind == EventKind::Free) {
        if (recorded) ++d.frees;
        if (e.flags & kFlagUnmatched) ++d.unmatchedFrees;
        else {
            ++op.frees;
            op.bytesFreed += e.size;
        }
    }
    noteTime(e.timeNs);
    pending_.push_back(e);
    ++eventSeq_;
    if (pending_.size() == kEventsPerChunk) flushEvents();
    else if (pending_.size() == kEventsBeforeReserve && pending_.capacity() < kEventsPerChunk)
        pending_.reserve(kEventsPerChunk);
}

void TraceWriter::flushEvents() {
    if (pending_.empty()) return;
    const std::int64_t chunk = chunkCount_++;
    const std::int64_t firstSeq = eventSeq_ - static_cast<std::int64_t>(pending_.size());
    const bool full = pending_.size() == kEventsPerChunk;
    if (encodeHere_) {
        queue_.post([this, chunk, firstSeq, count = static_cast<std::int64_t>(pending_.size()),
                     tFirst = pending_.front().timeNs, tLast = pending_.back().timeNs, blob = encodeEvents(pending_)] {
            insertEventChunk(chunk, firstSeq, count, tFirst, tLast, blob);
        });
        lastChunk_ = chunk;
        std::swap(lastEvents_, pending_); // the older chunk's buffer is filled next
        pending_.clear();
        if (full && pending_.capacity() < kEventsPerChunk) pending_.reserve(kEventsPerChunk);
        return;
    }
    // The buffer comes back when the job is done with it, whether it ran, threw or was dropped
    // (the job holds the only reference).
    queue_.post([this, chunk, firstSeq, lent = eventBuffers_.lend(std::move(pending_))] {
        const EventBuffer& events = *lent;
        insertEventChunk(chunk, firstSeq, static_cast<std::int64_t>(events.size()), events.front().timeNs,
                         events.back().timeNs, encodeEvents(events));
    });
    pending_ = {};
    // A large trace: the next chunk fills too, in a buffer the queue is done with.
    if (full) pending_ = eventBuffers_.take();
}

void TraceWriter::insertEventChunk(std::int64_t chunk, std::int64_t firstSeq, std::int64_t count, std::int64_t tFirst,
                                   std::int64_t tLast, std::span<const unsigned char> blob) {
    insertEventChunk_.bind(1, traceId_)
        .bind(2, chunk)
        .bind(3, firstSeq)
        .bind(4, count)
        .bind(5, tFirst)
        .bind(6, tLast)
        .bind(7, kCodecZstdNarrowColumns)
        .bindBlob(8, blob)
        .run();
}

std::optional<std::int64_t> TraceWriter::eventChunkHolding(std::span<const Event> events) const {
    if (lastChunk_ < 0 || !std::equal(events.begin(), events.end(), lastEvents_.begin(), lastEvents_.end())) return std::nullopt;
    return lastChunk_;
}

void TraceWriter::addRecordChunk(const std::string& kind, std::int64_t chunk, std::int64_t count, std::int64_t tFirst,
                                 std::int64_t tLast, std::int64_t tEnd, std::int64_t columns, std::vector<unsigned char> blob) {
    queue_.post([this, kind, chunk, count, tFirst, tLast, tEnd, columns, blob = std::move(blob)] {
        insertRecordChunk_.bind(1, traceId_)
            .bind(2, kind)
            .bind(3, chunk)
            .bind(4, count)
            .bind(5, tFirst)
            .bind(6, tLast)
            .bind(7, tEnd)
            .bind(8, columns)
            .bind(9, kCodecZstdNarrowColumns)
            .bindBlob(10, blob)
            .run();
    });
}

void TraceWriter::warn(std::string_view kind, std::string_view location, std::string_view message, std::int64_t count) {
    if (count <= 0) return;
    auto it = warnings_.find(kind);
    if (it == warnings_.end())
        it = warnings_.emplace(std::string(kind), Warning{0, std::string(location), std::string(message)}).first;
    it->second.count += count;
}

void TraceWriter::setMetadata(std::string_view key, std::string_view value) { metadata_[std::string(key)] = std::string(value); }

void TraceWriter::writeDerivedTables() {
    Statement dev(db_, "INSERT INTO devices(trace_id, device, name) VALUES (?,?,?)");
    for (std::size_t i = 0; i < devices_.names().size(); ++i)
        dev.bind(1, traceId_).bind(2, static_cast<std::int64_t>(i)).bind(3, devices_.names()[i]).run();

    Statement nm(db_, "INSERT INTO names(trace_id, kind, id, name) VALUES (?,?,?,?)");
    for (int kind = 0; kind < kNameKinds; ++kind)
        for (std::size_t i = 0; i < names_[kind].names().size(); ++i)
            nm.bind(1, traceId_).bind(2, kind).bind(3, static_cast<std::int64_t>(i)).bind(4, names_[kind].names()[i]).run();

    Statement th(db_, "INSERT INTO threads(trace_id, thread, name) VALUES (?,?,?)");
    for (std::size_t i = 0; i < threads_.names().size(); ++i)
        th.bind(1, traceId_).bind(2, static_cast<std::int64_t>(i)).bind(3, threads_.names()[i]).run();

    Statement upd(db_, "UPDATE series SET point_count = ?, t_first = ?, t_last = ?, v_min = ?, v_max = ?, v_final = ? "
                       "WHERE id = ?");
    for (auto& s : series_) {
        s->finish();
        const LodBucket& t = s->total();
        upd.bind(1, t.count);
        if (t.count) upd.bind(2, t.tFirst).bind(3, t.tLast).bind(4, t.vMin).bind(5, t.vMax).bind(6, t.vLast);
        else upd.bindNull(2).bindNull(3).bindNull(4).bindNull(5).bindNull(6);
        upd.bind(7, s->id()).run();
    }

    Statement sum(db_, "INSERT INTO device_summary(trace_id, device, events, allocs, frees, unmatched_frees, "
                       "peak_bytes, peak_time_ns, final_bytes, duration_ns) VALUES (?,?,?,?,?,?,?,?,?,?)");
    Statement ops(db_, "INSERT INTO op_stats(trace_id, device, op, allocs, frees, bytes_allocated, bytes_freed, "
                       "largest_alloc) VALUES (?,?,?,?,?,?,?,?)");
    for (std::size_t dIndex = 0; dIndex < deviceStates_.size(); ++dIndex) {
        const DeviceState& d = *deviceStates_[dIndex];
        const bool hasSeries = d.primary && d.primary->total().count > 0;
        const std::int64_t peakBytes = d.peakOverride ? d.peakOverride->first : hasSeries ? d.primary->total().vMax : 0;
        const std::int64_t peakTime = d.peakOverride ? d.peakOverride->second : hasSeries ? d.primary->peakTime() : 0;
        sum.bind(1, traceId_)
            .bind(2, static_cast<std::int64_t>(dIndex))
            .bind(3, d.events)
            .bind(4, d.allocs)
            .bind(5, d.frees)
            .bind(6, d.unmatchedFrees)
            .bind(7, peakBytes)
            .bind(8, peakTime)
            .bind(9, hasSeries ? d.primary->total().vLast : 0)
            .bind(10, maxTime_)
            .run();
        for (std::size_t i = 0; i < d.ops.size(); ++i) {
            const OpStat& o = d.ops[i];
            if (!o.used()) continue;
            ops.bind(1, traceId_)
                .bind(2, static_cast<std::int64_t>(dIndex))
                .bind(3, static_cast<std::int64_t>(i) - 1)
                .bind(4, o.allocs)
                .bind(5, o.frees)
                .bind(6, o.bytesAllocated)
                .bind(7, o.bytesFreed)
                .bind(8, o.largest)
                .run();
        }
    }

    Statement warn(db_, "INSERT INTO import_warnings(trace_id, kind, count, first_location, message) VALUES (?,?,?,?,?)");
    for (const auto& [kind, w] : warnings_)
        warn.bind(1, traceId_).bind(2, kind).bind(3, w.count).bind(4, w.firstLocation).bind(5, w.message).run();

    Statement meta(db_, "INSERT INTO trace_metadata(trace_id, key, value) VALUES (?,?,?)");
    for (const auto& [key, value] : metadata_) meta.bind(1, traceId_).bind(2, key).bind(3, value).run();

    Statement tr(db_, "UPDATE traces SET duration_ns = ?, event_count = ?, epoch_ns = ?, time_kind = ? WHERE id = ?");
    tr.bind(1, maxTime_).bind(2, eventSeq_);
    tr.bindOptional(3, info_.epochNs);
    tr.bind(4, info_.timeKind).bind(5, traceId_).run();
}

std::int64_t TraceWriter::commit() {
    if (committed_) throw StoreError("trace already committed");
    flushEvents();
    for (std::size_t i = 0; i < series_.size(); ++i) flushPoints(i);
    for (auto& a : appenders_) a->flush();
    queue_.drain();
    writeDerivedTables();
    tx_.commit();
    committed_ = true;
    restorePageCache();
    return traceId_;
}

} // namespace memviz

// SPDX-License-Identifier: MIT
// A rank set gathered into one store (see GatheredRanks.h).
#include "ranks/GatheredRanks.h"

#include <filesystem>
#include <system_error>
#include <unistd.h>

#include "core/Errors.h"
#include "core/Progress.h"
#include "store/ChunkCodec.h"
#include "store/Database.h"
#include "store/TraceQueries.h"

namespace memviz {

namespace {

std::int64_t latestTrace(Database& db, const std::string& store) {
    const std::vector<TraceRecord> traces = listTraces(db);
    if (traces.empty()) throw RankSetError(store + ": the rank's store holds no trace");
    return traces.back().id;
}

void requireStore(const GatherInput& in) {
    std::error_code ec;
    if (!std::filesystem::exists(in.storePath, ec))
        throw RankSetError(in.storePath + ": no store for " + in.source + " (its task has not imported it)");
}

} // namespace

bool hasGatheredRanks(Database& db) {
    return queryInt(db, "SELECT count(*) FROM ranks_gathered").value_or(0) > 0;
}

RankSet gatherRankSet(const std::vector<GatherInput>& inputs, const std::string& device, const Progress& progress,
                      int curveColumns, const std::function<void(std::size_t)>& onRank) {
    if (inputs.size() < 2) throw RankSetError("a rank set needs at least two traces, got " + std::to_string(inputs.size()));
    // First the summaries (small) to choose the set's device, then one store at a time.
    std::vector<TraceSummary> summaries;
    std::vector<std::string> sources;
    for (const GatherInput& in : inputs) {
        progress.checkCancelled();
        requireStore(in);
        Database db(in.storePath, Database::Mode::ReadOnly);
        summaries.push_back(loadSummary(db, latestTrace(db, in.storePath)));
        sources.push_back(in.source);
    }
    const std::string setDevice = rankSetDevice(summaries, sources, device);
    std::vector<RankRowRead> rows;
    for (std::size_t i = 0; i < inputs.size(); ++i) {
        progress.checkCancelled();
        Database db(inputs[i].storePath, Database::Mode::ReadOnly);
        rows.push_back(readRankRow({&db, summaries[i].trace.id, inputs[i].source}, summaries[i], setDevice, progress, curveColumns));
        if (onRank) onRank(i);
    }
    return assembleRankSet(setDevice, std::move(rows));
}

void writeGatheredRanksFile(const std::string& path, const RankSet& set, int curveColumns) {
    namespace fs = std::filesystem;
    const std::string part = path + ".part-" + std::to_string(::getpid());
    std::error_code ec;
    for (const char* tail : {"", "-wal", "-shm", "-journal"}) fs::remove(part + tail, ec);
    try {
        {
            Database db(part);
            Transaction tx(db);
            const RankImbalance& im = set.imbalance;
            Statement head(db, "INSERT INTO ranks_gathered (id, device, wall_clock, curve_columns, max_row, min_row, ratio, "
                               "spread_bytes, imbalance_op, imbalance_op_bytes, imbalance_op_paired) VALUES (1, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)");
            head.bind(1, set.device).bind(2, set.wallClock ? 1 : 0).bind(3, curveColumns);
            head.bind(4, static_cast<std::int64_t>(im.maxRow)).bind(5, static_cast<std::int64_t>(im.minRow));
            if (im.ratio) head.bind(6, *im.ratio);
            else head.bindNull(6);
            head.bind(7, im.spreadBytes);
            if (im.op.empty()) head.bindNull(8);
            else head.bind(8, im.op);
            head.bind(9, im.opDeltaBytes).bind(10, im.opPaired ? 1 : 0);
            head.run();
            Statement row(db, "INSERT INTO ranks_gathered_rows (row, name, rank, source, trace_id, format, device, peak_bytes, "
                              "peak_time_ns, final_bytes, top_op, top_op_bytes, start_offset_ns, epoch_ns, store_path, series_id, "
                              "curve, top_op_paired) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)");
            for (std::size_t i = 0; i < set.rows.size(); ++i) {
                const RankRow& r = set.rows[i];
                row.bind(1, static_cast<std::int64_t>(i)).bind(2, r.name).bindOptional(3, r.rank).bind(4, r.source);
                row.bind(5, r.traceId).bind(6, r.format).bind(7, r.device).bind(8, r.peakBytes).bind(9, r.peakTimeNs);
                row.bind(10, r.finalBytes);
                if (r.topOp.empty()) row.bindNull(11);
                else row.bind(11, r.topOp);
                row.bind(12, r.topOpBytes).bind(13, r.startOffsetNs).bindOptional(14, r.epochNs).bind(15, r.storePath);
                row.bind(16, r.seriesId);
                const std::vector<unsigned char> curve = encodePoints(r.curve);
                row.bindBlob(17, curve);
                row.bind(18, r.topOpPaired ? 1 : 0);
                row.run();
            }
            tx.commit();
            if (!db.checkpoint()) throw StoreError(part + ": cannot fold the write-ahead log into the store");
            db.syncToDisk();
        }
        for (const char* tail : {"-wal", "-shm"}) fs::remove(part + tail, ec);
        for (const char* tail : {"-wal", "-shm"}) fs::remove(path + tail, ec); // an earlier gather's, now stale
        fs::rename(part, path, ec);
        if (ec) throw StoreError(path + ": cannot put the gathered store in place (" + ec.message() + ")");
    } catch (...) {
        for (const char* tail : {"", "-wal", "-shm", "-journal"}) fs::remove(part + tail, ec);
        throw;
    }
}

RankSet readGatheredRanks(Database& db) {
    RankSet set;
    Statement head(db, "SELECT device, wall_clock, max_row, min_row, ratio, spread_bytes, imbalance_op, imbalance_op_bytes, "
                       "imbalance_op_paired FROM ranks_gathered WHERE id = 1");
    if (!head.step()) throw RankSetError(db.path() + ": the store holds no gathered rank set");
    set.device = head.text(0);
    set.wallClock = head.int64(1) != 0;
    const std::int64_t maxRow = head.int64(2), minRow = head.int64(3);
    if (!head.isNull(4)) set.imbalance.ratio = head.real(4);
    set.imbalance.spreadBytes = head.int64(5);
    if (!head.isNull(6)) set.imbalance.op = head.text(6);
    set.imbalance.opDeltaBytes = head.int64(7);
    set.imbalance.opPaired = head.int64(8) != 0;
    Statement rows(db, "SELECT row, name, rank, source, trace_id, format, device, peak_bytes, peak_time_ns, final_bytes, top_op, "
                       "top_op_bytes, start_offset_ns, epoch_ns, store_path, series_id, curve, top_op_paired FROM ranks_gathered_rows "
                       "ORDER BY row");
    while (rows.step()) {
        RankRow r;
        if (rows.int64(0) != static_cast<std::int64_t>(set.rows.size()))
            throw RankSetError(db.path() + ": gathered row " + std::to_string(rows.int64(0)) + " is out of order (expected " +
                               std::to_string(set.rows.size()) + ")");
        r.name = rows.text(1);
        if (!rows.isNull(2)) r.rank = static_cast<int>(rows.int64(2));
        r.source = rows.text(3);
        r.traceId = rows.int64(4);
        r.format = rows.text(5);
        r.device = rows.text(6);
        r.peakBytes = rows.int64(7);
        r.peakTimeNs = rows.int64(8);
        r.finalBytes = rows.int64(9);
        if (!rows.isNull(10)) r.topOp = rows.text(10);
        r.topOpBytes = rows.int64(11);
        r.topOpPaired = rows.int64(17) != 0;
        r.startOffsetNs = rows.int64(12);
        if (!rows.isNull(13)) r.epochNs = rows.int64(13);
        r.storePath = rows.text(14);
        r.seriesId = rows.int64(15);
        try {
            r.curve = decodePoints(rows.blob(16));
        } catch (const std::exception& e) {
            throw RankSetError(db.path() + ": the curve of gathered row " + std::to_string(set.rows.size()) + " is damaged (" +
                               e.what() + ")");
        }
        set.rows.push_back(std::move(r));
    }
    if (set.rows.empty()) throw RankSetError(db.path() + ": the gathered rank set has no rows");
    if (maxRow < 0 || minRow < 0 || static_cast<std::size_t>(maxRow) >= set.rows.size() ||
        static_cast<std::size_t>(minRow) >= set.rows.size())
        throw RankSetError(db.path() + ": the gathered imbalance names a row the set does not have");
    set.imbalance.maxRow = static_cast<std::size_t>(maxRow);
    set.imbalance.minRow = static_cast<std::size_t>(minRow);
    return set;
}

} // namespace memviz

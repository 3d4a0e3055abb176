// SPDX-License-Identifier: MIT
// A distributed job's ranks on their common figure (see RankSet.h).
#include "ranks/RankSet.h"

#include <algorithm>
#include <cctype>
#include <filesystem>
#include <limits>
#include <map>
#include <system_error>

#include "core/Progress.h"
#include "formats/FormatIds.h"
#include "formats/live/LiveQueries.h"
#include "formats/live/ProbeProtocol.h"
#include "store/Database.h"
#include "store/OpsHeldAt.h"
#include "store/OpsQuery.h"
#include "store/SeriesQuery.h"
#include "store/TraceQueries.h"

namespace memviz {

namespace {

std::string lower(std::string s) {
    std::transform(s.begin(), s.end(), s.begin(), [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
    return s;
}

bool endsWith(const std::string& s, const std::string& tail) {
    return s.size() >= tail.size() && s.compare(s.size() - tail.size(), tail.size(), tail) == 0;
}

std::string baseName(const std::string& path) { return std::filesystem::path(path).filename().string(); }

// The rank a trace names itself by: the probe's RANK, else a rank in its file's name.
std::optional<int> rankOf(Database& db, std::int64_t traceId, const std::string& source) {
    for (const auto& [k, v] : loadMetadata(db, traceId))
        if (k == probe_metadata::kRank) {
            try {
                return std::stoi(v);
            } catch (const std::exception&) {
                break;
            }
        }
    return rankInFileName(baseName(source));
}

std::string nameOf(Database& db, const RankRow& row) {
    if (row.rank) return "rank " + std::to_string(*row.rank);
    if (const auto rec = findLiveRecording(db, row.traceId); rec && rec->targetPid && *rec->targetPid > 0)
        return "pid " + std::to_string(*rec->targetPid);
    return baseName(row.source);
}

bool isCuda(const DeviceSummary& d) { return lower(d.name).rfind("cuda", 0) == 0; }

// The device `name` in a trace; "cuda": its one CUDA device (none when it has several).
const DeviceSummary* findDevice(const TraceSummary& s, const std::string& name) {
    const DeviceSummary* cuda = nullptr;
    int cudas = 0;
    for (const DeviceSummary& d : s.devices) {
        if (lower(d.name) == lower(name)) return &d;
        if (isCuda(d)) {
            cuda = &d;
            ++cudas;
        }
    }
    return lower(name) == "cuda" && cudas == 1 ? cuda : nullptr;
}

std::string deviceList(const TraceSummary& s) {
    std::string out;
    for (const DeviceSummary& d : s.devices) out += (out.empty() ? "" : ", ") + d.name;
    return out.empty() ? "no device" : out;
}

// Bytes each operator holds at `peakT` on `device` (store/OpsHeldAt.h): the bytes alive then
// that it allocated where the trace pairs frees with allocations (`*paired` true), else the net
// of its calls up to then.
std::map<std::string, std::int64_t> heldAtPeak(Database& db, std::int64_t traceId, int device, std::int64_t peakT,
                                               const Progress& progress, bool* paired) {
    const OpsHeldAt held = opsHeldAt(db, traceId, device, peakT, &progress);
    *paired = held.paired;
    std::map<std::string, std::int64_t> out;
    for (const auto& [op, bytes] : held.ops)
        if (op != kNoOpName) out[op] += bytes;
    return out;
}

// The series of the device's live bytes: its "allocated" series, else its first series in
// bytes (as the Compare mode reads a curve).
std::optional<SeriesInfo> curveSeriesOf(Database& db, std::int64_t traceId, int device) {
    const std::vector<SeriesInfo> series = listSeries(db, traceId);
    const SeriesInfo* chosen = nullptr;
    for (const SeriesInfo& s : series)
        if (s.device == device && s.name == series_name::kAllocated) chosen = &s;
    for (const SeriesInfo& s : series)
        if (!chosen && s.device == device && s.unit == "bytes") chosen = &s;
    if (!chosen) return std::nullopt;
    return *chosen;
}

} // namespace

std::optional<int> rankInFileName(const std::string& fileName) {
    const std::string s = lower(fileName);
    for (std::size_t at = s.find("rank"); at != std::string::npos; at = s.find("rank", at + 1)) {
        std::size_t i = at + 4;
        if (i < s.size() && (s[i] == '-' || s[i] == '_')) ++i;
        std::size_t j = i;
        while (j < s.size() && std::isdigit(static_cast<unsigned char>(s[j])) && j - i < 7) ++j;
        if (j > i && !(j < s.size() && std::isdigit(static_cast<unsigned char>(s[j])))) return std::stoi(s.substr(i, j - i));
    }
    return std::nullopt;
}

std::vector<std::string> rankFilesIn(const std::string& folder) {
    namespace fs = std::filesystem;
    std::error_code ec;
    fs::directory_iterator it(folder, ec);
    if (ec) throw RankSetError(folder + ": cannot read the folder (" + ec.message() + ")");
    std::vector<std::pair<int, std::string>> found;
    for (const fs::directory_entry& e : it) {
        if (!e.is_regular_file(ec)) continue;
        const std::string name = e.path().filename().string();
        std::string n = lower(name);
        for (const char* zip : {".gz", ".zst"})
            if (endsWith(n, zip)) n.resize(n.size() - std::string(zip).size());
        const bool trace = endsWith(n, ".json") || endsWith(n, ".pickle") || endsWith(n, ".csv") || endsWith(n, ".jsonl");
        const auto rank = rankInFileName(name);
        if (trace && rank && name[0] != '.') found.emplace_back(*rank, e.path().string());
    }
    if (found.empty())
        throw RankSetError(folder + ": no rank files (rank*.pt.trace.json[.gz], rank*_snapshot.pickle, rank*.csv or rank*.jsonl "
                                    "allocation logs: a rank number after \"rank\" in the name)");
    std::sort(found.begin(), found.end());
    for (std::size_t i = 1; i < found.size(); ++i)
        if (found[i].first == found[i - 1].first)
            throw RankSetError(folder + ": two files for rank " + std::to_string(found[i].first) + ": " +
                               baseName(found[i - 1].second) + " and " + baseName(found[i].second));
    std::vector<std::string> out;
    for (auto& [rank, path] : found) out.push_back(std::move(path));
    return out;
}

std::string rankSetDevice(const std::vector<TraceSummary>& summaries, const std::vector<std::string>& sources,
                          const std::string& device) {
    if (!device.empty()) {
        for (std::size_t i = 0; i < summaries.size(); ++i)
            if (!findDevice(summaries[i], device))
                throw RankSetError(sources[i] + ": no device " + device + " (it has " + deviceList(summaries[i]) + ")");
        return lower(device) == "cuda" ? "cuda" : findDevice(summaries[0], device)->name;
    }
    bool oneCudaEach = true;
    for (const TraceSummary& s : summaries) oneCudaEach = oneCudaEach && findDevice(s, "cuda");
    if (oneCudaEach) return "cuda";
    for (const DeviceSummary& d : summaries[0].devices) {
        bool everywhere = true;
        for (const TraceSummary& s : summaries) everywhere = everywhere && findDevice(s, d.name);
        if (everywhere) return d.name;
    }
    std::string what;
    for (std::size_t i = 0; i < summaries.size(); ++i)
        what += (what.empty() ? "" : "; ") + sources[i] + " has " + deviceList(summaries[i]);
    throw RankSetError("the traces have no device in common (" + what + ")");
}

RankRowRead readRankRow(const RankInput& in, const TraceSummary& summary, const std::string& setDevice, const Progress& progress,
                        int curveColumns) {
    const DeviceSummary* found = findDevice(summary, setDevice);
    if (!found) throw RankSetError(in.source + ": no device " + setDevice + " (it has " + deviceList(summary) + ")");
    const DeviceSummary& d = *found;
    RankRowRead out;
    out.durationNs = summary.trace.durationNs;
    RankRow& row = out.row;
    row.source = in.source;
    row.traceId = in.traceId;
    row.format = summary.trace.format;
    row.rank = rankOf(*in.db, in.traceId, in.source);
    row.device = d.name;
    row.epochNs = summary.trace.epochNs;
    row.peakBytes = d.peakBytes;
    row.peakTimeNs = d.peakTimeNs;
    row.finalBytes = d.finalBytes;
    row.name = nameOf(*in.db, row);
    row.storePath = in.db->path();
    if (const auto series = curveSeriesOf(*in.db, in.traceId, d.device)) {
        row.seriesId = series->id;
        if (curveColumns > 0)
            row.curve = querySeries(*in.db, series->id, TimeRange{series->tFirst, series->tLast}, curveColumns).points;
    }
    out.heldAtPeak = heldAtPeak(*in.db, in.traceId, d.device, d.peakTimeNs, progress, &row.topOpPaired);
    for (const auto& [op, bytes] : out.heldAtPeak)
        if (bytes > row.topOpBytes) {
            row.topOp = op;
            row.topOpBytes = bytes;
        }
    return out;
}

RankSet readRankSet(const std::vector<RankInput>& inputs, const std::string& device, const Progress& progress,
                    int curveColumns, bool keepOrder) {
    if (inputs.size() < 2)
        throw RankSetError("a rank set needs at least two traces, got " + std::to_string(inputs.size()) +
                           (inputs.empty() ? std::string() : " (" + inputs[0].source + ")"));
    std::vector<TraceSummary> summaries;
    std::vector<std::string> sources;
    for (const RankInput& in : inputs) {
        summaries.push_back(loadSummary(*in.db, in.traceId));
        sources.push_back(in.source);
    }
    const std::string setDevice = rankSetDevice(summaries, sources, device);
    std::vector<RankRowRead> rows;
    for (std::size_t i = 0; i < inputs.size(); ++i) {
        progress.checkCancelled();
        rows.push_back(readRankRow(inputs[i], summaries[i], setDevice, progress, curveColumns));
    }
    return assembleRankSet(setDevice, std::move(rows), keepOrder);
}

RankSet assembleRankSet(const std::string& device, std::vector<RankRowRead> read, bool keepOrder) {
    if (read.empty()) throw RankSetError("a rank set needs at least one trace");
    RankSet set;
    set.device = device;
    // By rank when every trace has a distinct one.
    std::vector<std::size_t> order(read.size());
    for (std::size_t i = 0; i < order.size(); ++i) order[i] = i;
    bool ranked = !keepOrder;
    for (const RankRowRead& r : read) ranked = ranked && r.row.rank.has_value();
    if (ranked)
        std::stable_sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) { return *read[a].row.rank < *read[b].row.rank; });
    std::vector<std::map<std::string, std::int64_t>> heldSorted;
    std::int64_t longest = 1;
    for (std::size_t i : order) {
        set.rows.push_back(std::move(read[i].row));
        heldSorted.push_back(std::move(read[i].heldAtPeak));
        longest = std::max(longest, read[i].durationNs);
    }
    // One time axis for all: the wall clock, when every trace knows when it started.
    std::optional<std::int64_t> earliest;
    set.wallClock = true;
    for (const RankRow& r : set.rows) {
        set.wallClock = set.wallClock && r.epochNs.has_value();
        if (r.epochNs && (!earliest || *r.epochNs < *earliest)) earliest = r.epochNs;
    }
    if (set.wallClock) {
        // Traces on different clocks (a profiler's and a log's from 0) would land far apart:
        // then they start together instead.
        std::int64_t latest = 0;
        for (RankRow& r : set.rows) {
            r.startOffsetNs = *r.epochNs - *earliest;
            latest = std::max(latest, r.startOffsetNs);
        }
        if (latest > 10 * longest) {
            set.wallClock = false;
            for (RankRow& r : set.rows) r.startOffsetNs = 0;
        }
    }

    RankImbalance& im = set.imbalance;
    for (std::size_t i = 1; i < set.rows.size(); ++i) {
        if (set.rows[i].peakBytes > set.rows[im.maxRow].peakBytes) im.maxRow = i;
        if (set.rows[i].peakBytes < set.rows[im.minRow].peakBytes) im.minRow = i;
    }
    const std::int64_t maxPeak = set.rows[im.maxRow].peakBytes, minPeak = set.rows[im.minRow].peakBytes;
    im.spreadBytes = maxPeak - minPeak;
    if (minPeak > 0) im.ratio = static_cast<double>(maxPeak) / static_cast<double>(minPeak);
    std::map<std::string, std::int64_t> delta = heldSorted[im.maxRow];
    for (const auto& [op, bytes] : heldSorted[im.minRow]) delta[op] -= bytes;
    im.opPaired = set.rows[im.maxRow].topOpPaired && set.rows[im.minRow].topOpPaired;
    for (const auto& [op, bytes] : delta)
        if (im.op.empty() || bytes > im.opDeltaBytes) {
            im.op = op;
            im.opDeltaBytes = bytes;
        }
    return set;
}

} // namespace memviz

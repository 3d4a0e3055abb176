// SPDX-License-Identifier: MIT
// PATHs to the traces of a rank set (see RankSources.h).
#include "ranks/RankSources.h"

#include <algorithm>
#include <filesystem>
#include <map>
#include <optional>
#include <stdexcept>

#include "formats/FormatIds.h"
#include "formats/live/ProbeProtocol.h"
#include "ranks/RankSet.h"
#include "store/Database.h"
#include "store/StoreFiles.h"
#include "store/TraceRef.h"
#include "store/TraceQueries.h"

namespace memviz {

namespace {

// A store's live probe recordings when it has two or more (one `record --listen`), else
// every trace.
std::vector<std::int64_t> storeTraces(const std::string& path) {
    Database db(path, Database::Mode::ReadOnly);
    std::vector<std::int64_t> probe, all;
    for (const TraceRecord& t : listTraces(db)) {
        all.push_back(t.id);
        if (t.format == format_id::kLiveProbe) probe.push_back(t.id);
    }
    return probe.size() >= 2 ? probe : all;
}

} // namespace

std::vector<RankPathEntry> planRankPaths(const std::vector<std::string>& paths) {
    namespace fs = std::filesystem;
    std::vector<RankPathEntry> out;
    auto add = [&](const std::string& path, std::int64_t traceId, const std::string& name) {
        out.push_back({path, traceId, name, !isStoreFile(path)});
    };
    std::error_code ec;
    if (paths.size() == 1 && fs::is_directory(paths[0], ec)) {
        for (const std::string& file : rankFilesIn(paths[0])) add(file, 0, file);
        return out;
    }
    if (paths.size() == 1 && fs::exists(paths[0], ec) && isStoreFile(paths[0])) {
        for (const std::int64_t id : storeTraces(paths[0])) out.push_back({paths[0], id, paths[0] + "#" + std::to_string(id), false});
        return out;
    }
    for (const std::string& arg : paths) {
        TraceRef ref;
        try {
            ref = parseTraceRef(arg);
        } catch (const std::invalid_argument& e) {
            throw RankSetError(e.what());
        }
        if (ref.traceId > 0) {
            add(ref.path, ref.traceId, arg);
        } else {
            if (!fs::exists(arg, ec)) throw RankSetError(arg + ": no such file or folder");
            add(arg, 0, arg);
        }
    }
    return out;
}

std::vector<RankSource> resolveRankPaths(const std::vector<std::string>& paths,
                                         const std::function<std::string(const std::string& file)>& importStoreFor,
                                         const Progress& progress) {
    std::vector<RankSource> out;
    for (const RankPathEntry& e : planRankPaths(paths)) {
        const std::string importStore = e.raw ? importStoreFor(e.path) : std::string();
        const OpenedTrace t = openTrace(e.path, importStore, progress, e.traceId, ImportStore::Cache);
        out.push_back({t.storePath, t.traceId, e.name});
    }
    return out;
}

std::vector<RankSource> storeRankTraces(const std::string& storePath, const std::vector<std::int64_t>& traceIds) {
    std::error_code ec;
    if (!std::filesystem::exists(storePath, ec)) throw RankSetError(storePath + ": no such store");
    if (!isStoreFile(storePath)) throw RankSetError(storePath + ": --trace picks traces of one store; this is not a store");
    Database db(storePath, Database::Mode::ReadOnly);
    std::vector<std::int64_t> held;
    for (const TraceRecord& t : listTraces(db)) held.push_back(t.id);
    std::vector<RankSource> out;
    for (std::size_t i = 0; i < traceIds.size(); ++i) {
        const std::int64_t id = traceIds[i];
        if (std::find(held.begin(), held.end(), id) == held.end())
            throw RankSetError(storePath + ": no trace with id " + std::to_string(id));
        if (std::find(traceIds.begin(), traceIds.begin() + static_cast<std::ptrdiff_t>(i), id) != traceIds.begin() + static_cast<std::ptrdiff_t>(i))
            throw RankSetError(storePath + ": trace " + std::to_string(id) + " is given twice");
        out.push_back({storePath, id, storePath + "#" + std::to_string(id)});
    }
    return out;
}

std::vector<std::int64_t> jobRankTraces(Database& db) {
    std::map<long long, std::vector<std::pair<long long, std::int64_t>>> byWorld; // world size -> (rank, trace)
    for (const TraceRecord& t : listTraces(db)) {
        std::optional<long long> rank, world;
        for (const auto& [k, v] : loadMetadata(db, t.id)) {
            try {
                if (k == probe_metadata::kRank) rank = std::stoll(v);
                if (k == probe_metadata::kWorldSize) world = std::stoll(v);
            } catch (const std::exception&) {
            }
        }
        if (rank && world && *world > 1) byWorld[*world].emplace_back(*rank, t.id);
    }
    std::vector<std::pair<long long, std::int64_t>> best;
    for (auto& [world, traces] : byWorld)
        if (traces.size() >= 2 && traces.size() > best.size()) best = traces;
    std::sort(best.begin(), best.end());
    std::vector<std::int64_t> out;
    for (const auto& [rank, id] : best) out.push_back(id);
    return out;
}

} // namespace memviz

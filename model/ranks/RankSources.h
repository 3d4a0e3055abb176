// SPDX-License-Identifier: MIT
#pragma once
// What `memviz ranks PATH...` and the Ranks window are given, turned into the traces of a rank
// set: one store (its live probe recordings, else all its traces), one folder (its rank files),
// or several files, stores or STORE#ID references. resolveRankPaths imports raw files (in this
// process, on the calling thread) into the store `importStoreFor` names for each (`memviz
// ranks`); the Ranks window plans with planRankPaths and imports them in its reader child.
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

namespace memviz {

class Database;
class Progress;

struct RankSource {
    std::string storePath;
    std::int64_t traceId = 0;
    std::string name; // as the user named it: the file, or store#id
};

// One trace of a rank set before anything is imported: a raw file to import (`raw`), or a store
// and the trace in it (0 = its latest).
struct RankPathEntry {
    std::string path;
    std::int64_t traceId = 0;
    std::string name; // as the user named it: the file, or store#id
    bool raw = false;
};

// What PATHs name, nothing imported (the Ranks window imports the raw files in its reader
// child). Reads only a folder's listing and a store's list of traces. Throws RankSetError (a
// folder without rank files, a path that does not exist, a bad #id).
std::vector<RankPathEntry> planRankPaths(const std::vector<std::string>& paths);

// planRankPaths, then each raw file imported here. Throws RankSetError or the importer's error
// naming the file.
std::vector<RankSource> resolveRankPaths(const std::vector<std::string>& paths,
                                         const std::function<std::string(const std::string& file)>& importStoreFor,
                                         const Progress& progress);

// Exactly the traces `traceIds` of the store at `storePath`, in that order (`memviz ranks STORE
// --trace ID,...`). Throws RankSetError naming the store and the id that it does not hold, or an
// id given twice.
std::vector<RankSource> storeRankTraces(const std::string& storePath, const std::vector<std::int64_t>& traceIds);

// The probe recordings of one distributed job in a store (`record --listen` with several
// ranks): the traces with a `probe_rank` whose `probe_world_size` is above 1, when two or more
// share a world size (the largest such group; by rank). Empty otherwise. Reads trace metadata
// only.
std::vector<std::int64_t> jobRankTraces(Database& db);

} // namespace memviz

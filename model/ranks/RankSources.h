// SPDX-License-Identifier: MIT
#pragma once
// What `memviz ranks PATH...` and the Ranks window are given, turned into the traces of a rank
// set: one store (its live probe recordings, else all its traces), one folder (its rank files),
// or several files, stores or STORE#ID references. Raw files are imported (in this process,
// on the calling thread: a worker's) into the store `importStoreFor` names for each.
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

namespace memviz {

class Progress;

struct RankSource {
    std::string storePath;
    std::int64_t traceId = 0;
    std::string name; // as the user named it: the file, or store#id
};

// Throws RankSetError (a folder without rank files, a path that does not exist, a bad #id)
// or the importer's error naming the file.
std::vector<RankSource> resolveRankPaths(const std::vector<std::string>& paths,
                                         const std::function<std::string(const std::string& file)>& importStoreFor,
                                         const Progress& progress);

} // namespace memviz

// SPDX-License-Identifier: MIT
#pragma once
// Telling a .memviz store from a raw trace, and opening either one for reading: a raw trace
// is imported first (into a store the caller names), so every consumer reads a store.
#include <cstdint>
#include <string>

namespace memviz {

class Database;
class Progress;

// True when the file starts with SQLite's header (a memviz store, or another SQLite file
// that Database will then reject with a clear message).
bool isStoreFile(const std::string& path);

struct OpenedTrace {
    std::string storePath;
    std::int64_t traceId = 0;
    bool imported = false; // false when an earlier import of the same file was reused
};

enum class ImportStore {
    Keep,  // the import store is the user's: an unreadable one is an error
    Cache, // the import store is a cache: an unreadable one (damaged, other schema) is replaced
};

// A store path is used as is (its latest trace, or `traceId` when non-zero). A raw trace is
// imported into `importStore` unless that store already holds an import of the same file
// (same path, size and modification time).
OpenedTrace openTrace(const std::string& path, const std::string& importStore, const Progress& progress, std::int64_t traceId = 0,
                      ImportStore kind = ImportStore::Keep);

} // namespace memviz

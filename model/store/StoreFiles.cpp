// SPDX-License-Identifier: MIT
#include "store/StoreFiles.h"

#include <cstdio>
#include <cstring>
#include <filesystem>
#include <sys/stat.h>

#include "core/Errors.h"
#include "core/Progress.h"
#include "formats/FormatRegistry.h"
#include "formats/live/LiveFinalizer.h"
#include "store/Database.h"
#include "store/TraceQueries.h"

namespace memviz {

bool isStoreFile(const std::string& path) {
    std::FILE* f = std::fopen(path.c_str(), "rb");
    if (!f) return false;
    char magic[16] = {};
    const std::size_t n = std::fread(magic, 1, sizeof magic, f);
    std::fclose(f);
    return n == sizeof magic && std::memcmp(magic, "SQLite format 3", 16) == 0;
}

namespace {

Database openImportStore(const std::string& store, ImportStore kind) {
    try {
        return Database(store);
    } catch (const StoreError&) {
        if (kind != ImportStore::Cache) throw;
        for (const char* suffix : {"", "-wal", "-shm"}) std::filesystem::remove(store + suffix);
        return Database(store);
    }
}

} // namespace

OpenedTrace openTrace(const std::string& path, const std::string& importStore, const Progress& progress, std::int64_t traceId,
                      ImportStore kind) {
    OpenedTrace out;
    if (isStoreFile(path)) {
        Database db(path);
        out.storePath = path;
        // A recording whose recorder was killed is finalised now, so it opens like any trace.
        recoverInterruptedRecordings(db);
        if (traceId) {
            if (!findTrace(db, traceId)) throw StoreError(path + ": no trace with id " + std::to_string(traceId));
            out.traceId = traceId;
        } else {
            const auto latest = latestTraceId(db);
            if (!latest) throw StoreError(path + ": the store holds no traces");
            out.traceId = *latest;
        }
        return out;
    }
    Database db = openImportStore(importStore, kind);
    out.storePath = importStore;
    struct stat st {};
    if (::stat(path.c_str(), &st) == 0) {
        std::error_code ec;
        const auto absolute = std::filesystem::absolute(path, ec).lexically_normal().string();
        const std::int64_t mtime = static_cast<std::int64_t>(st.st_mtim.tv_sec) * 1000000000 + st.st_mtim.tv_nsec;
        if (const auto existing = findImportOf(db, absolute, st.st_size, mtime)) {
            out.traceId = *existing;
            return out;
        }
    }
    out.traceId = importFile(db, path, progress);
    out.imported = true;
    return out;
}

} // namespace memviz

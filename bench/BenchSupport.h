// SPDX-License-Identifier: MIT
#pragma once
// Settings shared by the benchmark programs: sizes from the environment and the folder that
// keeps generated inputs between runs.
#include <cstdint>
#include <cstdlib>
#include <filesystem>
#include <string>

namespace memviz::bench {

// An integer from the environment, or `fallback`.
inline std::int64_t envCount(const char* name, std::int64_t fallback) {
    const char* env = std::getenv(name);
    return env ? std::atoll(env) : fallback;
}

// MEMVIZ_BENCH_DIR, default /tmp/memviz-bench (created).
inline std::filesystem::path benchDir() {
    const char* env = std::getenv("MEMVIZ_BENCH_DIR");
    std::filesystem::path dir = env ? env : "/tmp/memviz-bench";
    std::filesystem::create_directories(dir);
    return dir;
}

// Removes a store with its WAL and shared-memory files.
inline void removeStore(const std::filesystem::path& p) {
    for (const char* suffix : {"", "-wal", "-shm"}) std::filesystem::remove(p.string() + suffix);
}

} // namespace memviz::bench

// SPDX-License-Identifier: MIT
// End-to-end import of a large synthetic profiler trace (default: >= 5M memory events,
// > 1 GB; MEMVIZ_BENCH_MEMORY_EVENTS overrides): MB/s, events/s and the importer's peak RSS.
// The trace is generated once in MEMVIZ_BENCH_DIR (default /tmp/memviz-bench).
#include <benchmark/benchmark.h>
#include <sys/resource.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>

#include "BenchSupport.h"
#include "ChromeTraceGenerator.h"
#include "core/Progress.h"
#include "formats/FormatRegistry.h"
#include "store/Database.h"

namespace fs = std::filesystem;
using namespace memviz;
using bench::benchDir;
using bench::removeStore;

namespace {

std::int64_t memoryEventCount() { return bench::envCount("MEMVIZ_BENCH_MEMORY_EVENTS", 5000000); }

// The trace and its counts (in a .stats file beside it) are written once and reused.
bench::ChromeTraceStats generatedOnce(const fs::path& trace) {
    const fs::path statsFile = trace.string() + ".stats";
    bench::ChromeTraceStats stats;
    if (fs::exists(trace) && fs::exists(statsFile)) {
        std::ifstream in(statsFile);
        if (in >> stats.bytes >> stats.events >> stats.memoryEvents &&
            stats.bytes == static_cast<std::int64_t>(fs::file_size(trace)))
            return stats;
    }
    stats = bench::writeSyntheticChromeTrace(trace.string(), memoryEventCount());
    std::ofstream(statsFile) << stats.bytes << ' ' << stats.events << ' ' << stats.memoryEvents << '\n';
    return stats;
}

void BM_ImportProfilerTrace(benchmark::State& state) {
    const fs::path trace = benchDir() / ("profiler-" + std::to_string(memoryEventCount()) + ".pt.trace.json");
    const bench::ChromeTraceStats stats = generatedOnce(trace);
    const fs::path store = benchDir() / "profiler-import.memviz";
    for (auto _ : state) {
        state.PauseTiming();
        removeStore(store);
        state.ResumeTiming();
        Database db(store.string());
        benchmark::DoNotOptimize(importFile(db, trace.string(), Progress{}));
    }
    rusage usage{};
    getrusage(RUSAGE_SELF, &usage);
    state.counters["trace_MB"] = static_cast<double>(stats.bytes) / 1e6;
    state.counters["MB_per_s"] = benchmark::Counter(
        static_cast<double>(stats.bytes) / 1e6 * static_cast<double>(state.iterations()), benchmark::Counter::kIsRate);
    state.counters["events_per_s"] = benchmark::Counter(static_cast<double>(stats.events * state.iterations()),
                                                        benchmark::Counter::kIsRate);
    state.counters["memory_events"] = static_cast<double>(stats.memoryEvents);
    state.counters["peak_RSS_MB"] = static_cast<double>(usage.ru_maxrss) / 1024.0;
    state.counters["RSS_over_size"] = static_cast<double>(usage.ru_maxrss) * 1024.0 / static_cast<double>(stats.bytes);
}
BENCHMARK(BM_ImportProfilerTrace)->Unit(benchmark::kMillisecond)->Iterations(1)->UseRealTime();

} // namespace

BENCHMARK_MAIN();

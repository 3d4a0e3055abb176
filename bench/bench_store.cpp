// SPDX-License-Identifier: MIT
// Import and timeline-query benchmarks on a synthetic allocation log (10M events by default;
// MEMVIZ_BENCH_EVENTS overrides). The log and the imported store are made once, in
// MEMVIZ_BENCH_DIR (default /tmp/memviz-bench), and reused by the query benchmarks.
#include <benchmark/benchmark.h>

#include <cstdlib>
#include <filesystem>
#include <string>

#include "AllocLogGenerator.h"
#include "BenchSupport.h"
#include "core/Progress.h"
#include "formats/FormatRegistry.h"
#include "store/Database.h"
#include "store/OpsQuery.h"
#include "store/SeriesQuery.h"
#include "store/TraceQueries.h"

namespace fs = std::filesystem;
using namespace memviz;
using bench::benchDir;
using bench::removeStore;

namespace {

std::int64_t eventCount() { return bench::envCount("MEMVIZ_BENCH_EVENTS", 10000000); }

const std::string& logPath() {
    static const std::string path = [] {
        const fs::path p = benchDir() / ("alloclog-" + std::to_string(eventCount()) + ".csv");
        if (!fs::exists(p)) bench::writeSyntheticAllocLog(p.string(), eventCount());
        return p.string();
    }();
    return path;
}

// The store the query benchmarks read, imported once.
const std::string& storePath() {
    static const std::string path = [] {
        const fs::path p = benchDir() / ("store-" + std::to_string(eventCount()) + ".memviz");
        removeStore(p);
        Database db(p.string());
        importFile(db, logPath(), Progress{});
        return p.string();
    }();
    return path;
}

void BM_ImportAllocLog(benchmark::State& state) {
    const std::string log = logPath();
    const fs::path store = benchDir() / "import-target.memviz";
    for (auto _ : state) {
        state.PauseTiming();
        removeStore(store);
        state.ResumeTiming();
        Database db(store.string());
        benchmark::DoNotOptimize(importFile(db, log, Progress{}));
    }
    state.SetItemsProcessed(state.iterations() * eventCount());
    state.SetBytesProcessed(state.iterations() * static_cast<std::int64_t>(fs::file_size(log)));
    removeStore(store);
}
BENCHMARK(BM_ImportAllocLog)->Unit(benchmark::kMillisecond)->Iterations(3)->UseRealTime();

struct QueryFixture {
    Database db{storePath(), Database::Mode::ReadOnly};
    std::int64_t trace = *latestTraceId(db);
    SeriesInfo series = listSeries(db, trace).front();
};

void BM_TimelineFullRange(benchmark::State& state) {
    QueryFixture f;
    for (auto _ : state) benchmark::DoNotOptimize(querySeries(f.db, f.series.id, {f.series.tFirst, f.series.tLast}, 1500));
}
BENCHMARK(BM_TimelineFullRange)->Unit(benchmark::kMillisecond);

void BM_TimelineOnePercent(benchmark::State& state) {
    QueryFixture f;
    const std::int64_t span = f.series.tLast - f.series.tFirst;
    std::int64_t k = 0;
    for (auto _ : state) {
        // A different 1% window each time, across the trace.
        const std::int64_t begin = f.series.tFirst + (k++ % 97) * span / 100;
        benchmark::DoNotOptimize(querySeries(f.db, f.series.id, {begin, begin + span / 100}, 1500));
    }
}
BENCHMARK(BM_TimelineOnePercent)->Unit(benchmark::kMillisecond);

void BM_OpsWholeTrace(benchmark::State& state) {
    QueryFixture f;
    for (auto _ : state) benchmark::DoNotOptimize(queryOps(f.db, f.trace, {}));
}
BENCHMARK(BM_OpsWholeTrace)->Unit(benchmark::kMillisecond);

void BM_OpsOnePercentWindow(benchmark::State& state) {
    QueryFixture f;
    const std::int64_t span = f.series.tLast - f.series.tFirst;
    OpsFilter filter;
    filter.range = TimeRange{f.series.tFirst + span / 2, f.series.tFirst + span / 2 + span / 100};
    for (auto _ : state) benchmark::DoNotOptimize(queryOps(f.db, f.trace, filter));
}
BENCHMARK(BM_OpsOnePercentWindow)->Unit(benchmark::kMillisecond);

} // namespace

BENCHMARK_MAIN();

// SPDX-License-Identifier: MIT
// usage: bench_selection_peak STORE [RUNS] — the Ranks window's exact peak in a selection
// (model/ranks/SelectionPeak.h) on the latest trace's first bytes series, for windows of 0.1 %,
// 1 %, 10 % and 100 % of the trace placed at a few offsets; the median time of each, and the
// answer checked against every raw point of the series decoded (the brute-force maximum).
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <vector>

#include "ranks/SelectionPeak.h"
#include "store/ChunkCodec.h"
#include "store/Database.h"
#include "store/TraceQueries.h"

using namespace memviz;

namespace {

// Every raw point's maximum over [a, b], plus the value held at a: the answer to compare.
std::int64_t bruteForce(const std::vector<SeriesPoint>& all, std::int64_t a, std::int64_t b) {
    std::int64_t best = INT64_MIN;
    for (const SeriesPoint& p : all) {
        if (p.t <= a) best = p.v; // the last at or before a (points are time-ordered)
        else if (p.t <= b) best = std::max(best, p.v);
    }
    return best;
}

} // namespace

int main(int argc, char** argv) {
    if (argc < 2) {
        std::fprintf(stderr, "usage: %s STORE [RUNS]\n", argv[0]);
        return 2;
    }
    const int runs = argc > 2 ? std::atoi(argv[2]) : 5;
    Database db(argv[1], Database::Mode::ReadOnly);
    const auto trace = latestTraceId(db);
    if (!trace) return 1;
    const SeriesInfo* series = nullptr;
    const std::vector<SeriesInfo> all = listSeries(db, *trace);
    for (const SeriesInfo& s : all)
        if (!series && s.unit == "bytes") series = &s;
    if (!series) return 1;
    std::vector<SeriesPoint> points;
    Statement s(db, "SELECT data FROM series_chunks WHERE series_id = ? ORDER BY t_last, chunk");
    s.bind(1, series->id);
    while (s.step())
        for (const SeriesPoint& p : decodePoints(s.blob(0))) points.push_back(p);
    std::printf("series %s/%s: %zu points over %lld ns\n", series->deviceName.c_str(), series->name.c_str(), points.size(),
                static_cast<long long>(series->tLast - series->tFirst));
    const std::int64_t span = series->tLast - series->tFirst;
    int wrong = 0;
    for (const double share : {0.001, 0.01, 0.1, 1.0}) {
        std::vector<double> ms;
        for (const double at : {0.0, 0.37, 0.61}) {
            const std::int64_t a = series->tFirst + static_cast<std::int64_t>(at * (1 - share) * static_cast<double>(span)) + 7;
            const std::int64_t b = a + static_cast<std::int64_t>(share * static_cast<double>(span)) - 7;
            for (int r = 0; r < runs; ++r) {
                const auto t0 = std::chrono::steady_clock::now();
                const auto peak = seriesPeakIn(db, series->id, TimeRange{a, b});
                ms.push_back(std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count());
                if (r == 0 && peak.value_or(INT64_MIN) != bruteForce(points, a, b)) {
                    ++wrong;
                    std::printf("WRONG at [%lld, %lld]: %lld, brute force %lld\n", static_cast<long long>(a), static_cast<long long>(b),
                                static_cast<long long>(peak.value_or(-1)), static_cast<long long>(bruteForce(points, a, b)));
                }
            }
        }
        std::sort(ms.begin(), ms.end());
        std::printf("window %6.1f %% of the trace: median %.2f ms, max %.2f ms\n", share * 100, ms[ms.size() / 2], ms.back());
    }
    return wrong == 0 ? 0 : 1;
}

// SPDX-License-Identifier: MIT
#include "ChromeTraceGenerator.h"

#include <cstdio>
#include <random>
#include <vector>

namespace memviz::bench {

ChromeTraceStats writeSyntheticChromeTrace(const std::string& path, std::int64_t memoryEvents, std::uint64_t seed) {
    ChromeTraceStats stats;
    std::FILE* f = std::fopen(path.c_str(), "w");
    if (!f) return stats;
    std::mt19937_64 rng(seed);
    static const char* ops[] = {"aten::mm",    "aten::add", "aten::relu",    "aten::conv2d",
                                "aten::empty", "aten::cat", "aten::softmax", "aten::layer_norm"};
    const long long pid = 4242, tid = 4243, t0 = 1700000000000000;
    long long ts = t0, evIdx = 0, totalAllocated = 1 << 30;
    std::vector<std::pair<unsigned long long, long long>> live; // address, size
    unsigned long long next = 0x7f0000000000ull;
    std::int64_t bytes = std::fprintf(f, "{\"schemaVersion\": 1, \"deviceProperties\": [], \"traceEvents\": [\n");
    bool first = true;
    auto sep = [&] {
        if (!first) bytes += std::fprintf(f, ",\n");
        first = false;
    };
    auto memory = [&](long long at, unsigned long long addr, long long size) {
        sep();
        totalAllocated += size;
        bytes += std::fprintf(f,
                              "  {\"ph\": \"i\", \"cat\": \"cpu_instant_event\", \"s\": \"t\", \"name\": \"[memory]\", "
                              "\"pid\": %lld, \"tid\": %lld, \"ts\": %lld, \"args\": {\"Ev Idx\": %lld, \"Device Type\": 1, "
                              "\"Device Id\": 0, \"Addr\": %llu, \"Bytes\": %lld, \"Total Allocated\": %lld, "
                              "\"Total Reserved\": %lld}}",
                              pid, tid, at, evIdx++, addr, size, totalAllocated, (totalAllocated / (2 << 20) + 8) * (2 << 20));
        ++stats.events;
        ++stats.memoryEvents;
    };
    while (stats.memoryEvents < memoryEvents) {
        // One op call: [outer [inner] launch], an allocation or two and a free or two inside it.
        const char* name = ops[rng() % std::size(ops)];
        const long long dur = 20 + static_cast<long long>(rng() % 80);
        sep();
        bytes += std::fprintf(f,
                              "  {\"ph\": \"X\", \"cat\": \"cpu_op\", \"name\": \"%s\", \"pid\": %lld, \"tid\": %lld, "
                              "\"ts\": %lld, \"dur\": %lld, \"args\": {\"External id\": %lld, \"Ev Idx\": %lld, "
                              "\"Input Dims\": [[32, 512], [512, 512]], \"Input type\": [\"float\", \"float\"]}}",
                              name, pid, tid, ts, dur, evIdx, evIdx);
        ++evIdx;
        sep();
        bytes += std::fprintf(f,
                              "  {\"ph\": \"X\", \"cat\": \"cuda_runtime\", \"name\": \"cudaLaunchKernel\", \"pid\": %lld, "
                              "\"tid\": %lld, \"ts\": %lld, \"dur\": 5, \"args\": {\"cbid\": 211, \"correlation\": %lld}}",
                              pid, tid, ts + dur - 8, evIdx);
        sep();
        bytes += std::fprintf(f,
                              "  {\"ph\": \"X\", \"cat\": \"kernel\", \"name\": \"ampere_sgemm_128x64_tn\", \"pid\": 0, "
                              "\"tid\": 7, \"ts\": %lld, \"dur\": %lld, \"args\": {\"stream\": 7, \"correlation\": %lld}}",
                              ts + dur, dur, evIdx);
        stats.events += 3;
        const int allocs = 1 + static_cast<int>(rng() % 2);
        for (int a = 0; a < allocs; ++a) {
            const long long size = 512ll << (rng() % 12);
            live.emplace_back(next, size);
            memory(ts + 2 + a, next, size);
            next += static_cast<unsigned long long>(size) + 512;
        }
        while (live.size() > 2000 || (!live.empty() && rng() % 3 == 0)) {
            const std::size_t k = rng() % live.size();
            memory(ts + dur - 2, live[k].first, -live[k].second);
            live[k] = live.back();
            live.pop_back();
        }
        ts += dur + 10;
    }
    bytes += std::fprintf(f, "\n], \"traceName\": \"synthetic\"}\n");
    stats.bytes = std::fclose(f) == 0 ? bytes : 0;
    return stats;
}

} // namespace memviz::bench

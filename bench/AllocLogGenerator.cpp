// SPDX-License-Identifier: MIT
#include "AllocLogGenerator.h"

#include <cstdio>
#include <random>
#include <vector>

namespace memviz::bench {

bool writeSyntheticAllocLog(const std::string& path, std::int64_t events, std::uint64_t seed) {
    std::FILE* out = std::fopen(path.c_str(), "w");
    if (!out) return false;
    std::mt19937_64 rng(seed);
    std::vector<unsigned long long> live;
    live.reserve(1 << 20);
    unsigned long long nextAddress = 0x7f0000000000ull;
    long long t = 1000000000;
    std::fputs("time_ns,action,address,size,device,op,category,stack\n", out);
    static const char* categories[] = {"forward", "backward", "optimizer"};
    for (std::int64_t i = 0; i < events; ++i) {
        t += 1 + static_cast<long long>(rng() % 200);
        // The working set follows a slow wave, like activations over a training step.
        const double phase = static_cast<double>(i % 2000000) / 2000000.0;
        const auto target = static_cast<std::size_t>(2000 + 60000 * (phase < 0.5 ? phase : 1 - phase));
        const bool alloc = live.empty() || (live.size() < target ? rng() % 10 < 7 : rng() % 10 < 3);
        const auto op = static_cast<unsigned>(rng() % 40);
        if (alloc) {
            const unsigned long long size = 64ull << (rng() % 14);
            live.push_back(nextAddress);
            std::fprintf(out, "%lld,alloc,0x%llx,%llu,cpu,aten::op%u,%s,train;step;layer%u\n", t, nextAddress, size, op,
                         categories[op % 3], op % 8);
            nextAddress += size + 64;
        } else {
            const std::size_t k = rng() % live.size();
            std::fprintf(out, "%lld,free,0x%llx,,cpu,,,\n", t, live[k]);
            live[k] = live.back();
            live.pop_back();
        }
    }
    return std::fclose(out) == 0;
}

} // namespace memviz::bench

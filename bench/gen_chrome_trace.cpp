// SPDX-License-Identifier: MIT
// usage: gen_chrome_trace MEMORY_EVENTS OUT.pt.trace.json [SEED] — writes a synthetic
// torch.profiler Chrome trace (bench/ChromeTraceGenerator.h) with at least MEMORY_EVENTS memory
// events; 500000 gives the 240 MB trace of docs/performance.md. Used by bench/peers/run.sh.
#include <cstdio>
#include <cstdlib>

#include "ChromeTraceGenerator.h"

int main(int argc, char** argv) {
    if (argc < 3) {
        std::fprintf(stderr, "usage: %s MEMORY_EVENTS OUT.pt.trace.json [SEED]\n", argv[0]);
        return 2;
    }
    const auto stats = memviz::bench::writeSyntheticChromeTrace(argv[2], std::atoll(argv[1]),
                                                                argc > 3 ? std::strtoull(argv[3], nullptr, 10) : 1);
    if (stats.bytes == 0) {
        std::perror(argv[2]);
        return 1;
    }
    std::printf("%lld bytes, %lld events, %lld memory events\n", static_cast<long long>(stats.bytes),
                static_cast<long long>(stats.events), static_cast<long long>(stats.memoryEvents));
    return 0;
}

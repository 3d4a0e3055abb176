// SPDX-License-Identifier: MIT
// usage: gen_alloclog N OUT.csv [SEED] — writes a synthetic allocation log of N events.
#include <cstdio>
#include <cstdlib>

#include "AllocLogGenerator.h"

int main(int argc, char** argv) {
    if (argc < 3) {
        std::fprintf(stderr, "usage: %s N OUT.csv [SEED]\n", argv[0]);
        return 2;
    }
    const bool ok = memviz::bench::writeSyntheticAllocLog(argv[2], std::atoll(argv[1]),
                                                          argc > 3 ? std::strtoull(argv[3], nullptr, 10) : 1);
    if (!ok) std::perror(argv[2]);
    return ok ? 0 : 1;
}

// SPDX-License-Identifier: MIT
// libFuzzer's entry point for one target, chosen at build time (MEMVIZ_FUZZ_TARGET).
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>

#include "FuzzTargets.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    static const memviz::fuzz::Target* target = [] {
        const memviz::fuzz::Target* t = memviz::fuzz::findTarget(MEMVIZ_FUZZ_TARGET);
        if (!t) {
            std::fprintf(stderr, "no fuzz target named %s\n", MEMVIZ_FUZZ_TARGET);
            std::abort();
        }
        return t;
    }();
    memviz::fuzz::runGuarded(*target, std::string_view(reinterpret_cast<const char*>(data), size));
    return 0;
}

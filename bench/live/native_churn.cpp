// SPDX-License-Identifier: MIT
// The target of bench/live/run_native_overhead.sh: allocation-heavy work whose time shows
// what heaptrack adds per allocation. ROUNDS rounds (argv[1], default 200) each allocate
// 10000 blocks of 16 B to 4 KiB from a few call sites, touch them, and free them; a quarter
// stay alive until the next round. Prints the wall time it took, in ms.
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <vector>

namespace {

__attribute__((noinline)) void* small(std::size_t n) { return std::malloc(n); }
__attribute__((noinline)) void* medium(std::size_t n) { return std::malloc(n * 8); }
__attribute__((noinline)) char* array(std::size_t n) { return new char[n * 32]; }

} // namespace

int main(int argc, char** argv) {
    const int rounds = argc > 1 ? std::atoi(argv[1]) : 200;
    const auto start = std::chrono::steady_clock::now();
    std::vector<void*> kept;
    std::vector<char*> arrays;
    unsigned seed = 1;
    unsigned long sum = 0;
    for (int r = 0; r < rounds; ++r) {
        std::vector<void*> blocks;
        blocks.reserve(10000);
        for (int i = 0; i < 10000; ++i) {
            seed = seed * 1103515245 + 12345;
            const std::size_t n = 16 + (seed >> 16) % 128;
            void* p = i % 3 == 0 ? small(n) : medium(n);
            std::memset(p, i & 0xff, n);
            blocks.push_back(p);
            if (i % 100 == 0) arrays.push_back(array(n));
        }
        for (void* p : kept) std::free(p);
        kept.clear();
        for (std::size_t i = 0; i < blocks.size(); ++i) {
            sum += static_cast<unsigned char*>(blocks[i])[0];
            if (i % 4 == 0) kept.push_back(blocks[i]);
            else std::free(blocks[i]);
        }
        for (char* a : arrays) delete[] a;
        arrays.clear();
    }
    for (void* p : kept) std::free(p);
    const double ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
    std::printf("%.1f ms (checksum %lu)\n", ms, sum);
    return 0;
}

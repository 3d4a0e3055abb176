// SPDX-License-Identifier: MIT
// A program whose native heap goes through known phases, for tst_live_native (memviz record
// --native, launched and attached): after a wait, phase 1 holds 8 MiB in 8192 blocks of
// 1 KiB; phase 2 frees every other block (4 MiB held); phase 3 allocates 1 MiB more in 1024
// blocks of 1 KiB that it never frees (leaked); at the end the 4 MiB left are freed. Each
// phase is followed by a pause (argv[1] ms, default 1500) so live refreshes see it; argv[2]
// ms (default: one pause) is the wait before phase 1, long enough to attach. It prints
// "ready" (flushed) when it starts waiting, and "done" when it ends.
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <thread>

namespace {

constexpr int kBlocks = 8192;
constexpr int kLeaks = 1024;
constexpr std::size_t kBlockBytes = 1024;
void* gBlocks[kBlocks]; // not on the heap: the only heap blocks are the ones counted above
void* volatile gLeaks[kLeaks];

void pauseMs(int ms) { std::this_thread::sleep_for(std::chrono::milliseconds(ms)); }

} // namespace

int main(int argc, char** argv) {
    const int pause = argc > 1 ? std::atoi(argv[1]) : 1500;
    const int wait = argc > 2 ? std::atoi(argv[2]) : pause;
    std::printf("ready\n");
    std::fflush(stdout);
    pauseMs(wait);
    for (int i = 0; i < kBlocks; ++i) gBlocks[i] = std::malloc(kBlockBytes);
    pauseMs(pause);
    for (int i = 0; i < kBlocks; i += 2) std::free(gBlocks[i]);
    pauseMs(pause);
    for (int i = 0; i < kLeaks; ++i) gLeaks[i] = std::malloc(kBlockBytes);
    pauseMs(pause);
    for (int i = 1; i < kBlocks; i += 2) std::free(gBlocks[i]);
    pauseMs(pause / 2);
    std::printf("done\n");
    return 0;
}

// SPDX-License-Identifier: MIT
/* A program for the heaptrack import benchmark (bench/native/heaptrack_vs_print.sh): about
 * 1.6 million allocation calls from four sites reached through call chains of varying depth, with a
 * working set that grows and shrinks, spread over about a second of CPU time. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define SLOTS 4096

static void* slots[SLOTS];
static uint32_t rng = 12345;

static uint32_t next_random(void) {
    rng = rng * 1103515245u + 12345u;
    return rng >> 8;
}

__attribute__((noinline)) void* alloc_small(size_t n) { return malloc(n); }
__attribute__((noinline)) void* alloc_medium(size_t n) { return calloc(1, n); }
__attribute__((noinline)) void* alloc_large(size_t n) {
    char* p = malloc(n);
    memset(p, 1, 64);
    return p;
}

/* Different depths make different backtraces for the same allocation site. */
__attribute__((noinline)) void* descend(int depth, size_t n) {
    if (depth > 0) return descend(depth - 1, n);
    switch (n % 3) {
    case 0: return alloc_small(16 + n % 256);
    case 1: return alloc_medium(256 + n % 4096);
    default: return alloc_large(4096 + n % 65536);
    }
}

__attribute__((noinline)) void churn(int rounds) {
    for (int i = 0; i < rounds; ++i) {
        volatile char* p = malloc(32 + (size_t)(i % 64));
        p[0] = (char)i;
        free((void*)p);
    }
}

static void spin_until(clock_t end) {
    while (clock() < end) {
    }
}

int main(void) {
    const clock_t start = clock();
    for (int phase = 0; phase < 20; ++phase) {
        for (int i = 0; i < 50000; ++i) {
            const uint32_t r = next_random();
            const size_t slot = r % SLOTS;
            free(slots[slot]);
            slots[slot] = descend((int)(r % 7), r);
        }
        churn(30000);
        spin_until(start + (clock_t)(phase + 1) * CLOCKS_PER_SEC / 20);
    }
    for (size_t i = 0; i < SLOTS / 2; ++i) free(slots[i]);
    return 0;
}

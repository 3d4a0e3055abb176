/* Allocation patterns with known figures, recorded by heaptrack and massif in the tests
 * (tst_native_tools). Every site has its own size, so the sites' peak contributions
 * differ and heaptrack_print's lists have one order. Built with -O0 -fno-inline so every
 * function below keeps its own frame. */
#include <stdlib.h>
#include <string.h>

static void* kept[32];

/* 32 blocks of 4096 + 64*i bytes; half freed before the end. */
void* hold_block(size_t n) {
    char* p = malloc(n);
    memset(p, 1, n);
    return p;
}

/* 500 allocations freed right away: temporary allocations. */
void churn_temporaries(int count) {
    for (int i = 0; i < count; ++i) {
        volatile char* p = malloc(48 + (size_t)(i % 16));
        p[0] = 1;
        free((void*)p);
    }
}

/* Never freed: leaks of 3000 + 7*i bytes. */
void* leak_block(size_t n) { return calloc(1, n); }

/* A buffer that doubles from 256 bytes, ten times. */
void* grow_buffer(int steps) {
    char* p = NULL;
    size_t n = 256;
    for (int i = 0; i < steps; ++i, n *= 2) {
        p = realloc(p, n);
        p[n - 1] = 0;
    }
    return p;
}

/* One large block that makes the peak. */
void* peak_buffer(size_t n) {
    char* p = malloc(n);
    memset(p, 2, n);
    return p;
}

/* An optional argument: the number of temporary allocations (500 without it), so that two
 * recordings differ in known ways (tst_diff_cli compares them). */
int main(int argc, char** argv) {
    for (int i = 0; i < 32; ++i) kept[i] = hold_block(4096 + 64 * (size_t)i);
    churn_temporaries(argc > 1 ? atoi(argv[1]) : 500);
    void* big = peak_buffer(1 << 20);
    void* grown = grow_buffer(10);
    free(big);
    for (int i = 0; i < 16; ++i) free(kept[i]);
    for (int i = 0; i < (argc > 2 ? atoi(argv[2]) : 7); ++i) leak_block(3000 + 7 * (size_t)i);
    free(grown);
    return 0;
}

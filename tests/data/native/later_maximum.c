/* A heap whose maximum comes after massif's detailed peak snapshot (tst_massif_peaks).
 * massif takes its peak snapshot only just before a deallocation, so the heap that grows
 * after the last free() is never its "peak", though a later ordinary snapshot shows it
 * higher: the curve's maximum and massif's peak differ, as in long-running programs whose
 * late growth stays under --peak-inaccuracy. Built with -O0 -fno-inline like the others. */
#include <stdlib.h>
#include <string.h>

void* fill(size_t n) {
    char* p = malloc(n);
    memset(p, 3, n);
    return p;
}

int main(void) {
    void* base = fill(1 << 20);
    free(fill(4096)); /* a deallocation: massif's peak snapshot, just over 1 MiB */
    for (volatile unsigned i = 0; i < 1000000; ++i) { /* some work before the late growth */ }
    void* late = fill(1 << 19); /* 1.5 MiB, with no deallocation after it */
    (void)base;
    (void)late;
    return 0; /* neither freed: the final snapshot keeps the maximum */
}

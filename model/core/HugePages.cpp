// SPDX-License-Identifier: MIT
#include "core/HugePages.h"

#include <cstdlib>

#if defined(__linux__)
#include <sys/mman.h>
#endif

namespace memviz {

namespace {

std::size_t roundedUp(std::size_t bytes) { return (bytes + kHugePageBytes - 1) & ~(kHugePageBytes - 1); }

// Asks for huge pages over [data, data + bytes), 2 MiB-aligned and a whole number of them.
// Advice only: where the system refuses it, nothing changes.
void adviseHugePages(void* data, std::size_t bytes) noexcept {
#if defined(__linux__) && defined(MADV_HUGEPAGE)
    madvise(data, bytes, MADV_HUGEPAGE);
#else
    (void)data;
    (void)bytes;
#endif
}

} // namespace

void* allocateHugeCapable(std::size_t bytes) {
    if (bytes < kHugePageMinBytes) return ::operator new(bytes);
    const std::size_t rounded = roundedUp(bytes);
    if (rounded < bytes) throw std::bad_alloc(); // wrapped around
    void* p = std::aligned_alloc(kHugePageBytes, rounded);
    if (!p) throw std::bad_alloc();
    adviseHugePages(p, rounded);
    return p;
}

void releaseHugeCapable(void* p, std::size_t bytes) noexcept {
    if (bytes < kHugePageMinBytes) ::operator delete(p);
    else std::free(p);
}

} // namespace memviz

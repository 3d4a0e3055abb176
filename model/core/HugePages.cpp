// SPDX-License-Identifier: MIT
#include "core/HugePages.h"

#include <cstdint>
#include <cstdlib>

#if defined(__linux__)
#include <sys/mman.h>
#endif

namespace memviz {

void adviseHugePages(void* data, std::size_t bytes) noexcept {
#if defined(__linux__) && defined(MADV_HUGEPAGE)
    const auto begin = reinterpret_cast<std::uintptr_t>(data);
    const std::uintptr_t from = (begin + kHugePageBytes - 1) & ~(kHugePageBytes - 1);
    const std::uintptr_t to = (begin + bytes) & ~(kHugePageBytes - 1);
    if (to > from) madvise(reinterpret_cast<void*>(from), to - from, MADV_HUGEPAGE); // failure is harmless
#else
    (void)data;
    (void)bytes;
#endif
}

namespace {
std::size_t roundedUp(std::size_t bytes) { return (bytes + kHugePageBytes - 1) & ~(kHugePageBytes - 1); }
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

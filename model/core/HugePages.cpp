// SPDX-License-Identifier: MIT
#include "core/HugePages.h"

#include <cstdint>
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

bool populateNow(const void* begin, std::size_t bytes) noexcept {
#if defined(__linux__) && defined(MADV_POPULATE_WRITE)
    if (!bytes) return true;
    constexpr std::uintptr_t kPage = 4096;
    const auto from = reinterpret_cast<std::uintptr_t>(begin) & ~(kPage - 1);
    const std::uintptr_t to = reinterpret_cast<std::uintptr_t>(begin) + bytes;
    return madvise(reinterpret_cast<void*>(from), to - from, MADV_POPULATE_WRITE) == 0;
#else
    (void)begin;
    (void)bytes;
    return false;
#endif
}

} // namespace memviz

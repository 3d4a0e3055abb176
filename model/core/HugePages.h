// SPDX-License-Identifier: MIT
#pragma once
// Transparent huge pages for the big buffers an import fills once (issue 33).
//
// A buffer of a few MiB written from its start costs, with 4 KiB pages, one page fault per 4 KiB:
// on the heaptrack import of deep.zst a sixth of the CPU time went into faults. Linux backs
// memory with 2 MiB pages where the system allows them on request (THP "madvise", Debian's
// default) and the process asks for them. The same import with every malloc'd region advised
// (glibc.malloc.hugetlb=1, which only the environment can set) took 5.6 % less CPU and 44 %
// fewer faults. Pages still come only as they are touched; an untouched buffer costs nothing.
#include <cstddef>
#include <new>
#include <vector>

namespace memviz {

// Below this, a buffer comes from operator new as usual (a huge page would mostly stay empty).
constexpr std::size_t kHugePageMinBytes = std::size_t{1} << 20;
constexpr std::size_t kHugePageBytes = std::size_t{2} << 20;

// Memory of kHugePageMinBytes or more, 2 MiB-aligned and advised; smaller, plain operator new.
void* allocateHugeCapable(std::size_t bytes);
void releaseHugeCapable(void* p, std::size_t bytes) noexcept;

// Backs [begin, begin + bytes) with memory now (MADV_POPULATE_WRITE; the pages' contents do not
// change), so that the thread which fills them next does not stop to fault and zero them: for a
// helper thread with time to spare that works ahead of a busy one. Advice only: false where the
// system cannot (before Linux 5.14, or memory not mapped); the pages then come at first touch.
bool populateNow(const void* begin, std::size_t bytes) noexcept;

// For a std::vector that grows to a few MiB and is filled front to back.
template <typename T>
struct HugePageAllocator {
    using value_type = T;
    HugePageAllocator() noexcept = default;
    template <typename U>
    HugePageAllocator(const HugePageAllocator<U>&) noexcept {}
    T* allocate(std::size_t n) {
        if (n > static_cast<std::size_t>(-1) / sizeof(T)) throw std::bad_array_new_length();
        return static_cast<T*>(allocateHugeCapable(n * sizeof(T)));
    }
    void deallocate(T* p, std::size_t n) noexcept { releaseHugeCapable(p, n * sizeof(T)); }
    template <typename U>
    bool operator==(const HugePageAllocator<U>&) const noexcept {
        return true;
    }
};

// A vector that grows to a few MiB or more and is filled front to back, in huge pages.
template <typename T>
using HugeVector = std::vector<T, HugePageAllocator<T>>;

} // namespace memviz

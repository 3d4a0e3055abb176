// SPDX-License-Identifier: MIT
#pragma once
// The shared layout of the store's compressed chunks: a u32 row count, then one column after
// another (fixed-size little-endian values), zstd-compressed. ChunkCodec (events, series
// points, records) and SnapshotCodec (snapshot allocations) are built on it.
// The narrow layout (codec 2) starts with kNarrowMarker and the row count; each of its columns
// is a u8 width and an i64 base, then every value minus the base in `width` little-endian bytes
// (0 for a constant column): two to five bytes where the fixed layout spends eight, so zstd has
// a third of the bytes to compress.
#include <bit>
#include <cstdint>
#include <cstring>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <type_traits>
#include <vector>

#include "core/HugePages.h"

namespace memviz::columns {

// A chunk's raw bytes while it is built: up to a few MiB, reused (Builder's scratch), in huge
// pages once a MiB or more (core/HugePages.h).
using Bytes = HugeVector<unsigned char>;

// First u32 of a narrow chunk's raw bytes; never a fixed layout's row count (its size check
// would need 4 + 0xffffffff rows, far over any chunk's limit).
constexpr std::uint32_t kNarrowMarker = 0xffffffffu;
constexpr std::size_t kNarrowHeaderBytes = 8;      // marker, rows
constexpr std::size_t kNarrowColumnHeaderBytes = 9; // width, base

// Appends n values get(0..n-1) of type T as one column.
template <typename T, typename Get>
void put(Bytes& out, std::size_t n, Get&& get) {
    const std::size_t at = out.size();
    out.resize(at + n * sizeof(T));
    unsigned char* p = out.data() + at;
    for (std::size_t i = 0; i < n; ++i) {
        const T v = get(i);
        std::memcpy(p + i * sizeof(T), &v, sizeof(T));
    }
}

// The i-th value of the column starting at base.
template <typename T>
T at(const unsigned char* base, std::size_t i) {
    T v;
    std::memcpy(&v, base + i * sizeof(T), sizeof(T));
    return v;
}

namespace detail {

template <typename F>
void byWidth(unsigned width, F&& f) {
    switch (width) {
    case 0: return f(std::integral_constant<unsigned, 0>{});
    case 1: return f(std::integral_constant<unsigned, 1>{});
    case 2: return f(std::integral_constant<unsigned, 2>{});
    case 3: return f(std::integral_constant<unsigned, 3>{});
    case 4: return f(std::integral_constant<unsigned, 4>{});
    case 5: return f(std::integral_constant<unsigned, 5>{});
    case 6: return f(std::integral_constant<unsigned, 6>{});
    case 7: return f(std::integral_constant<unsigned, 7>{});
    default: return f(std::integral_constant<unsigned, 8>{});
    }
}

} // namespace detail

// The lowest and highest of values offered one by one, and the byte width of their range.
struct NarrowRange {
    std::int64_t lo = 0, hi = 0;
    bool any = false;
    void add(std::int64_t v) {
        lo = any && lo < v ? lo : v;
        hi = any && hi > v ? hi : v;
        any = true;
    }
    unsigned width() const {
        return static_cast<unsigned>((std::bit_width(static_cast<std::uint64_t>(hi) - static_cast<std::uint64_t>(lo)) + 7) / 8);
    }
};

// Flags in a narrow column's width byte (point and record chunks; ChunkCodec.cpp):
// kRelativeToFirst: each value minus the row's value in column 0 (records), added back (wrapping);
// kSteps: each value minus the previous row's, the first row's 0 and the first value itself
// (i64) right after the column.
constexpr unsigned char kRelativeToFirst = 0x80;
constexpr unsigned char kSteps = 0x40;

// Appends n values get(0..n-1) whose range is `range` as one narrow column; `flags` are or-ed
// into its width byte.
template <typename Get>
void putNarrow(Bytes& out, std::size_t n, Get&& get, const NarrowRange& range, unsigned char flags = 0) {
    const unsigned width = range.width();
    const std::size_t at = out.size();
    const std::size_t size = at + kNarrowColumnHeaderBytes + n * width;
    // 8 bytes of slack: each value is stored as a whole u64 (one store instead of a 3-byte
    // memcpy's two), the next value overwriting its high bytes.
    out.resize(size + 8);
    unsigned char* p = out.data() + at;
    p[0] = static_cast<unsigned char>(width | flags);
    std::memcpy(p + 1, &range.lo, 8);
    p += kNarrowColumnHeaderBytes;
    const auto base = static_cast<std::uint64_t>(range.lo);
    detail::byWidth(width, [&](auto w) {
        if constexpr (w > 0) // a constant column stores nothing
            for (std::size_t i = 0; i < n; ++i) {
                const std::uint64_t d = static_cast<std::uint64_t>(static_cast<std::int64_t>(get(i))) - base;
                std::memcpy(p + i * w, &d, 8); // little-endian host (x86-64, aarch64)
            }
    });
    out.resize(size);
}

// Appends n values get(0..n-1) (any integer type, widened to int64) as one narrow column.
template <typename Get>
void putNarrow(Bytes& out, std::size_t n, Get&& get) {
    NarrowRange range;
    for (std::size_t i = 0; i < n; ++i) range.add(static_cast<std::int64_t>(get(i)));
    putNarrow(out, n, get, range);
}

// Reads the narrow column of n values at p (ending at most at end), calling set(i, value);
// returns where the next column starts, or nullptr for a damaged column (a width over 8, a
// flag not in `allowedFlags`, or values past end). `flags` (if given) receives the column's flags.
template <typename Set>
const unsigned char* getNarrow(const unsigned char* p, const unsigned char* end, std::size_t n, Set&& set,
                               unsigned char allowedFlags = 0, unsigned char* flags = nullptr) {
    if (static_cast<std::size_t>(end - p) < kNarrowColumnHeaderBytes) return nullptr;
    const unsigned char found = p[0] & static_cast<unsigned char>(kRelativeToFirst | kSteps);
    if (found & ~allowedFlags) return nullptr;
    if (flags) *flags = found;
    const unsigned width = p[0] & ~(kRelativeToFirst | kSteps);
    if (width > 8) return nullptr;
    std::uint64_t base;
    std::memcpy(&base, p + 1, 8);
    p += kNarrowColumnHeaderBytes;
    if (width && static_cast<std::size_t>(end - p) / width < n) return nullptr;
    detail::byWidth(width, [&](auto w) {
        for (std::size_t i = 0; i < n; ++i) {
            std::uint64_t d = 0;
            std::memcpy(&d, p + i * w, w);
            set(i, static_cast<std::int64_t>(base + d));
        }
    });
    return p + n * width;
}

// A chunk being built: raw() starts with the row count; compress() returns the stored BLOB.
// The buffers and the zstd context come from a pool shared across chunks and threads (fresh
// multi-megabyte buffers per chunk cost more, in page faults, than compressing the chunk).
class Builder {
public:
    // narrow: raw() starts with kNarrowMarker and then the row count (columns by putNarrow).
    Builder(std::uint32_t rows, std::size_t reserveBytes, bool narrow = false);
    ~Builder();
    Builder(const Builder&) = delete;
    Builder& operator=(const Builder&) = delete;

    Bytes& raw();
    std::vector<unsigned char> compress();

    struct Scratch;

private:
    std::unique_ptr<Scratch> scratch_;
};

// The raw bytes of a stored BLOB of at most maxSize bytes; `what` names it in errors
// ("damaged <what> in the store (...)").
std::vector<unsigned char> decompress(std::span<const unsigned char> blob, std::size_t maxSize, const std::string& what);
// The row count of a narrow chunk (at most maxRows), or nullopt for a chunk of the fixed
// layout. Throws StoreError for more rows.
std::optional<std::uint32_t> narrowCount(const std::vector<unsigned char>& raw, std::size_t maxRows, const std::string& what);
// The row count, checked against the size (4 + rows * bytesPerRow).
std::uint32_t readCount(const std::vector<unsigned char>& raw, std::size_t bytesPerRow, const std::string& what);

} // namespace memviz::columns

// SPDX-License-Identifier: MIT
#pragma once
// The shared layout of the store's compressed chunks: a u32 row count, then one column after
// another (fixed-size little-endian values), zstd-compressed. ChunkCodec (events, series
// points, records) and SnapshotCodec (snapshot allocations) are built on it.
#include <cstdint>
#include <cstring>
#include <memory>
#include <span>
#include <string>
#include <vector>

namespace memviz::columns {

// Appends n values get(0..n-1) of type T as one column.
template <typename T, typename Get>
void put(std::vector<unsigned char>& out, std::size_t n, Get&& get) {
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

// A chunk being built: raw() starts with the row count; compress() returns the stored BLOB.
// The buffers and the zstd context come from a pool shared across chunks and threads (fresh
// multi-megabyte buffers per chunk cost more, in page faults, than compressing the chunk).
class Builder {
public:
    Builder(std::uint32_t rows, std::size_t reserveBytes);
    ~Builder();
    Builder(const Builder&) = delete;
    Builder& operator=(const Builder&) = delete;

    std::vector<unsigned char>& raw();
    std::vector<unsigned char> compress();

    struct Scratch;

private:
    std::unique_ptr<Scratch> scratch_;
};

// The raw bytes of a stored BLOB of at most maxSize bytes; `what` names it in errors
// ("damaged <what> in the store (...)").
std::vector<unsigned char> decompress(std::span<const unsigned char> blob, std::size_t maxSize, const std::string& what);
// The row count, checked against the size (4 + rows * bytesPerRow).
std::uint32_t readCount(const std::vector<unsigned char>& raw, std::size_t bytesPerRow, const std::string& what);

} // namespace memviz::columns

#include "store/SnapshotCodec.h"

#include <cstring>
#include <limits>
#include <zstd.h>

#include "core/Errors.h"

namespace memviz {

namespace {

// Layout before compression: u32 count, then one column after another; absent optionals
// are stored as INT64_MIN.
constexpr std::int64_t kAbsent = std::numeric_limits<std::int64_t>::min();
constexpr std::size_t kRowBytes = 7 * 8 + 2 * 4 + 1;
constexpr std::size_t kMaxRawBytes = 4 + kAllocationsPerChunk * kRowBytes * 4;

template <typename T, typename Get>
void put(std::vector<unsigned char>& out, std::size_t n, Get get) {
    const std::size_t at = out.size();
    out.resize(at + n * sizeof(T));
    for (std::size_t i = 0; i < n; ++i) {
        const T v = get(i);
        std::memcpy(out.data() + at + i * sizeof(T), &v, sizeof(T));
    }
}

template <typename T>
T take(const unsigned char*& p, std::size_t i) {
    T v;
    std::memcpy(&v, p + i * sizeof(T), sizeof(T));
    return v;
}

std::int64_t orAbsent(const std::optional<std::int64_t>& v) { return v ? *v : kAbsent; }
std::optional<std::int64_t> fromAbsent(std::int64_t v) {
    return v == kAbsent ? std::nullopt : std::optional<std::int64_t>(v);
}

} // namespace

std::vector<unsigned char> encodeAllocations(std::span<const SnapshotAllocationRow> rows) {
    const std::size_t n = rows.size();
    std::vector<unsigned char> raw(4);
    raw.reserve(4 + n * kRowBytes);
    const auto count = static_cast<std::uint32_t>(n);
    std::memcpy(raw.data(), &count, 4);
    put<std::int64_t>(raw, n, [&](std::size_t i) { return rows[i].address; });
    put<std::int64_t>(raw, n, [&](std::size_t i) { return rows[i].requestedSize; });
    put<std::int64_t>(raw, n, [&](std::size_t i) { return orAbsent(rows[i].blockSize); });
    put<std::int64_t>(raw, n, [&](std::size_t i) { return rows[i].allocSeq; });
    put<std::int64_t>(raw, n, [&](std::size_t i) { return orAbsent(rows[i].freeSeq); });
    put<std::int64_t>(raw, n, [&](std::size_t i) { return orAbsent(rows[i].tAlloc); });
    put<std::int64_t>(raw, n, [&](std::size_t i) { return orAbsent(rows[i].tFree); });
    put<std::int32_t>(raw, n, [&](std::size_t i) { return rows[i].stack; });
    put<std::int32_t>(raw, n, [&](std::size_t i) { return rows[i].freeStack; });
    put<std::uint8_t>(raw, n, [&](std::size_t i) { return static_cast<std::uint8_t>(rows[i].origin); });
    std::vector<unsigned char> out(ZSTD_compressBound(raw.size()));
    const std::size_t size = ZSTD_compress(out.data(), out.size(), raw.data(), raw.size(), 1);
    if (ZSTD_isError(size)) throw StoreError(std::string("zstd compression failed: ") + ZSTD_getErrorName(size));
    out.resize(size);
    return out;
}

void decodeAllocations(std::span<const unsigned char> blob, int device, std::vector<SnapshotAllocationRow>& out) {
    const unsigned long long size = ZSTD_getFrameContentSize(blob.data(), blob.size());
    if (size == ZSTD_CONTENTSIZE_ERROR || size == ZSTD_CONTENTSIZE_UNKNOWN || size < 4 || size > kMaxRawBytes)
        throw StoreError("damaged allocation chunk in the store (bad frame header)");
    std::vector<unsigned char> raw(static_cast<std::size_t>(size));
    if (ZSTD_decompress(raw.data(), raw.size(), blob.data(), blob.size()) != raw.size())
        throw StoreError("damaged allocation chunk in the store (decompression failed)");
    std::uint32_t n;
    std::memcpy(&n, raw.data(), 4);
    if (raw.size() != 4 + std::size_t{n} * kRowBytes) throw StoreError("damaged allocation chunk in the store (size mismatch)");
    const std::size_t at = out.size();
    out.resize(at + n);
    SnapshotAllocationRow* rows = out.data() + at;
    const unsigned char* p = raw.data() + 4;
    for (std::size_t i = 0; i < n; ++i) rows[i].device = device;
    for (std::size_t i = 0; i < n; ++i) rows[i].address = take<std::int64_t>(p, i);
    p += n * 8;
    for (std::size_t i = 0; i < n; ++i) rows[i].requestedSize = take<std::int64_t>(p, i);
    p += n * 8;
    for (std::size_t i = 0; i < n; ++i) rows[i].blockSize = fromAbsent(take<std::int64_t>(p, i));
    p += n * 8;
    for (std::size_t i = 0; i < n; ++i) rows[i].allocSeq = take<std::int64_t>(p, i);
    p += n * 8;
    for (std::size_t i = 0; i < n; ++i) rows[i].freeSeq = fromAbsent(take<std::int64_t>(p, i));
    p += n * 8;
    for (std::size_t i = 0; i < n; ++i) rows[i].tAlloc = fromAbsent(take<std::int64_t>(p, i));
    p += n * 8;
    for (std::size_t i = 0; i < n; ++i) rows[i].tFree = fromAbsent(take<std::int64_t>(p, i));
    p += n * 8;
    for (std::size_t i = 0; i < n; ++i) rows[i].stack = take<std::int32_t>(p, i);
    p += n * 4;
    for (std::size_t i = 0; i < n; ++i) rows[i].freeStack = take<std::int32_t>(p, i);
    p += n * 4;
    for (std::size_t i = 0; i < n; ++i) rows[i].origin = take<std::uint8_t>(p, i);
}

} // namespace memviz

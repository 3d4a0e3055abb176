// SPDX-License-Identifier: MIT
#include "formats/snapshot/SnapshotCodec.h"

#include <limits>
#include <string>

#include "store/ColumnChunk.h"

namespace memviz {

namespace {

// Layout (store/ColumnChunk.h): u32 count, then one column after another; absent optionals
// are stored as INT64_MIN.
const std::string kWhat = "allocation chunk";
constexpr std::int64_t kAbsent = std::numeric_limits<std::int64_t>::min();
constexpr std::size_t kRowBytes = 7 * 8 + 2 * 4 + 1;
constexpr std::size_t kMaxRawBytes = 4 + kAllocationsPerChunk * kRowBytes * 4;

std::int64_t orAbsent(const std::optional<std::int64_t>& v) { return v ? *v : kAbsent; }
std::optional<std::int64_t> fromAbsent(std::int64_t v) { return v == kAbsent ? std::nullopt : std::optional<std::int64_t>(v); }

} // namespace

std::vector<unsigned char> encodeAllocations(std::span<const SnapshotAllocationRow> rows) {
    const std::size_t n = rows.size();
    columns::Builder chunk(static_cast<std::uint32_t>(n), 4 + n * kRowBytes);
    std::vector<unsigned char>& raw = chunk.raw();
    columns::put<std::int64_t>(raw, n, [&](std::size_t i) { return rows[i].address; });
    columns::put<std::int64_t>(raw, n, [&](std::size_t i) { return rows[i].requestedSize; });
    columns::put<std::int64_t>(raw, n, [&](std::size_t i) { return orAbsent(rows[i].blockSize); });
    columns::put<std::int64_t>(raw, n, [&](std::size_t i) { return rows[i].allocSeq; });
    columns::put<std::int64_t>(raw, n, [&](std::size_t i) { return orAbsent(rows[i].freeSeq); });
    columns::put<std::int64_t>(raw, n, [&](std::size_t i) { return orAbsent(rows[i].tAlloc); });
    columns::put<std::int64_t>(raw, n, [&](std::size_t i) { return orAbsent(rows[i].tFree); });
    columns::put<std::int32_t>(raw, n, [&](std::size_t i) { return rows[i].stack; });
    columns::put<std::int32_t>(raw, n, [&](std::size_t i) { return rows[i].freeStack; });
    columns::put<std::uint8_t>(raw, n, [&](std::size_t i) { return static_cast<std::uint8_t>(rows[i].origin); });
    return chunk.compress();
}

void decodeAllocations(std::span<const unsigned char> blob, int device, std::vector<SnapshotAllocationRow>& out) {
    const std::vector<unsigned char> raw = columns::decompress(blob, kMaxRawBytes, kWhat);
    const std::uint32_t n = columns::readCount(raw, kRowBytes, kWhat);
    const std::size_t at = out.size();
    out.resize(at + n);
    SnapshotAllocationRow* rows = out.data() + at;
    const unsigned char* p = raw.data() + 4;
    for (std::size_t i = 0; i < n; ++i) rows[i].device = device;
    for (std::size_t i = 0; i < n; ++i) rows[i].address = columns::at<std::int64_t>(p, i);
    p += n * 8;
    for (std::size_t i = 0; i < n; ++i) rows[i].requestedSize = columns::at<std::int64_t>(p, i);
    p += n * 8;
    for (std::size_t i = 0; i < n; ++i) rows[i].blockSize = fromAbsent(columns::at<std::int64_t>(p, i));
    p += n * 8;
    for (std::size_t i = 0; i < n; ++i) rows[i].allocSeq = columns::at<std::int64_t>(p, i);
    p += n * 8;
    for (std::size_t i = 0; i < n; ++i) rows[i].freeSeq = fromAbsent(columns::at<std::int64_t>(p, i));
    p += n * 8;
    for (std::size_t i = 0; i < n; ++i) rows[i].tAlloc = fromAbsent(columns::at<std::int64_t>(p, i));
    p += n * 8;
    for (std::size_t i = 0; i < n; ++i) rows[i].tFree = fromAbsent(columns::at<std::int64_t>(p, i));
    p += n * 8;
    for (std::size_t i = 0; i < n; ++i) rows[i].stack = columns::at<std::int32_t>(p, i);
    p += n * 4;
    for (std::size_t i = 0; i < n; ++i) rows[i].freeStack = columns::at<std::int32_t>(p, i);
    p += n * 4;
    for (std::size_t i = 0; i < n; ++i) rows[i].origin = columns::at<std::uint8_t>(p, i);
}

} // namespace memviz

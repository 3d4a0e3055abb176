// SPDX-License-Identifier: MIT
#include "formats/snapshot/SnapshotCodec.h"

#include <limits>
#include <string>

#include "core/Errors.h"
#include "store/ColumnChunk.h"

namespace memviz {

namespace {

// Codec 1 (store/ColumnChunk.h, written before schema version 9): u32 count, then one fixed-width
// column after another; absent optionals are stored as INT64_MIN.
const std::string kWhat = "allocation chunk";
constexpr std::size_t kNarrowColumns = 11;
constexpr std::int64_t kHasBlockSize = 1, kHasFreeSeq = 2, kHasTAlloc = 4, kHasTFree = 8;
constexpr std::int64_t kAbsent = std::numeric_limits<std::int64_t>::min();
constexpr std::size_t kRowBytes = 7 * 8 + 2 * 4 + 1;
constexpr std::size_t kMaxRawBytes = 4 + kAllocationsPerChunk * kRowBytes * 4;

std::int64_t step(std::int64_t value, std::int64_t from) {
    return static_cast<std::int64_t>(static_cast<std::uint64_t>(value) - static_cast<std::uint64_t>(from));
}
std::int64_t unstep(std::int64_t from, std::int64_t d) {
    return static_cast<std::int64_t>(static_cast<std::uint64_t>(from) + static_cast<std::uint64_t>(d));
}
std::optional<std::int64_t> fromAbsent(std::int64_t v) { return v == kAbsent ? std::nullopt : std::optional<std::int64_t>(v); }

} // namespace

// Codec 2 (narrow columns, store/ColumnChunk.h): every column at its own width. First a presence
// column (kHas* bits), then address, requested size, block size, the alloc entry as a step from
// the previous row's, the free entry as a step from this row's alloc entry, the alloc time as a
// step from the last alloc time present (0 before the first), the free time as a step from that
// alloc time, the two stacks and the origin. An absent value is stored as 0 (a step of 0), so it
// neither widens its column nor moves the running values. Steps wrap around (two's complement):
// any two values have one, and decoding gives the value back.
std::vector<unsigned char> encodeAllocations(std::span<const SnapshotAllocationRow> rows) {
    const std::size_t n = rows.size();
    columns::Builder chunk(static_cast<std::uint32_t>(n), columns::kNarrowHeaderBytes + kNarrowColumns * 9 + n * 24, true);
    columns::Bytes& raw = chunk.raw();
    // The running alloc time after each row (the last one present so far).
    std::vector<std::int64_t> tRun(n);
    for (std::size_t i = 0; i < n; ++i) tRun[i] = rows[i].tAlloc.value_or(i ? tRun[i - 1] : 0);
    columns::putNarrow(raw, n, [&](std::size_t i) {
        const SnapshotAllocationRow& r = rows[i];
        return (r.blockSize ? kHasBlockSize : 0) | (r.freeSeq ? kHasFreeSeq : 0) | (r.tAlloc ? kHasTAlloc : 0) |
               (r.tFree ? kHasTFree : 0);
    });
    columns::putNarrow(raw, n, [&](std::size_t i) { return rows[i].address; });
    columns::putNarrow(raw, n, [&](std::size_t i) { return rows[i].requestedSize; });
    columns::putNarrow(raw, n, [&](std::size_t i) { return rows[i].blockSize.value_or(0); });
    columns::putNarrow(raw, n, [&](std::size_t i) { return step(rows[i].allocSeq, i ? rows[i - 1].allocSeq : 0); });
    columns::putNarrow(raw, n, [&](std::size_t i) { return rows[i].freeSeq ? step(*rows[i].freeSeq, rows[i].allocSeq) : 0; });
    columns::putNarrow(raw, n, [&](std::size_t i) { return rows[i].tAlloc ? step(*rows[i].tAlloc, i ? tRun[i - 1] : 0) : 0; });
    columns::putNarrow(raw, n, [&](std::size_t i) { return rows[i].tFree ? step(*rows[i].tFree, tRun[i]) : 0; });
    columns::putNarrow(raw, n, [&](std::size_t i) { return rows[i].stack; });
    columns::putNarrow(raw, n, [&](std::size_t i) { return rows[i].freeStack; });
    columns::putNarrow(raw, n, [&](std::size_t i) { return static_cast<std::uint8_t>(rows[i].origin); });
    return chunk.compress();
}

namespace {

void decodeNarrow(const std::vector<unsigned char>& raw, std::size_t n, SnapshotAllocationRow* rows) {
    const unsigned char* p = raw.data() + columns::kNarrowHeaderBytes;
    const unsigned char* end = raw.data() + raw.size();
    const auto column = [&](auto&& set) {
        if (p) p = columns::getNarrow(p, end, n, set);
    };
    std::vector<std::uint8_t> has(n);
    std::vector<std::int64_t> tRun(n);
    column([&](std::size_t i, std::int64_t v) { has[i] = static_cast<std::uint8_t>(v); });
    column([&](std::size_t i, std::int64_t v) { rows[i].address = v; });
    column([&](std::size_t i, std::int64_t v) { rows[i].requestedSize = v; });
    column([&](std::size_t i, std::int64_t v) {
        if (has[i] & kHasBlockSize) rows[i].blockSize = v;
    });
    column([&](std::size_t i, std::int64_t v) { rows[i].allocSeq = unstep(i ? rows[i - 1].allocSeq : 0, v); });
    column([&](std::size_t i, std::int64_t v) {
        if (has[i] & kHasFreeSeq) rows[i].freeSeq = unstep(rows[i].allocSeq, v);
    });
    column([&](std::size_t i, std::int64_t v) {
        tRun[i] = i ? tRun[i - 1] : 0;
        if (has[i] & kHasTAlloc) rows[i].tAlloc = tRun[i] = unstep(tRun[i], v);
    });
    column([&](std::size_t i, std::int64_t v) {
        if (has[i] & kHasTFree) rows[i].tFree = unstep(tRun[i], v);
    });
    column([&](std::size_t i, std::int64_t v) { rows[i].stack = static_cast<std::int32_t>(v); });
    column([&](std::size_t i, std::int64_t v) { rows[i].freeStack = static_cast<std::int32_t>(v); });
    column([&](std::size_t i, std::int64_t v) { rows[i].origin = static_cast<std::uint8_t>(v); });
    if (!p || p != end) throw StoreError("damaged " + kWhat + " in the store (narrow columns do not fill the chunk)");
}

} // namespace

void decodeAllocations(std::span<const unsigned char> blob, int device, std::vector<SnapshotAllocationRow>& out) {
    const std::vector<unsigned char> raw = columns::decompress(blob, kMaxRawBytes, kWhat);
    if (const auto narrow = columns::narrowCount(raw, kAllocationsPerChunk, kWhat)) {
        const std::size_t at = out.size();
        out.resize(at + *narrow);
        for (std::size_t i = at; i < out.size(); ++i) out[i].device = device;
        try {
            decodeNarrow(raw, *narrow, out.data() + at);
        } catch (...) {
            out.resize(at);
            throw;
        }
        return;
    }
    // Codec 1 (stores written before schema version 9): fixed-width columns.
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

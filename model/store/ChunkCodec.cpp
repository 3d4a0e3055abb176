// SPDX-License-Identifier: MIT
#include "store/ChunkCodec.h"

#include <array>
#include <bit>
#include <cstddef>
#include <cstring>
#include <optional>
#include <type_traits>
#include <string>

#include "core/Errors.h"
#include "store/ColumnChunk.h"

namespace memviz {

namespace {

// Layouts (store/ColumnChunk.h): events, points and records in narrow columns (codec 2; codec 1,
// fixed widths, is still read). Times are stored as deltas from the
// previous row, which compresses far better than absolute nanoseconds.
const std::string kWhat = "chunk";
constexpr std::size_t kEventBytes = 8 + 8 + 8 + 4 + 4 + 4 + 2 + 1 + 1;
constexpr std::size_t kPointBytes = 16;
constexpr std::size_t kMaxChunkBytes = 256u << 20;

// Deltas wrap around (two's complement), so any two values have one and decoding gives the
// value back; signed subtraction would overflow (undefined) for values far apart.
std::int64_t delta(std::int64_t value, std::int64_t previous) {
    return static_cast<std::int64_t>(static_cast<std::uint64_t>(value) - static_cast<std::uint64_t>(previous));
}
std::int64_t undelta(std::int64_t previous, std::int64_t d) {
    return static_cast<std::int64_t>(static_cast<std::uint64_t>(previous) + static_cast<std::uint64_t>(d));
}

// An i64 outside the columns: a narrow chunk's first time, a steps column's first value.
void appendInt64(columns::Bytes& raw, std::int64_t v) {
    raw.resize(raw.size() + 8);
    std::memcpy(raw.data() + raw.size() - 8, &v, 8);
}
// Reads that i64 at p (moving p past it); nullopt when fewer than 8 bytes are left.
std::optional<std::int64_t> readInt64(const unsigned char*& p, const unsigned char* end) {
    if (end - p < 8) return std::nullopt;
    std::int64_t v;
    std::memcpy(&v, p, 8);
    p += 8;
    return v;
}
// A narrow event or record chunk's first time.
std::int64_t readFirstTime(const unsigned char*& p, const unsigned char* end) {
    const auto t = readInt64(p, end);
    if (!t) throw StoreError("damaged chunk in the store (no first time)");
    return *t;
}


// A column of steps from the previous row (flag kSteps) and the first value after it, as
// getBestColumn reads it back.
template <typename Steps>
void putStepsColumn(columns::Bytes& raw, std::size_t n, Steps&& steps, const columns::NarrowRange& range, std::int64_t first) {
    columns::putNarrow(raw, n, steps, range, columns::kSteps);
    appendInt64(raw, first);
}

// A value column of the narrow point and record chunks, stored whichever way is narrowest: as
// it is, as steps from the previous row (a time, a running total), or (records, when `key` is
// given) as the difference from the row's column 0 (an allocation's times beside its key).
template <typename Get, typename Key = std::nullptr_t>
void putBestColumn(columns::Bytes& raw, std::size_t n, Get&& value, Key&& key = nullptr) {
    constexpr bool records = !std::is_same_v<std::decay_t<Key>, std::nullptr_t>;
    const auto steps = [&](std::size_t i) { return i ? delta(value(i), value(i - 1)) : std::int64_t{0}; };
    const auto relative = [&](std::size_t i) {
        if constexpr (records) return delta(value(i), key(i));
        else return std::int64_t{0};
    };
    columns::NarrowRange plainRange, stepsRange, relativeRange;
    for (std::size_t i = 0; i < n; ++i) {
        plainRange.add(value(i));
        stepsRange.add(steps(i));
        if constexpr (records) relativeRange.add(relative(i));
    }
    const unsigned plain = plainRange.width(), stepped = stepsRange.width();
    if (records && relativeRange.width() < std::min(plain, stepped))
        return columns::putNarrow(raw, n, relative, relativeRange, columns::kRelativeToFirst);
    if (stepped >= plain) return columns::putNarrow(raw, n, value, plainRange);
    putStepsColumn(raw, n, steps, stepsRange, n ? value(0) : 0);
}

// Reads a column putBestColumn wrote into at(i) (an int64 lvalue per row), its flags undone;
// `key(i)` is the row's column 0 where kRelativeToFirst is allowed. nullptr: damaged.
template <typename At, typename Key = std::nullptr_t>
const unsigned char* getBestColumn(const unsigned char* p, const unsigned char* end, std::size_t n, At&& at,
                                   Key&& key = nullptr) {
    constexpr bool records = !std::is_same_v<std::decay_t<Key>, std::nullptr_t>;
    unsigned char flags = 0;
    p = columns::getNarrow(p, end, n, [&](std::size_t i, std::int64_t v) { at(i) = v; },
                           columns::kSteps | (records ? columns::kRelativeToFirst : 0), &flags);
    if (!p || flags == (columns::kSteps | columns::kRelativeToFirst)) return nullptr;
    if (flags & columns::kSteps) {
        const auto first = readInt64(p, end);
        if (!first) return nullptr;
        std::int64_t v = *first;
        for (std::size_t i = 0; i < n; ++i) at(i) = v = i ? undelta(v, at(i)) : v;
    }
    if constexpr (records)
        if (flags & columns::kRelativeToFirst)
            for (std::size_t i = 0; i < n; ++i) at(i) = undelta(key(i), at(i));
    return p;
}

// Bits to write v in: a proxy for what zstd makes of a column (its high zero bytes cost little).
unsigned bitsOf(std::uint64_t v) { return static_cast<unsigned>(std::bit_width(v)); }
std::uint64_t zigzag(std::int64_t v) {
    return (static_cast<std::uint64_t>(v) << 1) ^ static_cast<std::uint64_t>(v >> 63);
}

// The address column as it is, or as steps from the previous event (putStepsColumn) when the
// steps need less than half the bits: heaptrack's "addresses" are allocation info indices, and
// an event mostly names an info defined shortly before (deep.zst: 6 bits a step against 14 as it
// is, and zstd makes 57 KB of such a column instead of 97 KB, in 40 % less time; cnn.zst: a
// quarter to a third). Real pointers stay as they are: a CUDA snapshot's 500 distinct addresses
// repeat, which zstd finds in the plain column (6.7 KB) but not in its steps (7.8 KB), though the
// steps need two thirds of the bits. Every 8th event decides (a pass over all of them cost more
// than zstd saved).
void putAddressColumn(columns::Bytes& raw, std::span<const Event> ev, const columns::NarrowRange& plainRange) {
    constexpr std::size_t kSampleEvery = 8;
    const std::size_t n = ev.size();
    const auto lo = static_cast<std::uint64_t>(plainRange.lo);
    std::uint64_t plainBits = 0, stepBits = 0;
    for (std::size_t i = 1; i < n; i += kSampleEvery) {
        plainBits += bitsOf(static_cast<std::uint64_t>(ev[i].address) - lo);
        stepBits += bitsOf(zigzag(delta(ev[i].address, ev[i - 1].address)));
    }
    if (stepBits * 2 >= plainBits)
        return columns::putNarrow(raw, n, [&](std::size_t i) { return ev[i].address; }, plainRange);
    const auto step = [&](std::size_t i) { return i ? delta(ev[i].address, ev[i - 1].address) : std::int64_t{0}; };
    columns::NarrowRange stepRange;
    for (std::size_t i = 0; i < n; ++i) stepRange.add(step(i));
    putStepsColumn(raw, n, step, stepRange, ev[0].address);
}

} // namespace

std::vector<unsigned char> encodeEvents(std::span<const Event> ev) {
    const std::size_t n = ev.size();
    columns::Builder chunk(static_cast<std::uint32_t>(n), columns::kNarrowHeaderBytes + 8 + 9 * 9 + n * 16, true);
    columns::Bytes& raw = chunk.raw();
    // The first time, then steps: an absolute time in the column would widen all of it.
    const std::int64_t first = n ? ev[0].timeNs : 0;
    appendInt64(raw, first);
    const auto step = [&](std::size_t i) { return i ? delta(ev[i].timeNs, ev[i - 1].timeNs) : std::int64_t{0}; };
    // The nine columns' ranges in one pass over the events, then one pass per column to write it.
    std::array<columns::NarrowRange, 9> r;
    for (std::size_t i = 0; i < n; ++i) {
        const Event& e = ev[i];
        r[0].add(step(i));
        r[1].add(e.address);
        r[2].add(e.size);
        r[3].add(e.op);
        r[4].add(e.category);
        r[5].add(e.stack);
        r[6].add(e.device);
        r[7].add(static_cast<std::uint8_t>(e.kind));
        r[8].add(e.flags);
    }
    columns::putNarrow(raw, n, step, r[0]);
    putAddressColumn(raw, ev, r[1]);
    columns::putNarrow(raw, n, [&](std::size_t i) { return ev[i].size; }, r[2]);
    columns::putNarrow(raw, n, [&](std::size_t i) { return ev[i].op; }, r[3]);
    columns::putNarrow(raw, n, [&](std::size_t i) { return ev[i].category; }, r[4]);
    columns::putNarrow(raw, n, [&](std::size_t i) { return ev[i].stack; }, r[5]);
    columns::putNarrow(raw, n, [&](std::size_t i) { return ev[i].device; }, r[6]);
    columns::putNarrow(raw, n, [&](std::size_t i) { return static_cast<std::uint8_t>(ev[i].kind); }, r[7]);
    columns::putNarrow(raw, n, [&](std::size_t i) { return ev[i].flags; }, r[8]);
    return chunk.compress();
}

namespace {

// Codec 2 (encodeEvents): narrow columns.
std::vector<Event> decodeNarrowEvents(const std::vector<unsigned char>& raw, std::size_t n) {
    std::vector<Event> ev(n);
    const unsigned char* p = raw.data() + columns::kNarrowHeaderBytes;
    const unsigned char* end = raw.data() + raw.size();
    std::int64_t t = readFirstTime(p, end);
    bool badKind = false;
    const auto column = [&](auto&& set) {
        if (p) p = columns::getNarrow(p, end, n, set);
    };
    column([&](std::size_t i, std::int64_t v) { ev[i].timeNs = t = i ? undelta(t, v) : t; });
    if (p) p = getBestColumn(p, end, n, [&](std::size_t i) -> std::int64_t& { return ev[i].address; }); // kSteps allowed
    column([&](std::size_t i, std::int64_t v) { ev[i].size = v; });
    column([&](std::size_t i, std::int64_t v) { ev[i].op = static_cast<std::int32_t>(v); });
    column([&](std::size_t i, std::int64_t v) { ev[i].category = static_cast<std::int32_t>(v); });
    column([&](std::size_t i, std::int64_t v) { ev[i].stack = static_cast<std::int32_t>(v); });
    column([&](std::size_t i, std::int64_t v) { ev[i].device = static_cast<std::uint16_t>(v); });
    column([&](std::size_t i, std::int64_t v) {
        badKind |= v < static_cast<std::uint8_t>(EventKind::Alloc) || v > kLastEventKind;
        ev[i].kind = static_cast<EventKind>(v);
    });
    column([&](std::size_t i, std::int64_t v) { ev[i].flags = static_cast<std::uint8_t>(v); });
    if (!p || p != end) throw StoreError("damaged chunk in the store (narrow columns do not fill the chunk)");
    if (badKind) throw StoreError("damaged chunk in the store (unknown event kind)");
    return ev;
}

} // namespace

std::vector<Event> decodeEvents(std::span<const unsigned char> blob) {
    const std::vector<unsigned char> raw = columns::decompress(blob, kMaxChunkBytes, kWhat);
    if (const auto narrow = columns::narrowCount(raw, kEventsPerChunk, kWhat)) return decodeNarrowEvents(raw, *narrow);
    // Codec 1: fixed-width columns.
    const std::size_t n = columns::readCount(raw, kEventBytes, kWhat);
    std::vector<Event> ev(n);
    const unsigned char* p = raw.data() + 4;
    std::int64_t t = 0;
    for (std::size_t i = 0; i < n; ++i) ev[i].timeNs = t = undelta(t, columns::at<std::int64_t>(p, i));
    p += n * 8;
    for (std::size_t i = 0; i < n; ++i) ev[i].address = columns::at<std::int64_t>(p, i);
    p += n * 8;
    for (std::size_t i = 0; i < n; ++i) ev[i].size = columns::at<std::int64_t>(p, i);
    p += n * 8;
    for (std::size_t i = 0; i < n; ++i) ev[i].op = columns::at<std::int32_t>(p, i);
    p += n * 4;
    for (std::size_t i = 0; i < n; ++i) ev[i].category = columns::at<std::int32_t>(p, i);
    p += n * 4;
    for (std::size_t i = 0; i < n; ++i) ev[i].stack = columns::at<std::int32_t>(p, i);
    p += n * 4;
    for (std::size_t i = 0; i < n; ++i) ev[i].device = columns::at<std::uint16_t>(p, i);
    p += n * 2;
    for (std::size_t i = 0; i < n; ++i) {
        const auto k = columns::at<std::uint8_t>(p, i);
        if (k < static_cast<std::uint8_t>(EventKind::Alloc) || k > kLastEventKind)
            throw StoreError("damaged chunk in the store (unknown event kind)");
        ev[i].kind = static_cast<EventKind>(k);
    }
    p += n;
    for (std::size_t i = 0; i < n; ++i) ev[i].flags = columns::at<std::uint8_t>(p, i);
    return ev;
}


std::vector<unsigned char> encodePoints(std::span<const SeriesPoint> pts) {
    const std::size_t n = pts.size();
    columns::Builder chunk(static_cast<std::uint32_t>(n), columns::kNarrowHeaderBytes + 2 * (9 + 8) + n * 8, true);
    columns::Bytes& raw = chunk.raw();
    putBestColumn(raw, n, [&](std::size_t i) { return pts[i].t; });
    putBestColumn(raw, n, [&](std::size_t i) { return pts[i].v; });
    return chunk.compress();
}

std::vector<SeriesPoint> decodePoints(std::span<const unsigned char> blob) {
    const std::vector<unsigned char> raw = columns::decompress(blob, kMaxChunkBytes, kWhat);
    if (const auto narrow = columns::narrowCount(raw, kPointsPerChunk, kWhat)) {
        // Codec 2: narrow columns.
        const std::size_t n = *narrow;
        std::vector<SeriesPoint> pts(n);
        const unsigned char* p = raw.data() + columns::kNarrowHeaderBytes;
        const unsigned char* end = raw.data() + raw.size();
        p = getBestColumn(p, end, n, [&](std::size_t i) -> std::int64_t& { return pts[i].t; });
        if (p) p = getBestColumn(p, end, n, [&](std::size_t i) -> std::int64_t& { return pts[i].v; });
        if (!p || p != end) throw StoreError("damaged chunk in the store (narrow columns do not fill the chunk)");
        return pts;
    }
    // Codec 1: fixed-width columns.
    const std::size_t n = columns::readCount(raw, kPointBytes, kWhat);
    std::vector<SeriesPoint> pts(n);
    const unsigned char* p = raw.data() + 4;
    std::int64_t t = 0, v = 0;
    for (std::size_t i = 0; i < n; ++i) pts[i].t = t = undelta(t, columns::at<std::int64_t>(p, i));
    p += n * 8;
    for (std::size_t i = 0; i < n; ++i) pts[i].v = v = undelta(v, columns::at<std::int64_t>(p, i));
    return pts;
}


std::vector<unsigned char> encodeRecords(std::span<const std::int64_t> rows, std::size_t columns) {
    const std::size_t n = columns ? rows.size() / columns : 0;
    columns::Builder chunk(static_cast<std::uint32_t>(n),
                           columns::kNarrowHeaderBytes + 8 + columns * columns::kNarrowColumnHeaderBytes + rows.size() * 4, true);
    columns::Bytes& raw = chunk.raw();
    // Column 0 as in event chunks: the first time, then steps.
    const std::int64_t first = n ? rows[0] : 0;
    appendInt64(raw, first);
    columns::putNarrow(raw, n, [&](std::size_t i) { return i ? delta(rows[i * columns], rows[(i - 1) * columns]) : 0; });
    const auto key = [&](std::size_t i) { return rows[i * columns]; };
    for (std::size_t c = 1; c < columns; ++c) putBestColumn(raw, n, [&](std::size_t i) { return rows[i * columns + c]; }, key);
    return chunk.compress();
}

namespace {

// Codec 2 (encodeRecords): narrow columns.
std::vector<std::int64_t> decodeNarrowRecords(const std::vector<unsigned char>& raw, std::size_t n, std::size_t columns) {
    // The fixed layout's size bounded the values; constant narrow columns take no bytes.
    if (n * columns > kMaxChunkBytes / 8) throw StoreError("damaged chunk in the store (too many values)");
    const unsigned char* p = raw.data() + columns::kNarrowHeaderBytes;
    const unsigned char* end = raw.data() + raw.size();
    std::int64_t t = readFirstTime(p, end);
    std::vector<std::int64_t> rows(n * columns);
    p = columns::getNarrow(p, end, n, [&](std::size_t i, std::int64_t v) { rows[i * columns] = t = i ? undelta(t, v) : t; });
    const auto key = [&](std::size_t i) { return rows[i * columns]; };
    for (std::size_t c = 1; c < columns && p; ++c)
        p = getBestColumn(p, end, n, [&](std::size_t i) -> std::int64_t& { return rows[i * columns + c]; }, key);
    if (!p || p != end) throw StoreError("damaged chunk in the store (narrow columns do not fill the chunk)");
    return rows;
}

} // namespace

std::vector<std::int64_t> decodeRecords(std::span<const unsigned char> blob, std::size_t columns) {
    const std::vector<unsigned char> raw = columns::decompress(blob, kMaxChunkBytes, kWhat);
    if (columns == 0) throw StoreError("damaged chunk in the store (no columns)");
    if (const auto narrow = columns::narrowCount(raw, kRecordsPerChunk, kWhat)) return decodeNarrowRecords(raw, *narrow, columns);
    // Codec 1: fixed-width columns.
    const std::size_t n = columns::readCount(raw, 8 * columns, kWhat);
    std::vector<std::int64_t> rows(n * columns);
    const unsigned char* p = raw.data() + 4;
    std::int64_t t = 0;
    for (std::size_t i = 0; i < n; ++i) rows[i * columns] = t = undelta(t, columns::at<std::int64_t>(p, i));
    for (std::size_t c = 1; c < columns; ++c) {
        p += n * 8;
        for (std::size_t i = 0; i < n; ++i) rows[i * columns + c] = columns::at<std::int64_t>(p, i);
    }
    return rows;
}

} // namespace memviz

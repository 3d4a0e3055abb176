// SPDX-License-Identifier: MIT
// Series point chunks and record chunks in codec 2 (narrow columns, schema version 10;
// store/ChunkCodec.cpp), and event chunks' address column (version 12): every value comes back exactly, at the int64 extremes too; each
// column is stored the narrowest way (as it is, as steps from the previous row, or records'
// columns beside column 0), which the layout built here byte by byte from docs/schema.md
// checks; codec 1 chunks of older stores still decode; a lying chunk is a StoreError.
#include <QtTest>
#include <cstring>
#include <limits>
#include <random>

#include "core/Errors.h"
#include "store/ChunkCodec.h"
#include "store/ColumnChunk.h"

using namespace memviz;

namespace {

constexpr std::int64_t kMin = std::numeric_limits<std::int64_t>::min();
constexpr std::int64_t kMax = std::numeric_limits<std::int64_t>::max();

std::vector<unsigned char> rawOf(const std::vector<unsigned char>& blob) { return columns::decompress(blob, 1u << 28, "chunk"); }

// The documented layout, written independently of the codec: little-endian values.
struct Layout {
    std::vector<unsigned char> bytes;
    void u(std::uint64_t v, std::size_t n) {
        for (std::size_t b = 0; b < n; ++b) bytes.push_back(static_cast<unsigned char>(v >> (8 * b)));
    }
    void header(std::uint32_t rows) {
        u(0xffffffffu, 4);
        u(rows, 4);
    }
    // A narrow column of `values`: width byte (with flags), base = the minimum, value - base.
    void column(const std::vector<std::int64_t>& values, unsigned char flags = 0) {
        std::int64_t lo = values.empty() ? 0 : values[0], hi = lo;
        for (const std::int64_t v : values) {
            lo = std::min(lo, v);
            hi = std::max(hi, v);
        }
        const auto range = static_cast<std::uint64_t>(hi) - static_cast<std::uint64_t>(lo);
        std::size_t width = 0;
        while (width < 8 && (width == 0 ? range : range >> (8 * width))) ++width;
        bytes.push_back(static_cast<unsigned char>(width | flags));
        u(static_cast<std::uint64_t>(lo), 8);
        for (const std::int64_t v : values) u(static_cast<std::uint64_t>(v) - static_cast<std::uint64_t>(lo), width);
    }
};

std::vector<unsigned char> compressedRaw(std::uint32_t rows, const std::vector<unsigned char>& body, bool narrow) {
    columns::Builder chunk(rows, 64, narrow);
    chunk.raw().insert(chunk.raw().end(), body.begin(), body.end());
    return chunk.compress();
}

} // namespace

class TestChunkCodec : public QObject {
    Q_OBJECT
private slots:
    void pointsRoundTripAtTheExtremes();
    void recordsRoundTripAtTheExtremes();
    void pointLayoutByteByByte();
    void recordLayoutByteByByte();
    void fixedWidthChunksStillRead();
    void eventAddressesAsStepsByteByByte();
    void hostileChunksAreErrors();
};

void TestChunkCodec::pointsRoundTripAtTheExtremes() {
    std::vector<SeriesPoint> pts;
    for (const std::int64_t v : {kMin, kMax, std::int64_t{0}, std::int64_t{-1}, kMin + 1, kMax - 1})
        pts.push_back({v, ~v});
    QVERIFY(decodePoints(encodePoints(pts)) == pts);
    QVERIFY(decodePoints(encodePoints(std::span(pts).first(1))) == std::vector<SeriesPoint>(pts.begin(), pts.begin() + 1));
    QVERIFY(decodePoints(encodePoints({})).empty());
    // A running total: times 1-1000 ns apart, values moving by allocation sizes.
    std::mt19937_64 rng(11);
    std::vector<SeriesPoint> series(50000);
    std::int64_t t = 1'700'000'000'000'000'000, v = 1 << 30;
    for (auto& p : series) {
        t += 1 + static_cast<std::int64_t>(rng() % 1000);
        v += static_cast<std::int64_t>(rng() % 20000) - 10000;
        p = {t, v};
    }
    QVERIFY(decodePoints(encodePoints(series)) == series);
    // heaptrack's allocation infos: sizes and backtrace nodes, no order at all.
    std::vector<SeriesPoint> infos(4000);
    for (auto& p : infos) p = {static_cast<std::int64_t>(rng() % 100000), static_cast<std::int64_t>(rng())};
    QVERIFY(decodePoints(encodePoints(infos)) == infos);
}

void TestChunkCodec::recordsRoundTripAtTheExtremes() {
    // Allocation lifetimes (formats/profiler/RecordLayouts.h): key, alloc time, free time (either
    // may be absent: INT64_MIN), device, address, size, op, thread.
    std::mt19937_64 rng(5);
    std::vector<std::int64_t> rows;
    std::int64_t key = 0;
    for (int i = 0; i < 20000; ++i) {
        key += static_cast<std::int64_t>(rng() % 500);
        const bool freed = rng() % 10 != 0, allocated = rng() % 50 != 0;
        rows.insert(rows.end(), {key, allocated ? key : kMin, freed ? key + static_cast<std::int64_t>(rng() % 100000) : kMin, 0,
                                 0x7f0000000000 + static_cast<std::int64_t>(rng() % (1u << 28)),
                                 static_cast<std::int64_t>(rng() % (1u << 24)), static_cast<std::int64_t>(rng() % 300) - 1, 2});
    }
    QVERIFY(decodeRecords(encodeRecords(rows, 8), 8) == rows);
    std::vector<std::int64_t> extremes;
    for (const std::int64_t v : {kMin, kMin + 1, std::int64_t{-1}, std::int64_t{0}, kMax - 1, kMax})
        extremes.insert(extremes.end(), {v, ~v, v, kMin, kMax});
    QVERIFY(decodeRecords(encodeRecords(extremes, 5), 5) == extremes);
    QVERIFY(decodeRecords(encodeRecords(std::span(extremes).first(5), 5), 5) ==
            std::vector<std::int64_t>(extremes.begin(), extremes.begin() + 5));
    QVERIFY(decodeRecords(encodeRecords({}, 3), 3).empty());
    QVERIFY(decodeRecords(encodeRecords(std::vector<std::int64_t>{42}, 1), 1) == std::vector<std::int64_t>{42});
}

// Times 200 ns apart (steps: one byte where the values need two); values that jump around (as
// they are: steps need as many bytes, and a tie keeps the values).
void TestChunkCodec::pointLayoutByteByByte() {
    const std::vector<std::int64_t> t = {5'000'000'000'000'000'000, 5'000'000'000'000'000'200, 5'000'000'000'000'000'400,
                                         5'000'000'000'000'000'600};
    const std::vector<std::int64_t> v = {200, -100, 250, -150};
    std::vector<SeriesPoint> pts;
    for (std::size_t i = 0; i < t.size(); ++i) pts.push_back({t[i], v[i]});
    Layout l;
    l.header(4);
    l.column({0, 200, 200, 200}, columns::kSteps);
    l.u(static_cast<std::uint64_t>(t[0]), 8); // a steps column's first value follows it
    l.column(v);
    const std::vector<unsigned char> blob = encodePoints(pts);
    QVERIFY(rawOf(blob) == l.bytes);
    QVERIFY(decodePoints(blob) == pts);
}

namespace {
Event eventAt(std::int64_t t, std::int64_t address, EventKind kind) {
    Event e;
    e.timeNs = t;
    e.address = address;
    e.size = 16;
    e.kind = kind;
    return e;
}
} // namespace

// Event chunks (schema version 12): an address column whose neighbours are close (heaptrack's
// allocation info indices) is stored as steps, flag kSteps, the first address after it; real
// pointers far apart stay as they are. Both come back exactly.
void TestChunkCodec::eventAddressesAsStepsByteByByte() {
    // 0, then 40001, 40002, 40005, 40004, ...: wide as they are, a few bits as steps.
    std::vector<std::int64_t> addresses = {0};
    for (std::int64_t i = 1; i < 64; ++i) addresses.push_back(40000 + i + (i % 3 == 0 ? 2 : 0));
    std::vector<Event> ev;
    for (std::size_t i = 0; i < addresses.size(); ++i)
        ev.push_back(eventAt(static_cast<std::int64_t>(i) * 1'000'000, addresses[i], i % 2 ? EventKind::Free : EventKind::Alloc));
    const auto expected = [&](bool steps) {
        Layout l;
        l.header(static_cast<std::uint32_t>(ev.size()));
        l.u(static_cast<std::uint64_t>(ev[0].timeNs), 8);
        std::vector<std::int64_t> timeSteps, addressColumn, sizes, ops, kinds, zeros;
        for (std::size_t i = 0; i < ev.size(); ++i) {
            timeSteps.push_back(i ? ev[i].timeNs - ev[i - 1].timeNs : 0);
            addressColumn.push_back(steps ? (i ? ev[i].address - ev[i - 1].address : 0) : ev[i].address);
            sizes.push_back(ev[i].size);
            ops.push_back(ev[i].op);
            kinds.push_back(static_cast<std::int64_t>(ev[i].kind));
            zeros.push_back(0);
        }
        l.column(timeSteps);
        l.column(addressColumn, steps ? columns::kSteps : 0);
        if (steps) l.u(static_cast<std::uint64_t>(ev[0].address), 8);
        l.column(sizes);
        l.column(ops);      // op
        l.column(ops);      // category (kNoName too)
        l.column(ops);      // stack
        l.column(zeros);    // device
        l.column(kinds);
        l.column(zeros);    // flags
        return l.bytes;
    };
    std::vector<unsigned char> blob = encodeEvents(ev);
    QVERIFY(rawOf(blob) == expected(true));
    QVERIFY(decodeEvents(blob) == ev);
    // Pointers spread over the address space: steps would be as wide, the column stays plain.
    std::mt19937_64 rng(7);
    for (Event& e : ev) e.address = static_cast<std::int64_t>(rng());
    blob = encodeEvents(ev);
    QVERIFY(rawOf(blob) == expected(false));
    QVERIFY(decodeEvents(blob) == ev);
}

// Column 0 is the first value and steps; an allocation's time equal to its key is stored as
// the difference (kRelativeToFirst: all zero, width 0); a size column as it is; a growing index
// as steps.
void TestChunkCodec::recordLayoutByteByByte() {
    const std::vector<std::int64_t> rows = {1'000'000, 1'000'000, 4096, 100, //
                                            1'000'300, 1'000'300, 512, 300,   //
                                            1'000'900, 1'000'900, 65536, 500};
    Layout l;
    l.header(3);
    l.u(1'000'000, 8);
    l.column({0, 300, 600});
    l.column({0, 0, 0}, columns::kRelativeToFirst);
    l.column({4096, 512, 65536});
    l.column({0, 200, 200}, columns::kSteps);
    l.u(100, 8);
    const std::vector<unsigned char> blob = encodeRecords(rows, 4);
    QVERIFY(rawOf(blob) == l.bytes);
    QVERIFY(decodeRecords(blob, 4) == rows);
}

// Stores before schema version 10 hold codec 1 point and record chunks: u32 count, then 8-byte
// columns, the first (and for points the second) as deltas from the previous row.
void TestChunkCodec::fixedWidthChunksStillRead() {
    Layout p;
    p.u(3, 4);
    for (const std::int64_t d : {100, 5, 7}) p.u(static_cast<std::uint64_t>(d), 8);   // t deltas
    for (const std::int64_t d : {-40, 90, -50}) p.u(static_cast<std::uint64_t>(d), 8); // v deltas
    const std::vector<SeriesPoint> points = {{100, -40}, {105, 50}, {112, 0}};
    QVERIFY(decodePoints(compressedRaw(3, std::vector<unsigned char>(p.bytes.begin() + 4, p.bytes.end()), false)) == points);

    Layout r;
    for (const std::int64_t d : {7, 3}) r.u(static_cast<std::uint64_t>(d), 8); // key deltas
    for (const std::int64_t v : {1, 2}) r.u(static_cast<std::uint64_t>(v), 8);
    for (const std::int64_t v : {-5, 9}) r.u(static_cast<std::uint64_t>(v), 8);
    QVERIFY((decodeRecords(compressedRaw(2, r.bytes, false), 3) == std::vector<std::int64_t>{7, 1, -5, 10, 2, 9}));
}

void TestChunkCodec::hostileChunksAreErrors() {
    // Two records of two columns: first value, a steps column, a plain column.
    const auto records = [](unsigned char flags, bool first) {
        Layout l;
        l.u(10, 8);
        l.column({0, 1});
        l.column({5, 6}, flags);
        if (first) l.u(5, 8);
        return l.bytes;
    };
    QCOMPARE(decodeRecords(compressedRaw(2, records(0, false), true), 2), (std::vector<std::int64_t>{10, 5, 11, 6}));
    QCOMPARE(decodeRecords(compressedRaw(2, records(columns::kRelativeToFirst, false), true), 2),
             (std::vector<std::int64_t>{10, 15, 11, 17}));
    QCOMPARE(decodeRecords(compressedRaw(2, records(columns::kSteps, true), true), 2), (std::vector<std::int64_t>{10, 5, 11, 11}));
    // Both flags; steps without the first value after the column; bytes left over.
    QVERIFY_THROWS_EXCEPTION(StoreError, decodeRecords(compressedRaw(2, records(columns::kSteps | columns::kRelativeToFirst, true), true), 2));
    QVERIFY_THROWS_EXCEPTION(StoreError, decodeRecords(compressedRaw(2, records(columns::kSteps, false), true), 2));
    QVERIFY_THROWS_EXCEPTION(StoreError, decodeRecords(compressedRaw(2, records(0, true), true), 2));
    QVERIFY_THROWS_EXCEPTION(StoreError, decodeRecords(compressedRaw(2, records(0, false), true), 3)); // a column missing
    // More rows than a chunk holds, and 32,768 rows of a billion constant columns: refused, not allocated.
    QVERIFY_THROWS_EXCEPTION(StoreError, decodeRecords(compressedRaw(static_cast<std::uint32_t>(kRecordsPerChunk + 1), records(0, false), true), 2));
    Layout constant;
    constant.u(0, 8);
    constant.column(std::vector<std::int64_t>(kRecordsPerChunk, 0));
    QVERIFY_THROWS_EXCEPTION(StoreError,
                             decodeRecords(compressedRaw(static_cast<std::uint32_t>(kRecordsPerChunk), constant.bytes, true), 1u << 30));
    // Points: kRelativeToFirst is for records only; a width over 8.
    Layout points;
    points.column({1, 2});
    points.column({3, 4}, columns::kRelativeToFirst);
    QVERIFY_THROWS_EXCEPTION(StoreError, decodePoints(compressedRaw(2, points.bytes, true)));
    Layout wide;
    wide.column({1, 2});
    wide.column({3, 4});
    QCOMPARE(decodePoints(compressedRaw(2, wide.bytes, true)), (std::vector<SeriesPoint>{{1, 3}, {2, 4}}));
    wide.bytes[0] = 9;
    QVERIFY_THROWS_EXCEPTION(StoreError, decodePoints(compressedRaw(2, wide.bytes, true)));
    // Event chunks take no flags but kSteps on the address column, which the first address must
    // follow.
    const auto eventsWith = [](int flaggedColumn, unsigned char flags, bool firstAddress) {
        Layout events;
        events.u(0, 8);
        for (int c = 0; c < 9; ++c) {
            events.column({c == 7 ? 1 : 0}, c == flaggedColumn ? flags : 0);
            if (c == 1 && firstAddress) events.u(77, 8);
        }
        return compressedRaw(1, events.bytes, true);
    };
    QCOMPARE(decodeEvents(eventsWith(1, columns::kSteps, true)).at(0).address, 77);
    QVERIFY_THROWS_EXCEPTION(StoreError, decodeEvents(eventsWith(1, columns::kSteps, false)));
    QVERIFY_THROWS_EXCEPTION(StoreError, decodeEvents(eventsWith(1, columns::kRelativeToFirst, false)));
    QVERIFY_THROWS_EXCEPTION(StoreError, decodeEvents(eventsWith(2, columns::kSteps, false)));
    QVERIFY_THROWS_EXCEPTION(StoreError, decodeEvents(eventsWith(0, columns::kSteps, false)));
}

QTEST_APPLESS_MAIN(TestChunkCodec)
#include "tst_chunk_codec.moc"

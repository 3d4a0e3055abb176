// SPDX-License-Identifier: MIT
// The snapshot's allocation chunks (formats/snapshot/SnapshotCodec): codec 2 (narrow columns,
// schema version 9) gives every row back exactly, absent values included; codec 1 chunks of
// older stores, built here byte by byte as docs/formats-snapshot.md describes them, still
// decode; a damaged chunk is a StoreError that leaves the rows read before it alone.
#include <QtTest>
#include <limits>
#include <random>

#include "core/Errors.h"
#include "formats/snapshot/SnapshotCodec.h"
#include "store/ColumnChunk.h"

using namespace memviz;

namespace {

bool sameRows(const std::vector<SnapshotAllocationRow>& a, const std::vector<SnapshotAllocationRow>& b) {
    if (a.size() != b.size()) return false;
    for (std::size_t i = 0; i < a.size(); ++i) {
        const SnapshotAllocationRow &x = a[i], &y = b[i];
        if (x.device != y.device || x.address != y.address || x.requestedSize != y.requestedSize ||
            x.blockSize != y.blockSize || x.allocSeq != y.allocSeq || x.freeSeq != y.freeSeq || x.tAlloc != y.tAlloc ||
            x.tFree != y.tFree || x.stack != y.stack || x.freeStack != y.freeStack || x.origin != y.origin)
            return false;
    }
    return true;
}

std::vector<SnapshotAllocationRow> decoded(const std::vector<unsigned char>& blob, int device) {
    std::vector<SnapshotAllocationRow> out;
    decodeAllocations(blob, device, out);
    return out;
}

} // namespace

class TestSnapshotCodec : public QObject {
    Q_OBJECT
private slots:
    void narrowRowsComeBackExactly();
    void narrowChunksAreSmall();
    void fixedWidthChunksStillRead();
    void damagedChunksAreErrors();
};

// Values at the int64 extremes (their steps wrap around), absent and present optionals side by
// side (0 present beside 0 stored for an absent one), negative sequence numbers and stacks.
void TestSnapshotCodec::narrowRowsComeBackExactly() {
    const std::int64_t lo = std::numeric_limits<std::int64_t>::min(), hi = std::numeric_limits<std::int64_t>::max();
    std::vector<SnapshotAllocationRow> rows;
    for (const std::int64_t v : {lo, hi, std::int64_t{0}, std::int64_t{-1}, std::int64_t{1} << 40}) {
        for (int shape = 0; shape < 4; ++shape) {
            SnapshotAllocationRow r;
            r.device = 3;
            r.address = v;
            r.requestedSize = ~v;
            if (shape & 1) r.blockSize = v;
            r.allocSeq = shape == 2 ? -1 : v;
            if (shape & 2) r.freeSeq = 0;
            if (shape != 3) r.tAlloc = v;
            if (shape == 1) r.tFree = 0;
            if (shape == 3) r.tFree = v ^ 5; // freed, alloc time unknown (made before the trace)
            r.stack = static_cast<std::int32_t>(v);
            r.freeStack = shape ? -1 : std::numeric_limits<std::int32_t>::max();
            r.origin = shape % 3;
            rows.push_back(r);
        }
    }
    QVERIFY(sameRows(decoded(encodeAllocations(rows), 3), rows));
    QVERIFY(decoded(encodeAllocations({}), 0).empty());
    // Appended after rows already there, each given the device asked for.
    std::vector<SnapshotAllocationRow> out(2);
    decodeAllocations(encodeAllocations(rows), 3, out);
    QCOMPARE(out.size(), rows.size() + 2);
    QVERIFY(sameRows(std::vector<SnapshotAllocationRow>(out.begin() + 2, out.end()), rows));
}

// 60,000 typical rows (addresses within 1 GiB, sizes up to 50 KiB, entries 1-3 apart, an
// allocation's time 1000 ns per entry, a quarter alive at the end, no block sizes known): per
// row 1 byte of presence, 4 of address, 2 of size, none of block size (constant), 1 of alloc
// entry step, 2 of free entry step (up to 1000), 2 of alloc time step (up to 3000), 3 of free
// time step (up to 10^6), 2 of each stack, none of origin, where codec 1 spends 65.
void TestSnapshotCodec::narrowChunksAreSmall() {
    std::mt19937_64 rng(11);
    std::vector<SnapshotAllocationRow> rows(60000);
    std::int64_t seq = 0;
    for (std::size_t i = 0; i < rows.size(); ++i) {
        SnapshotAllocationRow& r = rows[i];
        r.address = 0x7f0000000000 + static_cast<std::int64_t>(rng() % (1u << 30));
        r.requestedSize = 512 * (1 + static_cast<std::int64_t>(rng() % 100));
        seq += 1 + static_cast<std::int64_t>(rng() % 3);
        r.allocSeq = seq;
        r.tAlloc = seq * 1000;
        if (i % 4) {
            r.freeSeq = seq + 1 + static_cast<std::int64_t>(rng() % 1000);
            r.tFree = *r.freeSeq * 1000;
        }
        r.stack = static_cast<std::int32_t>(rng() % 3000);
        r.freeStack = r.freeSeq ? static_cast<std::int32_t>(rng() % 3000) : -1;
    }
    const std::vector<unsigned char> blob = encodeAllocations(rows);
    QVERIFY(sameRows(decoded(blob, 0), rows));
    const std::vector<unsigned char> raw = columns::decompress(blob, 1u << 28, "allocation chunk");
    QCOMPARE(raw.size(), std::size_t{8 + 11 * 9 + 60000 * (1 + 4 + 2 + 0 + 1 + 2 + 2 + 3 + 2 + 2 + 0)});
}

// Codec 1: u32 count, then address, requested size, block size, alloc entry, free entry, alloc
// time, free time (i64, INT64_MIN when absent), stack, free stack (i32), origin (u8).
void TestSnapshotCodec::fixedWidthChunksStillRead() {
    constexpr std::int64_t kAbsent = std::numeric_limits<std::int64_t>::min();
    columns::Builder chunk(2, 4 + 2 * 65);
    columns::Bytes& raw = chunk.raw();
    columns::put<std::int64_t>(raw, 2, [](std::size_t i) { return std::int64_t{0x1000} * static_cast<std::int64_t>(i + 1); });
    columns::put<std::int64_t>(raw, 2, [](std::size_t i) { return std::int64_t{512} << i; });
    columns::put<std::int64_t>(raw, 2, [&](std::size_t i) { return i ? kAbsent : std::int64_t{1024}; });
    columns::put<std::int64_t>(raw, 2, [](std::size_t i) { return i ? std::int64_t{-1} : std::int64_t{7}; });
    columns::put<std::int64_t>(raw, 2, [&](std::size_t i) { return i ? std::int64_t{9} : kAbsent; });
    columns::put<std::int64_t>(raw, 2, [&](std::size_t i) { return i ? kAbsent : std::int64_t{7000}; });
    columns::put<std::int64_t>(raw, 2, [&](std::size_t i) { return i ? std::int64_t{9000} : kAbsent; });
    columns::put<std::int32_t>(raw, 2, [](std::size_t i) { return static_cast<std::int32_t>(i + 5); });
    columns::put<std::int32_t>(raw, 2, [](std::size_t i) { return i ? 8 : -1; });
    columns::put<std::uint8_t>(raw, 2, [](std::size_t i) { return static_cast<std::uint8_t>(i); });
    const std::vector<SnapshotAllocationRow> rows = decoded(chunk.compress(), 1);
    QCOMPARE(rows.size(), std::size_t{2});
    QCOMPARE(rows[0].address, 0x1000);
    QCOMPARE(rows[0].requestedSize, 512);
    QCOMPARE(rows[0].blockSize, std::optional<std::int64_t>(1024));
    QCOMPARE(rows[0].allocSeq, 7);
    QVERIFY(!rows[0].freeSeq);
    QCOMPARE(rows[0].tAlloc, std::optional<std::int64_t>(7000));
    QVERIFY(!rows[0].tFree);
    QCOMPARE(rows[0].stack, 5);
    QCOMPARE(rows[0].freeStack, -1);
    QCOMPARE(rows[0].origin, 0);
    QCOMPARE(rows[1].device, 1);
    QCOMPARE(rows[1].requestedSize, 1024);
    QVERIFY(!rows[1].blockSize);
    QCOMPARE(rows[1].allocSeq, -1);
    QCOMPARE(rows[1].freeSeq, std::optional<std::int64_t>(9));
    QVERIFY(!rows[1].tAlloc);
    QCOMPARE(rows[1].tFree, std::optional<std::int64_t>(9000));
    QCOMPARE(rows[1].freeStack, 8);
    QCOMPARE(rows[1].origin, 1);
}

void TestSnapshotCodec::damagedChunksAreErrors() {
    std::vector<SnapshotAllocationRow> rows(100);
    for (std::size_t i = 0; i < rows.size(); ++i) rows[i].address = static_cast<std::int64_t>(i) << 20;
    const std::vector<unsigned char> raw = columns::decompress(encodeAllocations(rows), 1u << 28, "allocation chunk");
    const auto recompress = [](std::vector<unsigned char> bytes) {
        columns::Builder b(0, bytes.size());
        b.raw().assign(bytes.begin(), bytes.end());
        return b.compress();
    };
    std::vector<SnapshotAllocationRow> out(1);
    // A column cut short, bytes left over, a width over 8, more rows than a chunk holds.
    QVERIFY_THROWS_EXCEPTION(StoreError, decodeAllocations(recompress({raw.begin(), raw.end() - 1}), 0, out));
    std::vector<unsigned char> longer = raw;
    longer.push_back(0);
    QVERIFY_THROWS_EXCEPTION(StoreError, decodeAllocations(recompress(longer), 0, out));
    std::vector<unsigned char> wide = raw;
    wide[columns::kNarrowHeaderBytes] = 9; // the presence column's width
    QVERIFY_THROWS_EXCEPTION(StoreError, decodeAllocations(recompress(wide), 0, out));
    std::vector<unsigned char> many = raw;
    const std::uint32_t rowsClaimed = kAllocationsPerChunk + 1;
    std::memcpy(many.data() + 4, &rowsClaimed, 4);
    QVERIFY_THROWS_EXCEPTION(StoreError, decodeAllocations(recompress(many), 0, out));
    QCOMPARE(out.size(), std::size_t{1}); // the row read before is all there is
    QVERIFY_THROWS_EXCEPTION(StoreError, decodeAllocations(std::vector<unsigned char>(64, 0xab), 0, out));
}

QTEST_GUILESS_MAIN(TestSnapshotCodec)
#include "tst_snapshot_codec.moc"

// SPDX-License-Identifier: MIT
// The pickle reader's memo (pickle/PickleMemo.h): values in pages as indexes grow, a far-off
// index in the map, Python's count of stored slots; a compacted page gives its dead slots the
// dead value, keeps its live values and its empty slots as they were, holds a bit per slot, and
// takes new values again.
#include <QtTest>

#include "pickle/PickleMemo.h"
#include "pickle/PickleReaderImpl.h"

using namespace memviz::pickle;

namespace {

Value intValue(std::int64_t i) { return Value{Kind::Int, 0, i}; }
Value listValue(std::int64_t slot) { return Value{Kind::List, 0, slot}; }
bool has(const Memo& memo, std::uint64_t index) {
    Value v;
    return memo.find(index, v);
}
Value found(const Memo& memo, std::uint64_t index) {
    Value v;
    if (!memo.find(index, v)) v.kind = kUndefined;
    return v;
}

} // namespace

class TestPickleMemo : public QObject {
    Q_OBJECT
private slots:
    void storesAndFinds();
    void compactsDeadPages();
    void keepsPagesWithManyLiveValues();
    void compactsKnownValues();
};

void TestPickleMemo::storesAndFinds() {
    Memo memo;
    QVERIFY(!has(memo, 0));
    for (std::uint64_t i = 0; i < 10000; ++i) memo.store(i, intValue(static_cast<std::int64_t>(i) * 3));
    QCOMPARE(memo.count(), std::uint64_t{10000});
    QCOMPARE(found(memo, 9999).payload, 29997);
    QCOMPARE(found(memo, 4096).payload, 4096 * 3);
    QVERIFY(!has(memo, 10000));
    memo.store(5, intValue(-1)); // BINPUT again: replaced, not counted twice
    QCOMPARE(memo.count(), std::uint64_t{10000});
    QCOMPARE(found(memo, 5).payload, -1);
    memo.store(12000, intValue(7)); // a gap within reach: dense, the slots between stay empty
    QCOMPARE(memo.count(), std::uint64_t{10001});
    QVERIFY(!has(memo, 11000));
    QCOMPARE(found(memo, 12000).payload, 7);
    memo.store(4000000000ull, intValue(8)); // far off: the map, no 4e9 slots
    QCOMPARE(memo.count(), std::uint64_t{10002});
    QCOMPARE(found(memo, 4000000000ull).payload, 8);
    QVERIFY(memo.bytesHeld() < 1u << 20);
}

// Page 1 (slots 4096-8191): even slots dead lists, odd slots live ints but three, the last ten
// slots empty.
void TestPickleMemo::compactsDeadPages() {
    Memo memo;
    for (std::uint64_t i = 0; i < 3 * Memo::kPageSlots; ++i) {
        const bool page1 = i >= Memo::kPageSlots && i < 2 * Memo::kPageSlots;
        if (page1 && i >= 2 * Memo::kPageSlots - 10) continue;
        const bool live = !page1 || i == 4097 || i == 5001 || i == 8000;
        memo.store(i, live ? intValue(static_cast<std::int64_t>(i)) : listValue(static_cast<std::int64_t>(i)));
    }
    const std::uint64_t stored = memo.count();
    const std::uint64_t before = memo.bytesHeld();
    const Value deadValue{Kind::Dict, 0, 77};
    QVERIFY(memo.compact(1, [](const Value& v) { return v.kind == Kind::List; }, deadValue, 8));
    QVERIFY(!memo.compact(1, [](const Value&) { return true; }, deadValue, 8)); // already compacted
    QCOMPARE(memo.count(), stored);
    QVERIFY(memo.bytesHeld() < before - Memo::kPageSlots * sizeof(Value) + 4096);
    QCOMPARE(found(memo, 4096).kind, Kind::Dict); // dead: the dead value
    QCOMPARE(found(memo, 4096).payload, 77);
    QCOMPARE(found(memo, 4097).payload, 4097); // live: kept
    QCOMPARE(found(memo, 5001).payload, 5001);
    QCOMPARE(found(memo, 8000).payload, 8000);
    QVERIFY(!has(memo, 2 * Memo::kPageSlots - 1)); // empty stays empty
    QCOMPARE(found(memo, 100).payload, 100);        // other pages untouched
    QCOMPARE(found(memo, 9000).payload, 9000);
    // New values in the compacted page: over a dead slot (not counted again), into an empty one.
    memo.store(4096, intValue(-5));
    QCOMPARE(found(memo, 4096).payload, -5);
    QCOMPARE(memo.count(), stored);
    memo.store(2 * Memo::kPageSlots - 1, intValue(-6));
    QCOMPARE(found(memo, 2 * Memo::kPageSlots - 1).payload, -6);
    QCOMPARE(memo.count(), stored + 1);
    QCOMPARE(found(memo, 4098).payload, 77); // its neighbours still dead
}

void TestPickleMemo::keepsPagesWithManyLiveValues() {
    Memo memo;
    for (std::uint64_t i = 0; i < Memo::kPageSlots; ++i) memo.store(i, i % 2 ? intValue(1) : listValue(1));
    const std::uint64_t before = memo.bytesHeld();
    QVERIFY(!memo.compact(0, [](const Value& v) { return v.kind == Kind::List; }, Value{}, 100)); // 2048 live
    QCOMPARE(memo.bytesHeld(), before);
    QCOMPARE(found(memo, 0).kind, Kind::List);
    QVERIFY(!memo.compact(5, [](const Value&) { return true; }, Value{}, 100)); // no such page
}

// A page of released frames lists (Known values, the stack table's ids) between dead dicts, as
// a snapshot with a frames list per entry memoises them: compacted to five bytes per Known
// value, each read back with its id, kind and depth; ids -1 and 2^32 - 3 fit, 2^32 - 2 and
// a depth of 64 do not (they stay live, in the map); a new value over a Known one replaces it.
void TestPickleMemo::compactsKnownValues() {
    Memo memo;
    const auto knownAt = [](std::uint64_t i) {
        const std::int64_t id = i == 1 ? -1 : i == 3 ? 0xfffffffd : i == 5 ? 0xfffffffe : static_cast<std::int64_t>(i) * 7;
        return Value::known(i % 4 == 1 ? Kind::Dict : Kind::List, i == 7 ? 64 : 2, id);
    };
    for (std::uint64_t i = 0; i < Memo::kPageSlots; ++i) memo.store(i, i % 2 ? knownAt(i) : listValue(static_cast<std::int64_t>(i)));
    const std::uint64_t before = memo.bytesHeld();
    QVERIFY(memo.compact(0, [](const Value& v) { return v.kind == Kind::List; }, Value{Kind::Dict, 0, 77}, 8));
    QVERIFY(memo.bytesHeld() < before / 2);
    QCOMPARE(memo.count(), Memo::kPageSlots);
    for (std::uint64_t i = 0; i < Memo::kPageSlots; ++i) {
        const Value v = found(memo, i);
        if (i % 2 == 0) {
            QCOMPARE(v.payload, 77); // dead
            continue;
        }
        const Value want = knownAt(i);
        QCOMPARE(v.kind, Kind::Known);
        QCOMPARE(v.payload, want.payload);
        QCOMPARE(v.knownKind(), want.knownKind());
        QCOMPARE(v.knownDepth(), want.knownDepth());
    }
    QCOMPARE(found(memo, 1).payload, -1);
    QCOMPARE(found(memo, 9).knownKind(), Kind::Dict);
    QCOMPARE(found(memo, 7).knownDepth(), 64u); // in the map
    memo.store(11, intValue(5));
    QCOMPARE(found(memo, 11).kind, Kind::Int);
    QCOMPARE(memo.count(), Memo::kPageSlots);
    // More unpackable Known values than the live limit: the page stays.
    Memo full;
    for (std::uint64_t i = 0; i < Memo::kPageSlots; ++i) full.store(i, Value::known(Kind::List, 80, 1));
    QVERIFY(!full.compact(0, [](const Value&) { return false; }, Value{}, 8));
}

QTEST_GUILESS_MAIN(TestPickleMemo)
#include "tst_pickle_memo.moc"

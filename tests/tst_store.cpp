// SPDX-License-Identifier: MIT
// The store: round trips, several traces per file, atomic imports, schema versions, codecs.
#include <QCryptographicHash>
#include <QtTest>
#include <array>
#include <numeric>
#include <random>
#include <sqlite3.h>

#include "StorePagesHash.h"
#include "TestSupport.h"
#include "core/Errors.h"
#include "core/Progress.h"
#include "formats/FormatRegistry.h"
#include "store/ChunkCodec.h"
#include "store/ColumnChunk.h"
#include "store/Database.h"
#include "store/ImportJournal.h"
#include "store/RecordChunks.h"
#include "store/Schema.h"
#include "store/SeriesQuery.h"
#include "store/StoreFiles.h"
#include "store/TraceQueries.h"
#include "store/TraceWriter.h"

using namespace memviz;
using memviz::test::writeFile;

namespace {

QByteArray sha1(const QString& path) {
    return QCryptographicHash::hash(memviz::test::readFile(path), QCryptographicHash::Sha1).toHex();
}

// A valid CSV log of n alloc/free pairs, optionally followed by one broken line.
QByteArray pairsLog(int n, bool brokenAtEnd) {
    QByteArray s = "time_ns,action,address,size\n";
    for (int i = 0; i < n; ++i) {
        s += QByteArray::number(i * 10) + ",alloc,0x" + QByteArray::number(0x1000 + i * 16, 16) + ",64\n";
        s += QByteArray::number(i * 10 + 5) + ",free,0x" + QByteArray::number(0x1000 + i * 16, 16) + ",\n";
    }
    if (brokenAtEnd) s += "999999999,alloc,0x10,not-a-size\n";
    return s;
}

std::vector<Event> readAllEvents(Database& db, std::int64_t traceId) {
    Statement s(db, "SELECT data FROM event_chunks WHERE trace_id = ? ORDER BY chunk");
    s.bind(1, traceId);
    std::vector<Event> all;
    while (s.step()) {
        auto part = decodeEvents(s.blob(0));
        all.insert(all.end(), part.begin(), part.end());
    }
    return all;
}

} // namespace

class TestStore : public QObject {
    Q_OBJECT
private slots:
    void newStoreHasCurrentSchemaAndWal();
    void writerRoundTrip();
    void recordChunksFromOneArray();
    void severalTracesInOneStore();
    void failedImportLeavesFileUnchanged();
    void cancelledImportLeavesFileUnchanged();
    void reopeningReusesTheImport();
    void migratesAVersion1Store();
    void rejectsNewerSchema();
    void rejectsForeignFiles();
    void eventCodecRoundTrip();
    void damagedChunkIsAnError();
    void narrowEventChunksKeepExtremesAndShrink();
    void fixedWidthEventChunksStillRead();
    void hostileNarrowChunksAreErrors();
    void pageCacheLimitLastsOneImport();
    void firstImportIsWrittenOnceIntoTheFile();
    void failedFirstImportLeavesAnEmptyStore();
    void importJournalKeepsWalForReadersAndTraces();
};

void TestStore::newStoreHasCurrentSchemaAndWal() {
    QTemporaryDir dir;
    Database db(dir.filePath("a.memviz").toStdString());
    QCOMPARE(db.userVersion(), kSchemaVersion);
    Statement s(db, "PRAGMA journal_mode");
    QVERIFY(s.step());
    QCOMPARE(QString::fromStdString(s.text(0)), QStringLiteral("wal"));
    QVERIFY(!latestTraceId(db).has_value());
}

void TestStore::writerRoundTrip() {
    QTemporaryDir dir;
    const std::string path = dir.filePath("rt.memviz").toStdString();
    std::vector<Event> written;
    std::vector<SeriesPoint> points;
    std::int64_t traceId = 0;
    {
        Database db(path);
        TraceInfo info;
        info.sourcePath = "/x/y.log";
        info.format = "test-format";
        TraceWriter w(db, info);
        const auto cpu = w.device("cpu");
        const auto gpu = w.device("cuda:0");
        QCOMPARE(int(cpu), 0);
        QCOMPARE(int(gpu), 1);
        QCOMPARE(w.device("cpu"), cpu);
        const auto op = w.name(NameKind::Op, "aten::mm");
        const auto series = w.createSeries(cpu, "allocated", "bytes", true);
        // 200k events so several chunks are written; live bytes follow a sawtooth.
        std::int64_t live = 0;
        for (int i = 0; i < 200000; ++i) {
            Event e;
            e.timeNs = i * 3;
            e.address = 0x7f0000000000 + (i / 2) * 64;
            e.kind = i % 2 ? EventKind::Free : EventKind::Alloc;
            e.size = 64 + (i / 2) % 7;
            e.op = i % 3 ? op : kNoName;
            e.device = cpu;
            live += e.kind == EventKind::Alloc ? e.size : -e.size;
            w.addEvent(e);
            w.addPoint(series, e.timeNs, live);
            written.push_back(e);
            points.push_back({e.timeNs, live});
        }
        w.setMetadata("note", "hello");
        traceId = w.commit();
    }
    Database db(path, Database::Mode::ReadOnly);
    const auto traces = listTraces(db);
    QCOMPARE(traces.size(), std::size_t{1});
    QCOMPARE(QString::fromStdString(traces[0].format), QStringLiteral("test-format"));
    QCOMPARE(traces[0].eventCount, 200000);
    QCOMPARE(traces[0].durationNs, 199999 * 3);
    QVERIFY(readAllEvents(db, traceId) == written);

    const TraceSummary s = loadSummary(db, traceId);
    QCOMPARE(s.devices.size(), std::size_t{2});
    // Independent expectation: the sawtooth peaks right after an alloc of the largest size.
    std::int64_t peak = 0, peakTime = 0;
    for (const auto& p : points)
        if (p.v > peak) {
            peak = p.v;
            peakTime = p.t;
        }
    QCOMPARE(s.devices[0].peakBytes, peak);
    QCOMPARE(s.devices[0].peakTimeNs, peakTime);
    QCOMPARE(s.devices[0].allocs, 100000);
    QCOMPARE(s.devices[0].frees, 100000);
    QCOMPARE(s.devices[0].finalBytes, 0);
    QCOMPARE(s.devices[1].events, 0);

    const auto series = listSeries(db, traceId);
    QCOMPARE(series.size(), std::size_t{1});
    QCOMPARE(series[0].pointCount, 200000);
    // A narrow window comes back as raw points, exactly.
    const SeriesWindow w = querySeries(db, series[0].id, {3000, 3300}, 1000);
    QCOMPARE(w.level, 0);
    std::vector<SeriesPoint> expected;
    for (const auto& p : points)
        if (p.t >= 2997 && p.t <= 3303) expected.push_back(p); // plus one point either side
    QVERIFY(w.points == expected);
}

// Records in time order, encoded as chunks on this thread and written: they read back as they
// were, in chunks of kRecordsPerChunk whose t_end is the latest reach; rows out of order are
// refused, within a chunk and across chunks.
void TestStore::recordChunksFromOneArray() {
    constexpr std::size_t columns = 3;
    const std::size_t n = 2 * kRecordsPerChunk + 5;
    std::mt19937_64 random(7);
    std::vector<std::array<std::int64_t, columns>> expected(n);
    auto rows = std::make_shared<std::vector<std::int64_t>>();
    for (std::size_t i = 0; i < n; ++i) {
        // Few distinct times, so that stability matters: the third column says the input order.
        expected[i] = {static_cast<std::int64_t>(random() % 1000), static_cast<std::int64_t>(random() % 50),
                       static_cast<std::int64_t>(i)};
        rows->insert(rows->end(), expected[i].begin(), expected[i].end());
    }
    std::stable_sort(expected.begin(), expected.end(), [](const auto& a, const auto& b) { return a[0] < b[0]; });
    // The rows in time order: the expected rows laid out row-major.
    rows->clear();
    for (const auto& r : expected) rows->insert(rows->end(), r.begin(), r.end());

    QTemporaryDir dir;
    const std::string path = dir.filePath("records.memviz").toStdString();
    Database db(path);
    TraceInfo info;
    info.sourcePath = "/x/records";
    info.format = "test-format";
    std::int64_t traceId = 0;
    {
        TraceWriter w(db, info);
        const auto reach = [](std::span<const std::int64_t> r) { return r[0] + r[1]; };
        std::vector<std::int64_t> backwards{5, 0, 0, 4, 0, 0};
        QVERIFY_THROWS_EXCEPTION(StoreError, encodeRecordChunks(columns, backwards, reach));
        QVERIFY_THROWS_EXCEPTION(StoreError, encodeRecordChunks(columns, std::vector<std::int64_t>{1, 2}, reach));
        {
            // Backwards only across the chunks' boundary.
            std::vector<std::int64_t> twoChunks;
            for (std::size_t i = 0; i <= kRecordsPerChunk; ++i)
                twoChunks.insert(twoChunks.end(), {i < kRecordsPerChunk ? std::int64_t{10} : std::int64_t{9}, 0, 0});
            QVERIFY_THROWS_EXCEPTION(StoreError, encodeRecordChunks(columns, twoChunks, reach));
        }
        std::vector<EncodedRecordChunk> encoded = encodeRecordChunks(columns, *rows, reach);
        QCOMPARE(encoded.size(), std::size_t{3});
        rows.reset(); // the encoded chunks need the array no longer
        writeRecordChunks(w, "test", columns, std::move(encoded));
        traceId = w.commit();
    }
    std::vector<std::array<std::int64_t, columns>> read;
    QCOMPARE(readRecordChunks(db, traceId, "test", std::nullopt,
                              [&](std::span<const std::int64_t> r) { read.push_back({r[0], r[1], r[2]}); }),
             columns);
    QVERIFY(read == expected);
    QCOMPARE(countRecords(db, traceId, "test"), static_cast<std::int64_t>(n));
    Statement chunks(db, "SELECT chunk, count, t_first, t_last, t_end FROM record_chunks WHERE trace_id = ? AND kind = 'test' ORDER BY chunk");
    chunks.bind(1, traceId);
    std::size_t at = 0;
    int count = 0;
    while (chunks.step()) {
        const auto rowsIn = static_cast<std::size_t>(chunks.int64(1));
        QCOMPARE(chunks.int64(0), count);
        QCOMPARE(rowsIn, std::min<std::size_t>(kRecordsPerChunk, n - at));
        QCOMPARE(chunks.int64(2), expected[at][0]);
        QCOMPARE(chunks.int64(3), expected[at + rowsIn - 1][0]);
        std::int64_t end = expected[at][0];
        for (std::size_t i = at; i < at + rowsIn; ++i) end = std::max(end, expected[i][0] + expected[i][1]);
        QCOMPARE(chunks.int64(4), end);
        at += rowsIn;
        ++count;
    }
    QCOMPARE(count, 3);
    QCOMPARE(at, n);
}

void TestStore::severalTracesInOneStore() {
    QTemporaryDir dir;
    const QString a = writeFile(dir, "a.csv", "time_ns,action,address,size\n0,alloc,0x1,10\n");
    const QString b = writeFile(dir, "b.csv", "time_ns,action,address,size\n0,alloc,0x1,20\n1,alloc,0x2,30\n");
    Database db(dir.filePath("s.memviz").toStdString());
    const auto ta = importFile(db, a.toStdString(), Progress{});
    const auto tb = importFile(db, b.toStdString(), Progress{});
    QVERIFY(ta != tb);
    QCOMPARE(listTraces(db).size(), std::size_t{2});
    QCOMPARE(loadSummary(db, ta).devices.at(0).peakBytes, 10);
    QCOMPARE(loadSummary(db, tb).devices.at(0).peakBytes, 50);
    QCOMPARE(*latestTraceId(db), tb);
}

void TestStore::failedImportLeavesFileUnchanged() {
    QTemporaryDir dir;
    const QString store = dir.filePath("s.memviz");
    const QString good = writeFile(dir, "good.csv", pairsLog(10, false));
    // Breaks after 140k valid records: several chunks were already written when it fails.
    const QString bad = writeFile(dir, "bad.csv", pairsLog(70000, true));
    {
        Database db(store.toStdString());
        importFile(db, good.toStdString(), Progress{});
    }
    const QByteArray before = sha1(store);
    {
        Database db(store.toStdString());
        try {
            importFile(db, bad.toStdString(), Progress{});
            QFAIL("the broken file was accepted");
        } catch (const ImportError& e) {
            QVERIFY2(QString(e.what()).contains("line 140002"), e.what());
            QVERIFY2(QString(e.what()).contains("not-a-size"), e.what());
        }
        QCOMPARE(listTraces(db).size(), std::size_t{1});
        QCOMPARE(*queryInt(db, "SELECT count(*) FROM event_chunks"), 1);
    }
    QCOMPARE(sha1(store), before);
}

void TestStore::cancelledImportLeavesFileUnchanged() {
    QTemporaryDir dir;
    const QString store = dir.filePath("s.memviz");
    const QString good = writeFile(dir, "good.csv", pairsLog(10, false));
    const QString big = writeFile(dir, "big.csv", pairsLog(100000, false));
    {
        Database db(store.toStdString());
        importFile(db, good.toStdString(), Progress{});
    }
    const QByteArray before = sha1(store);
    {
        Database db(store.toStdString());
        std::atomic<bool> cancel{false};
        int calls = 0;
        Progress progress(
            [&](std::int64_t, std::int64_t) {
                if (++calls == 2) cancel = true;
            },
            &cancel);
        QVERIFY_THROWS_EXCEPTION(Cancelled, importFile(db, big.toStdString(), progress));
        QVERIFY(calls >= 2);
        QCOMPARE(listTraces(db).size(), std::size_t{1});
    }
    QCOMPARE(sha1(store), before);
}

void TestStore::reopeningReusesTheImport() {
    QTemporaryDir dir;
    const QString log = writeFile(dir, "a.csv", pairsLog(5, false));
    const std::string store = dir.filePath("cache.memviz").toStdString();
    const OpenedTrace first = openTrace(log.toStdString(), store, Progress{});
    QVERIFY(first.imported);
    const OpenedTrace second = openTrace(log.toStdString(), store, Progress{});
    QVERIFY(!second.imported);
    QCOMPARE(second.traceId, first.traceId);
    // Opening the store itself reads its latest trace.
    const OpenedTrace direct = openTrace(store, "", Progress{});
    QCOMPARE(direct.traceId, first.traceId);
    QVERIFY(!direct.imported);
}

void TestStore::migratesAVersion1Store() {
    // A store as the first release wrote it: version-1 tables and one trace, made with the
    // SQLite C API and the version-1 SQL only.
    QTemporaryDir dir;
    const std::string path = dir.filePath("v1.memviz").toStdString();
    sqlite3* raw = nullptr;
    QCOMPARE(sqlite3_open(path.c_str(), &raw), SQLITE_OK);
    for (const std::string& sql : schemaStepSql(1))
        QCOMPARE(sqlite3_exec(raw, sql.c_str(), nullptr, nullptr, nullptr), SQLITE_OK);
    const char* rows = "INSERT INTO traces(id, source_path, format, imported_at, duration_ns, event_count) "
                       "VALUES (7, '/old/run.csv', 'memviz-alloc-log', '2026-01-01T00:00:00Z', 1234, 2);"
                       "INSERT INTO devices VALUES (7, 0, 'cpu');"
                       "INSERT INTO device_summary VALUES (7, 0, 2, 1, 1, 0, 4096, 10, 0, 1234);"
                       "INSERT INTO series(id, trace_id, device, name, unit) VALUES (3, 7, 0, 'allocated', 'bytes');"
                       "PRAGMA user_version = 1;";
    QCOMPARE(sqlite3_exec(raw, rows, nullptr, nullptr, nullptr), SQLITE_OK);
    sqlite3_close(raw);

    Database db(path); // migrates step by step to the current version
    QCOMPARE(db.userVersion(), kSchemaVersion);
    const TraceSummary s = loadSummary(db, 7);
    QCOMPARE(QString::fromStdString(s.trace.sourcePath), QStringLiteral("/old/run.csv"));
    QCOMPARE(s.devices.at(0).peakBytes, 4096);
    // Columns and tables of later steps exist with their defaults.
    const auto series = listSeries(db, 7);
    QCOMPARE(series.size(), std::size_t{1});
    QCOMPARE(series[0].style, std::string());
    for (const char* table : {"threads", "record_chunks", "profiler_op_calls", "heaptrack_totals", "frames"})
        QCOMPARE(*queryInt(db, std::string("SELECT count(*) FROM sqlite_schema WHERE name = '") + table + "'"), 1);
    // And new imports go in beside the old trace.
    const QString log = writeFile(dir, "new.csv", "time_ns,action,address,size\n0,alloc,0x1,5\n");
    const auto id = importFile(db, log.toStdString(), Progress{});
    QVERIFY(id > 7);
    QCOMPARE(listTraces(db).size(), std::size_t{2});
}

void TestStore::rejectsNewerSchema() {
    QTemporaryDir dir;
    const std::string path = dir.filePath("future.memviz").toStdString();
    {
        Database db(path);
        db.exec("PRAGMA user_version = " + std::to_string(kSchemaVersion + 1));
    }
    try {
        Database db(path);
        QFAIL("a store from a newer memviz was opened");
    } catch (const StoreError& e) {
        QVERIFY2(QString(e.what()).contains("newer memviz"), e.what());
    }
}

void TestStore::rejectsForeignFiles() {
    QTemporaryDir dir;
    const QString text = writeFile(dir, "notes.memviz", QByteArray("this is not a database, just text ").repeated(200));
    QVERIFY(!isStoreFile(text.toStdString()));
    try {
        Database db(text.toStdString());
        QFAIL("a text file was opened as a store");
    } catch (const StoreError& e) {
        QVERIFY2(QString(e.what()).contains("not a memviz database"), e.what());
    }
    // Another program's SQLite database.
    const std::string other = dir.filePath("other.db").toStdString();
    {
        // A database with a table and no user_version: create it, then strip our schema marker.
        Database db(other);
        db.exec("CREATE TABLE customers(id INTEGER)");
        db.exec("PRAGMA user_version = 0");
        db.exec("DROP TABLE traces");
    }
    try {
        Database db(other);
        QFAIL("a foreign SQLite database was opened as a store");
    } catch (const StoreError& e) {
        QVERIFY2(QString(e.what()).contains("not a memviz store"), e.what());
    }
}

void TestStore::eventCodecRoundTrip() {
    std::mt19937_64 rng(42);
    std::vector<Event> events(5000);
    std::int64_t t = 0;
    for (auto& e : events) {
        t += static_cast<std::int64_t>(rng() % 1000);
        e.timeNs = t;
        e.address = static_cast<std::int64_t>(rng());
        e.size = static_cast<std::int64_t>(rng() % (1u << 30));
        e.op = static_cast<std::int32_t>(rng() % 50) - 1;
        e.category = static_cast<std::int32_t>(rng() % 5) - 1;
        e.stack = static_cast<std::int32_t>(rng() % 500) - 1;
        e.device = static_cast<std::uint16_t>(rng() % 3);
        e.kind = rng() % 2 ? EventKind::Alloc : EventKind::Free;
        e.flags = static_cast<std::uint8_t>(rng() % 3);
    }
    QVERIFY(decodeEvents(encodeEvents(events)) == events);
    std::vector<SeriesPoint> pts(3000);
    for (std::size_t i = 0; i < pts.size(); ++i) pts[i] = {static_cast<std::int64_t>(i * 7), static_cast<std::int64_t>(rng())};
    QVERIFY(decodePoints(encodePoints(pts)) == pts);
}

void TestStore::damagedChunkIsAnError() {
    std::vector<Event> events(100);
    auto blob = encodeEvents(events);
    blob.resize(blob.size() / 2);
    QVERIFY_THROWS_EXCEPTION(StoreError, decodeEvents(blob));
    std::vector<unsigned char> junk(64, 0xab);
    QVERIFY_THROWS_EXCEPTION(StoreError, decodeEvents(junk));
}

// Codec 2: every column at its own width. Values at the int64 extremes, times going backwards,
// constant columns and a single event come back exactly; a chunk of typical events is far
// smaller than the fixed layout's 40 bytes per event before compression.
void TestStore::narrowEventChunksKeepExtremesAndShrink() {
    std::vector<Event> events;
    const std::int64_t lo = std::numeric_limits<std::int64_t>::min(), hi = std::numeric_limits<std::int64_t>::max();
    for (const std::int64_t v : {lo, hi, std::int64_t{0}, std::int64_t{-1}, lo + 1, hi - 1}) {
        Event e;
        e.timeNs = v;
        e.address = v;
        e.size = ~v;
        e.op = static_cast<std::int32_t>(v);
        e.category = v < 0 ? std::numeric_limits<std::int32_t>::min() : std::numeric_limits<std::int32_t>::max();
        e.stack = kNoName;
        e.device = static_cast<std::uint16_t>(v);
        e.kind = v < 0 ? EventKind::Marker : EventKind::Alloc;
        e.flags = 0xff;
        events.push_back(e);
    }
    QVERIFY(decodeEvents(encodeEvents(events)) == events);
    QVERIFY(decodeEvents(encodeEvents(std::span(events).first(1))) == std::vector<Event>(events.begin(), events.begin() + 1));
    QVERIFY(decodeEvents(encodeEvents({})).empty());

    // 60,000 allocations 1-99 ns apart, starting at 1 ms, one device, no flags. Decompressed,
    // the chunk holds its header (marker, count, first time) and 9 column headers, then per
    // event: 1 byte of time step, 3 of address (within 16 MiB), 2 of size (512 B to 50 KiB),
    // 1 of op (0-199), 2 of stack (0-2999); category, device, kind and flags are constant.
    std::mt19937_64 rng(7);
    std::vector<Event> typical(60000);
    std::int64_t t = 1'000'000;
    for (auto& e : typical) {
        t += 1 + static_cast<std::int64_t>(rng() % 99);
        e.timeNs = t;
        e.address = 0x7f0000000000 + static_cast<std::int64_t>(rng() % (1u << 24));
        e.size = 512 * (1 + static_cast<std::int64_t>(rng() % 100));
        e.op = static_cast<std::int32_t>(rng() % 200);
        e.stack = static_cast<std::int32_t>(rng() % 3000);
    }
    const std::vector<unsigned char> blob = encodeEvents(typical);
    QVERIFY(decodeEvents(blob) == typical);
    const std::vector<unsigned char> raw = columns::decompress(blob, 1u << 28, "chunk");
    QCOMPARE(raw.size(), std::size_t{16 + 9 * 9 + 60000 * (1 + 3 + 2 + 1 + 2)});

    // The layout byte by byte (docs/schema.md, codec 2), written here one column at a time: the
    // chunk writer fills all nine columns in one pass and must give the same bytes.
    std::vector<unsigned char> expected(8, 0);
    const std::uint32_t marker = 0xffffffffu, rows = static_cast<std::uint32_t>(typical.size());
    std::memcpy(expected.data(), &marker, 4);
    std::memcpy(expected.data() + 4, &rows, 4);
    const auto put8 = [&](std::uint64_t v, std::size_t bytes) {
        for (std::size_t b = 0; b < bytes; ++b) expected.push_back(static_cast<unsigned char>(v >> (8 * b)));
    };
    put8(static_cast<std::uint64_t>(typical[0].timeNs), 8);
    const auto column = [&](auto value) {
        std::int64_t min = value(0), max = value(0);
        for (std::size_t i = 1; i < typical.size(); ++i) {
            min = std::min(min, value(i));
            max = std::max(max, value(i));
        }
        std::size_t width = 0;
        while (width < 8 && (static_cast<std::uint64_t>(max) - static_cast<std::uint64_t>(min)) >> (8 * width)) ++width;
        expected.push_back(static_cast<unsigned char>(width));
        put8(static_cast<std::uint64_t>(min), 8);
        for (std::size_t i = 0; i < typical.size(); ++i) put8(static_cast<std::uint64_t>(value(i) - min), width);
    };
    column([&](std::size_t i) { return i ? typical[i].timeNs - typical[i - 1].timeNs : std::int64_t{0}; });
    column([&](std::size_t i) { return typical[i].address; });
    column([&](std::size_t i) { return typical[i].size; });
    column([&](std::size_t i) { return std::int64_t{typical[i].op}; });
    column([&](std::size_t i) { return std::int64_t{typical[i].category}; });
    column([&](std::size_t i) { return std::int64_t{typical[i].stack}; });
    column([&](std::size_t i) { return std::int64_t{typical[i].device}; });
    column([&](std::size_t i) { return std::int64_t{static_cast<std::uint8_t>(typical[i].kind)}; });
    column([&](std::size_t i) { return std::int64_t{typical[i].flags}; });
    QVERIFY(raw == expected);
}

// Stores written before schema version 8 hold codec 1 chunks: u32 count, then fixed-width
// columns (docs/schema.md). Built here byte by byte, they still decode.
void TestStore::fixedWidthEventChunksStillRead() {
    std::vector<Event> events(3);
    for (int i = 0; i < 3; ++i) {
        events[i].timeNs = 100 * (i + 1);
        events[i].address = -4096 * (i + 1);
        events[i].size = 1 << (10 + i);
        events[i].op = i;
        events[i].category = kNoName;
        events[i].stack = 7 - i;
        events[i].device = static_cast<std::uint16_t>(i);
        events[i].kind = i == 1 ? EventKind::Free : EventKind::Alloc;
        events[i].flags = static_cast<std::uint8_t>(i == 1 ? kFlagImplicit : kFlagNone);
    }
    columns::Builder chunk(3, 4 + 3 * 40);
    columns::Bytes& raw = chunk.raw();
    columns::put<std::int64_t>(raw, 3, [](std::size_t) { return std::int64_t{100}; }); // time deltas
    columns::put<std::int64_t>(raw, 3, [](std::size_t i) { return -4096 * static_cast<std::int64_t>(i + 1); });
    columns::put<std::int64_t>(raw, 3, [](std::size_t i) { return std::int64_t{1} << (10 + i); });
    columns::put<std::int32_t>(raw, 3, [](std::size_t i) { return static_cast<std::int32_t>(i); });
    columns::put<std::int32_t>(raw, 3, [](std::size_t) { return kNoName; });
    columns::put<std::int32_t>(raw, 3, [](std::size_t i) { return static_cast<std::int32_t>(7 - i); });
    columns::put<std::uint16_t>(raw, 3, [](std::size_t i) { return static_cast<std::uint16_t>(i); });
    columns::put<std::uint8_t>(raw, 3, [](std::size_t i) { return static_cast<std::uint8_t>(i == 1 ? 2 : 1); });
    columns::put<std::uint8_t>(raw, 3, [](std::size_t i) { return static_cast<std::uint8_t>(i == 1 ? 2 : 0); });
    QVERIFY(decodeEvents(chunk.compress()) == events);
}

// A narrow chunk whose header or columns lie is a StoreError, never a read past its end or a
// huge allocation.
void TestStore::hostileNarrowChunksAreErrors() {
    const auto narrow = [](std::uint32_t rows, const std::vector<unsigned char>& body) {
        columns::Builder chunk(rows, 64, true);
        chunk.raw().insert(chunk.raw().end(), body.begin(), body.end());
        return chunk.compress();
    };
    const auto column = [](unsigned width, std::int64_t base, std::size_t valueBytes) {
        std::vector<unsigned char> c(9 + valueBytes, 0);
        c[0] = static_cast<unsigned char>(width);
        std::memcpy(c.data() + 1, &base, 8);
        return c;
    };
    std::vector<unsigned char> ok(8, 0); // 2 events: first time 0, 9 columns of width 1, kind 1
    for (int i = 0; i < 9; ++i) {
        auto c = column(1, i == 7 ? 1 : 0, 2);
        ok.insert(ok.end(), c.begin(), c.end());
    }
    QCOMPARE(decodeEvents(narrow(2, ok)).size(), std::size_t{2});
    auto wide = ok;
    wide[8] = 9; // a width over 8 bytes
    QVERIFY_THROWS_EXCEPTION(StoreError, decodeEvents(narrow(2, wide)));
    QVERIFY_THROWS_EXCEPTION(StoreError, decodeEvents(narrow(3, ok)));                  // columns too short
    QVERIFY_THROWS_EXCEPTION(StoreError, decodeEvents(narrow(1, ok)));                  // bytes left over
    QVERIFY_THROWS_EXCEPTION(StoreError, decodeEvents(narrow(2, std::vector<unsigned char>(ok.begin(), ok.end() - 1))));
    QVERIFY_THROWS_EXCEPTION(StoreError, decodeEvents(narrow(0xfffffffe, {})));       // rows beyond any chunk
    std::vector<unsigned char> zeroWidth(8, 0); // 4 billion events in 81 bytes: refused, not allocated
    for (int i = 0; i < 9; ++i) {
        auto c = column(0, i == 7 ? 1 : 0, 0);
        zeroWidth.insert(zeroWidth.end(), c.begin(), c.end());
    }
    QVERIFY_THROWS_EXCEPTION(StoreError, decodeEvents(narrow(0xfffffffe, zeroWidth)));
    auto badKind = ok;
    badKind[8 + 7 * 11 + 1] = 0; // kind base 0: kind 0 is no event kind
    QVERIFY_THROWS_EXCEPTION(StoreError, decodeEvents(narrow(2, badKind)));
    QVERIFY_THROWS_EXCEPTION(StoreError, decodeEvents(narrow(0, {})));                // no first time
    QVERIFY_THROWS_EXCEPTION(StoreError, decodeEvents(narrow(0, std::vector<unsigned char>(8, 0)))); // no columns
}

// limitPageCache(): the transaction's pages spill to the WAL (16 pages here, far fewer than
// the trace needs) and the rows still read back; the connection's 64 MiB cache (Database.cpp:
// cache_size = -65536) comes back after a commit and after a writer that never committed.
void TestStore::pageCacheLimitLastsOneImport() {
    QTemporaryDir dir;
    const std::string path = dir.filePath("cache.memviz").toStdString();
    Database db(path);
    QCOMPARE(queryInt(db, "PRAGMA cache_size"), std::optional<std::int64_t>(-65536));
    std::vector<Event> written;
    std::int64_t traceId = 0;
    {
        TraceInfo info;
        info.format = "test-format";
        TraceWriter w(db, info);
        w.limitPageCache(64);
        QCOMPARE(queryInt(db, "PRAGMA cache_size"), std::optional<std::int64_t>(-64));
        const auto cpu = w.device("cpu");
        for (int i = 0; i < 300000; ++i) {
            Event e;
            e.timeNs = i;
            e.address = 0x7f0000000000 + static_cast<std::int64_t>(i) * 4096 * 7919 % (1ll << 40);
            e.size = 1 + (i * 2654435761ll) % 100000; // poorly compressible
            e.device = cpu;
            w.addEvent(e);
            written.push_back(e);
        }
        traceId = w.commit();
    }
    QCOMPARE(queryInt(db, "PRAGMA cache_size"), std::optional<std::int64_t>(-65536));
    QVERIFY(readAllEvents(db, traceId) == written);
    {
        TraceInfo info;
        info.format = "test-format";
        TraceWriter w(db, info);
        w.limitPageCache(64);
        w.addEvent(written[0]);
    } // rolled back
    QCOMPARE(queryInt(db, "PRAGMA cache_size"), std::optional<std::int64_t>(-65536));
    QCOMPARE(listTraces(db).size(), std::size_t{1});
}

QTEST_GUILESS_MAIN(TestStore)

namespace {

QString journalModeOf(Database& db) {
    Statement s(db, "PRAGMA journal_mode");
    return s.step() ? QString::fromStdString(s.text(0)) : QString();
}

qint64 sizeOf(const QString& path) { return QFileInfo(path).exists() ? QFileInfo(path).size() : 0; }

} // namespace

// ImportJournal: the first trace goes straight into the file (rollback journal), later ones
// through the write-ahead log. Observed from the files SQLite leaves while the connection is open.
void TestStore::firstImportIsWrittenOnceIntoTheFile() {
    QTemporaryDir dir;
    const QString store = dir.filePath("s.memviz");
    const QString log = writeFile(dir, "log.csv", pairsLog(70000, false));
    Database db(store.toStdString());
    importFile(db, log.toStdString(), Progress{});
    QCOMPARE(journalModeOf(db), QStringLiteral("wal"));
    QVERIFY(!QFileInfo::exists(store + "-journal"));
    // The trace's pages are in the file, the log holds (almost) nothing.
    const qint64 afterFirst = sizeOf(store);
    QVERIFY2(afterFirst > 100 * 1024, qPrintable(QString::number(afterFirst)));
    QVERIFY2(sizeOf(store + "-wal") < afterFirst / 10, qPrintable(QString::number(sizeOf(store + "-wal"))));
    // A second trace goes through the log: its pages are there until a checkpoint. (Compared
    // with the first trace's own pages: the file also holds the empty store's schema.)
    const QString empty = dir.filePath("empty.memviz");
    { Database schemaOnly(empty.toStdString()); }
    const qint64 firstTrace = afterFirst - sizeOf(empty);
    db.exec("PRAGMA wal_autocheckpoint = 0");
    importFile(db, log.toStdString(), Progress{});
    QVERIFY2(sizeOf(store + "-wal") > (firstTrace * 3) / 4,
             qPrintable(QString("%1 / %2").arg(sizeOf(store + "-wal")).arg(firstTrace)));
    QCOMPARE(listTraces(db).size(), std::size_t{2});
    QCOMPARE(readAllEvents(db, 1).size(), std::size_t{140000});
    QCOMPARE(readAllEvents(db, 2).size(), std::size_t{140000});
}

void TestStore::failedFirstImportLeavesAnEmptyStore() {
    QTemporaryDir dir;
    const QString store = dir.filePath("s.memviz");
    const QString bad = writeFile(dir, "bad.csv", pairsLog(70000, true)); // fails after chunks were written
    { Database created(store.toStdString()); }
    const QByteArray before = memviz::test::storePagesHash(store);
    {
        Database db(store.toStdString());
        QVERIFY_THROWS_EXCEPTION(ImportError, importFile(db, bad.toStdString(), Progress{}));
        QCOMPARE(journalModeOf(db), QStringLiteral("wal"));
    }
    QVERIFY(!QFileInfo::exists(store + "-journal"));
    Database db(store.toStdString());
    QVERIFY(listTraces(db).empty());
    QCOMPARE(*queryInt(db, "SELECT count(*) FROM event_chunks"), 0);
    Statement check(db, "PRAGMA integrity_check");
    QVERIFY(check.step());
    QCOMPARE(QString::fromStdString(check.text(0)), QStringLiteral("ok"));
    // What the failed import wrote was rolled back: every page is as it was.
    QCOMPARE(memviz::test::storePagesHash(store), before);
}

void TestStore::importJournalKeepsWalForReadersAndTraces() {
    QTemporaryDir dir;
    const QString store = dir.filePath("s.memviz");
    {
        Database db(store.toStdString());
        Database reader(store.toStdString(), Database::Mode::ReadOnly);
        QVERIFY(listTraces(reader).empty());
        const ImportJournal journal(db); // another connection has the store open
        QVERIFY(!journal.rollbackJournal());
        QCOMPARE(journalModeOf(db), QStringLiteral("wal"));
    }
    Database db(store.toStdString());
    {
        const ImportJournal journal(db);
        QVERIFY(journal.rollbackJournal());
        QCOMPARE(journalModeOf(db), QStringLiteral("delete"));
    }
    QCOMPARE(journalModeOf(db), QStringLiteral("wal"));
    importFile(db, writeFile(dir, "log.csv", pairsLog(10, false)).toStdString(), Progress{});
    const ImportJournal journal(db); // the store holds a trace now
    QVERIFY(!journal.rollbackJournal());
    QCOMPARE(journalModeOf(db), QStringLiteral("wal"));
}

#include "tst_store.moc"

// SPDX-License-Identifier: MIT
// The store: round trips, several traces per file, atomic imports, schema versions, codecs.
#include <QCryptographicHash>
#include <QtTest>
#include <random>
#include <sqlite3.h>

#include "StorePagesHash.h"
#include "TestSupport.h"
#include "core/Errors.h"
#include "core/Progress.h"
#include "formats/FormatRegistry.h"
#include "store/ChunkCodec.h"
#include "store/Database.h"
#include "store/ImportJournal.h"
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
    void severalTracesInOneStore();
    void failedImportLeavesFileUnchanged();
    void cancelledImportLeavesFileUnchanged();
    void reopeningReusesTheImport();
    void migratesAVersion1Store();
    void rejectsNewerSchema();
    void rejectsForeignFiles();
    void eventCodecRoundTrip();
    void damagedChunkIsAnError();
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
    // A second trace goes through the log: its pages are there until a checkpoint.
    db.exec("PRAGMA wal_autocheckpoint = 0");
    importFile(db, log.toStdString(), Progress{});
    QVERIFY2(sizeOf(store + "-wal") > (afterFirst * 3) / 4,
             qPrintable(QString("%1 / %2").arg(sizeOf(store + "-wal")).arg(afterFirst)));
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

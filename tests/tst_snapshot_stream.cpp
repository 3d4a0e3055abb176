// SPDX-License-Identifier: MIT
// The streaming snapshot import (issue 12) against the whole-tree import it replaces: every
// generated layout, the real files and bigger synthetic files (shared and per-entry frame
// lists, protocols 2 and 4, gzip) give stores with identical contents either way (the
// whole-tree path is the one tst_snapshot checks against the Python oracle); pickles the
// stream cannot honour (a released entry met again) fall back and still give the whole tree's
// numbers; errors still name the entry.
#include <QtTest>
#include <sqlite3.h>

#include "TestSupport.h"
#include "core/Errors.h"
#include "core/Progress.h"
#include "formats/FormatRegistry.h"
#include "formats/snapshot/SnapshotImporter.h"
#include "formats/snapshot/SnapshotQueries.h"
#include "store/ChunkCodec.h"
#include "store/Database.h"
#include "store/TraceQueries.h"

using namespace memviz;

namespace {

// Every row of every table, as text, tables and rows in a fixed order; the columns that
// name the import itself (when, from which path) are left out.
QStringList dump(Database& db) {
    QStringList out;
    std::vector<std::string> tables;
    {
        sqlite3_stmt* st = nullptr;
        sqlite3_prepare_v2(db.handle(), "SELECT name FROM sqlite_master WHERE type='table' ORDER BY name", -1, &st, nullptr);
        while (sqlite3_step(st) == SQLITE_ROW) tables.emplace_back(reinterpret_cast<const char*>(sqlite3_column_text(st, 0)));
        sqlite3_finalize(st);
    }
    for (const std::string& t : tables) {
        sqlite3_stmt* st = nullptr;
        const std::string sql = "SELECT * FROM \"" + t + "\" ORDER BY rowid";
        if (sqlite3_prepare_v2(db.handle(), sql.c_str(), -1, &st, nullptr) != SQLITE_OK) {
            sqlite3_finalize(st);
            continue; // WITHOUT ROWID tables: none hold import figures
        }
        const int n = sqlite3_column_count(st);
        while (sqlite3_step(st) == SQLITE_ROW) {
            QString row = QString::fromStdString(t) + ":";
            for (int c = 0; c < n; ++c) {
                const QString col = QString::fromUtf8(sqlite3_column_name(st, c));
                if (col == "imported_at" || col == "source_path" || col == "import_time" || col == "path") continue;
                const auto* text = reinterpret_cast<const char*>(sqlite3_column_blob(st, c));
                row += " " + col + "=" + QByteArray(text ? text : "", sqlite3_column_bytes(st, c)).toHex();
            }
            out << row;
        }
        sqlite3_finalize(st);
    }
    return out;
}

QStringList importDump(const QTemporaryDir& dir, const QString& path, bool stream) {
    if (stream) qunsetenv("MEMVIZ_SNAPSHOT_STREAM");
    else qputenv("MEMVIZ_SNAPSHOT_STREAM", "0");
    const QString store = dir.filePath(stream ? "stream.memviz" : "whole.memviz");
    QFile::remove(store);
    Database db(store.toStdString());
    importFile(db, path.toStdString(), Progress{}, kSnapshotFormatId);
    qunsetenv("MEMVIZ_SNAPSHOT_STREAM");
    return dump(db);
}

// Imports both ways; the number of fallbacks the streamed import took (-1: the stores differ),
// how many entries it streamed and how many of them it replayed beside the parse.
int compareBothWays(const QTemporaryDir& dir, const QString& path, std::uint64_t* entriesStreamed = nullptr,
                    std::uint64_t* entriesReplayedEarly = nullptr) {
    const QStringList whole = importDump(dir, path, false);
    const int before = SnapshotImporter::streamFallbacks();
    const std::uint64_t entriesBefore = SnapshotImporter::streamedEntries();
    const std::uint64_t replayedBefore = SnapshotImporter::entriesReplayedWhileReading();
    const QStringList streamed = importDump(dir, path, true);
    const int fellBack = SnapshotImporter::streamFallbacks() - before;
    if (entriesStreamed) *entriesStreamed = SnapshotImporter::streamedEntries() - entriesBefore;
    if (entriesReplayedEarly) *entriesReplayedEarly = SnapshotImporter::entriesReplayedWhileReading() - replayedBefore;
    if (whole.size() != streamed.size()) qWarning("rows: whole %lld, streamed %lld", qlonglong(whole.size()), qlonglong(streamed.size()));
    for (qsizetype i = 0; i < std::min(whole.size(), streamed.size()); ++i)
        if (whole[i] != streamed[i]) {
            qsizetype at = 0;
            while (at < whole[i].size() && at < streamed[i].size() && whole[i][at] == streamed[i][at]) ++at;
            qWarning("first difference, row %lld at character %lld:\n whole:    %s\n streamed: %s", qlonglong(i), qlonglong(at),
                     qPrintable(whole[i].left(120) + " ... " + whole[i].mid(std::max<qsizetype>(0, at - 40), 200)),
                     qPrintable(streamed[i].left(120) + " ... " + streamed[i].mid(std::max<qsizetype>(0, at - 40), 200)));
            break;
        }
    return whole == streamed ? fellBack : -1;
}

} // namespace

class TestSnapshotStream : public QObject {
    Q_OBJECT
private slots:
    void initTestCase();
    void sameStoreBothWays_data();
    void sameStoreBothWays();
    void realSnapshotsSameBothWays_data();
    void realSnapshotsSameBothWays();
    void releasedEntryMetAgainFallsBack();
    void errorsStillNameTheEntry();
    void framesListMetAgainAfterRelease();
    void entryChunksNameTheirEventChunks();

private:
    QString make(const QString& name, const QString& python);
    QTemporaryDir dir_;
};

void TestSnapshotStream::initTestCase() {
    QVERIFY(dir_.isValid());
    if (memviz::test::python().isEmpty()) MEMVIZ_SKIP_OR_FAIL("no Python interpreter for the generator scripts");
    auto r = memviz::test::runProcess(memviz::test::python(), {memviz::test::oracle("make_snapshots.py"), dir_.path()});
    QVERIFY2(r.exitCode == 0, r.err.constData());
    const QString big = QStringLiteral(MEMVIZ_SOURCE_DIR) + "/tools/bench-snapshot/make_big_snapshot.py";
    for (const auto& [name, args] : std::vector<std::pair<QString, QStringList>>{
             {"big_shared.pickle", {"--entries", "30000"}},
             {"big_own.pickle", {"--entries", "20000", "--own-frame-lists"}},
             {"big_own_p2.pickle", {"--entries", "5000", "--own-frame-lists", "--protocol", "2"}},
             {"big_own_many.pickle", {"--entries", "80000", "--own-frame-lists"}},
             {"big_chunks.pickle", {"--entries", "140000"}}}) {
        r = memviz::test::runProcess(memviz::test::python(), QStringList{big, dir_.filePath(name)} + args);
        QVERIFY2(r.exitCode == 0, r.err.constData());
    }
    r = memviz::test::runProcess(memviz::test::python(),
                                 {"-c", "import gzip,shutil,sys; shutil.copyfileobj(open(sys.argv[1],'rb'), gzip.open(sys.argv[2],'wb'))",
                                  dir_.filePath("big_own.pickle"), dir_.filePath("big_own.pickle.gz")});
    QVERIFY2(r.exitCode == 0, r.err.constData());
}

QString TestSnapshotStream::make(const QString& name, const QString& python) {
    const QString script =
        memviz::test::writeFile(dir_, name + ".py", ("import pickle, sys\n" + python + "\npickle.dump(snap, open(sys.argv[1], 'wb'), protocol=4)\n").toUtf8());
    const QString path = dir_.filePath(name + ".pickle");
    const auto made = memviz::test::runProcess(memviz::test::python(), {script, path});
    if (made.exitCode != 0) qWarning("%s", made.err.constData());
    return path;
}

void TestSnapshotStream::sameStoreBothWays_data() {
    QTest::addColumn<QString>("name");
    for (const char* n : {"dict_protocol2.pickle", "dict_protocol4.pickle", "dict_protocol5.pickle", "ring_truncated.pickle",
                          "no_time_expandable.pickle", "history_legacy_free.pickle", "legacy_segment_list.pickle",
                          "host_and_unknown.pickle", "big_shared.pickle", "big_own.pickle", "big_own_p2.pickle",
                          "big_own.pickle.gz", "big_own_many.pickle"})
        QTest::newRow(n) << QString(n);
}

void TestSnapshotStream::sameStoreBothWays() {
    QFETCH(QString, name);
    // These are the layouts PyTorch writes: the stream must honour them without falling back,
    // the entries of device_traces must really have been streamed, and replayed as they came
    // (the gzip file's records grow, and move, while the follower reads them). Past 65,536
    // frames lists of their own, the document keeps more than a container per four entries and
    // the replay waits for the parse's end (formats/snapshot/SnapshotReader.cpp, publish).
    std::uint64_t streamed = 0, replayedEarly = 0;
    QCOMPARE(compareBothWays(dir_, dir_.filePath(name), &streamed, &replayedEarly), 0);
    if (name != "legacy_segment_list.pickle") QVERIFY2(streamed > 0, "no entry was streamed");
    QCOMPARE(replayedEarly, name == "big_own_many.pickle" ? 0 : streamed);
}

void TestSnapshotStream::realSnapshotsSameBothWays_data() {
    QTest::addColumn<QString>("fixture");
    QTest::newRow("magma27_2026") << "pytorch-snapshot/magma27_2026.pickle";
    QTest::newRow("bcrafton_2025") << "pytorch-snapshot/bcrafton_2025.pickle";
}

void TestSnapshotStream::realSnapshotsSameBothWays() {
    QFETCH(QString, fixture);
    MEMVIZ_REQUIRE_FIXTURE(path, fixture);
    std::uint64_t streamed = 0;
    QCOMPARE(compareBothWays(dir_, path, &streamed), 0);
    QVERIFY2(streamed > 0, "no entry was streamed");
}

// The same entry dict in two device lists: Python's pickler writes it once and refers to it
// from the second list through the memo (BINGET), after the stream released it. The import
// falls back to the whole tree, and each device has the one 512-byte allocation.
void TestSnapshotStream::releasedEntryMetAgainFallsBack() {
    const QString path = make("shared_entry",
                              "e={'action':'alloc','addr':4096,'size':512,'stream':0,'time_us':5,'frames':[]}\n"
                              "f={'action':'alloc','addr':8192,'size':1024,'stream':0,'time_us':6,'frames':[]}\n"
                              "seg={'device':0,'address':4096,'total_size':2097152,'allocated_size':0,'active_size':0,"
                              "'requested_size':0,'stream':0,'segment_type':'large','segment_pool_id':(0,0),"
                              "'is_expandable':False,'frames':[],'blocks':[]}\n"
                              "snap={'segments':[seg],'device_traces':[[e,f],[e]]}");
    QCOMPARE(compareBothWays(dir_, path), 1);
    Database db(dir_.filePath("stream.memviz").toStdString(), Database::Mode::ReadOnly);
    const auto traces = listTraces(db);
    QCOMPARE(traces.size(), std::size_t{1});
    const SnapshotOverview o = loadSnapshotOverview(db, traces[0].id);
    QCOMPARE(o.devices.size(), std::size_t{2});
    QCOMPARE(o.devices[0].entries, 2);
    QCOMPARE(o.devices[1].entries, 1);
}

void TestSnapshotStream::errorsStillNameTheEntry() {
    const QString path = make("bad_second_device",
                              "e={'action':'alloc','addr':4096,'size':512,'stream':0,'time_us':5,'frames':[]}\n"
                              "snap={'segments':[],'device_traces':[[e],[dict(e, size='12')]]}");
    Database db(dir_.filePath("bad.memviz").toStdString());
    try {
        importFile(db, path.toStdString(), Progress{}, kSnapshotFormatId);
        QFAIL("a str size was imported");
    } catch (const ImportError& e) {
        QVERIFY2(QString(e.what()).contains("device_traces[1][0]: 'size' is a str, not an int"), e.what());
    }
    QVERIFY(listTraces(db).empty());
}

// Frames lists (and frame dicts) of their own per entry are released once read, and the memo
// gives them as the stack table's ids from then on (pickle Kind::Known): one fetched again by a
// later entry gets the same stack as in the whole tree, without falling back; one appended as an
// entry still gets the whole tree's message.
void TestSnapshotStream::framesListMetAgainAfterRelease() {
    const QString common = "fr=lambda i: [{'filename':'m%d.py' % (i % 7),'line':i,'name':'f%d' % i}]\n"
                           "es=[{'action':'alloc','addr':4096*(i+1),'size':512,'stream':0,'time_us':i,'frames':fr(i)} "
                           "for i in range(3000)]\n"
                           "seg={'device':0,'address':4096,'total_size':2097152,'allocated_size':0,'active_size':0,"
                           "'requested_size':0,'stream':0,'segment_type':'large','segment_pool_id':(0,0),"
                           "'is_expandable':False,'frames':[],'blocks':[]}\n";
    const QString again = make("own_met_again", common +
                                                    "es.append(dict(es[0], addr=4096*9999, time_us=5000, frames=es[5]['frames']))\n"
                                                    "snap={'segments':[seg],'device_traces':[es]}");
    std::uint64_t streamed = 0;
    QCOMPARE(compareBothWays(dir_, again, &streamed), 0);
    QCOMPARE(streamed, std::uint64_t{3001});
    Database db(dir_.filePath("stream.memviz").toStdString(), Database::Mode::ReadOnly);
    const std::int64_t trace = listTraces(db).at(0).id;
    const std::vector<Event> entries = loadEntries(db, trace, 0, 0);
    QCOMPARE(entries.size(), std::size_t{3001});
    QCOMPARE(entries[3000].stack, entries[5].stack);
    QVERIFY(entries[5].stack != entries[6].stack);

    const QString asEntry = make("own_as_entry", common + "snap={'segments':[seg],'device_traces':[es + [es[5]['frames']]]}");
    Database bad(dir_.filePath("own_as_entry.memviz").toStdString());
    const int before = SnapshotImporter::streamFallbacks();
    try {
        importFile(bad, asEntry.toStdString(), Progress{}, kSnapshotFormatId);
        QFAIL("a list was imported as an entry");
    } catch (const ImportError& e) {
        QVERIFY2(QString(e.what()).contains("device_traces[0][3000]: an entry that is a list, not a dict"), e.what());
    }
    QCOMPARE(SnapshotImporter::streamFallbacks(), before + 1);
}

// One device, no inferred frees: the device's entries are the trace's events, and a full chunk
// of them is written once. Its snapshot_entry_chunks row names the event chunk (codec 3); the
// entry queries read through it the events the event chunks hold, read here directly. A row
// whose reference is damaged or names no chunk is a StoreError.
void TestSnapshotStream::entryChunksNameTheirEventChunks() {
    const QString store = dir_.filePath("chunks.memviz");
    Database db(store.toStdString());
    importFile(db, dir_.filePath("big_chunks.pickle").toStdString(), Progress{});
    const std::int64_t trace = listTraces(db).at(0).id;
    QCOMPARE(queryInt(db, "SELECT count(*) FROM snapshot_entry_chunks WHERE codec = 3").value(), 2); // 140,000 = 2 x 65,536 + rest
    QCOMPARE(queryInt(db, "SELECT count(*) FROM snapshot_entry_chunks WHERE codec = 3 AND length(data) = 8").value(), 2);
    std::vector<Event> events;
    Statement s(db, "SELECT data FROM event_chunks WHERE trace_id = ? ORDER BY chunk");
    s.bind(1, trace);
    while (s.step())
        for (const Event& e : decodeEvents(s.blob(0))) events.push_back(e);
    QCOMPARE(static_cast<std::int64_t>(events.size()), loadSnapshotOverview(db, trace).devices.at(0).entries); // 140,000 or one more
    QVERIFY(loadEntries(db, trace, 0, 0) == events);
    const std::vector<Event> tail = loadEntries(db, trace, 0, 100000);
    QVERIFY(tail == std::vector<Event>(events.begin() + 100000, events.end()));
    for (const std::size_t k : {std::size_t{0}, std::size_t{65535}, std::size_t{65536}, std::size_t{70000}, events.size() - 1})
        QCOMPARE(entryTime(db, trace, 0, static_cast<std::int64_t>(k)).value(), events[k].timeNs);
    const std::int64_t t = events[100000].timeNs;
    const auto last = std::upper_bound(events.begin(), events.end(), t, [](std::int64_t v, const Event& e) { return v < e.timeNs; });
    QCOMPARE(entryAtTime(db, trace, 0, t), static_cast<std::int64_t>(last - events.begin()) - 1);

    db.exec("UPDATE snapshot_entry_chunks SET data = zeroblob(3) WHERE codec = 3 AND chunk = 0");
    QVERIFY_THROWS_EXCEPTION(StoreError, loadEntries(db, trace, 0, 0));
    db.exec("UPDATE snapshot_entry_chunks SET data = x'e703000000000000' WHERE codec = 3 AND chunk = 0"); // chunk 999
    QVERIFY_THROWS_EXCEPTION(StoreError, entryTime(db, trace, 0, 5));
}

QTEST_GUILESS_MAIN(TestSnapshotStream)
#include "tst_snapshot_stream.moc"

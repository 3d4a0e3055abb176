// SPDX-License-Identifier: MIT
// The heaptrack importer on handwritten files: format versions 2 and 3, plain, gzip and
// zstd, every record type, with figures worked out by hand below; bad input of every kind.
#include <QtTest>

#include "NativeToolOutput.h"
#include "TestSupport.h"
#include "core/Errors.h"
#include "core/Progress.h"
#include "formats/FormatRegistry.h"
#include "formats/heaptrack/HeaptrackImporter.h"
#include "formats/heaptrack/HeaptrackQueries.h"
#include "formats/heaptrack/HeaptrackSuppressions.h"
#include "store/Database.h"
#include "store/SeriesQuery.h"
#include "store/TraceQueries.h"

using namespace memviz;
using namespace memviz::test;

namespace {

QString fixture(const QString& name) { return QStringLiteral(MEMVIZ_TEST_DATA) + "/native/heaptrack/" + name; }

// "line N " for the first line after the v3 fixture's last line.
QString lineAfterFixture(int extra = 1) {
    const int lines = static_cast<int>(readFile(fixture("v3_all_records.txt")).count('\n'));
    return QStringLiteral("line %1 ").arg(lines + extra);
}

std::int64_t importPath(Database& db, const QString& path) { return importFile(db, path.toStdString(), Progress{}); }

const SeriesInfo* seriesNamed(const std::vector<SeriesInfo>& all, const std::string& name) {
    for (const SeriesInfo& s : all)
        if (s.name == name) return &s;
    return nullptr;
}

std::vector<SeriesPoint> allPoints(Database& db, const SeriesInfo& s) {
    return querySeries(db, s.id, TimeRange{0, s.tLast}, 100000).points;
}

} // namespace

class TestHeaptrack : public QObject {
    Q_OBJECT
private slots:
    void everyRecordType_data();
    void everyRecordType();
    void agreesWithHeaptrackPrint_data();
    void agreesWithHeaptrackPrint();
    void siteBacktraces();
    void cutOffLastLineIsAWarning();
    void countedWarnings();
    void badInput_data();
    void badInput();
    void truncatedCompressedStream_data();
    void truncatedCompressedStream();
    void sniffing();
    void suppressionPatterns_data();
    void suppressionPatterns();
};

void TestHeaptrack::everyRecordType_data() {
    QTest::addColumn<QString>("file");
    QTest::newRow("version 3, plain") << fixture("v3_all_records.txt");
    QTest::newRow("version 2, plain") << fixture("v2_all_records.txt");
    QTest::newRow("version 3, gzip") << fixture("v3_all_records.gz");
    QTest::newRow("version 3, zstd") << fixture("v3_all_records.zst");
}

// The file, by hand (sizes and times are hex):
//   + 0 (100 B, make_obj via operator new)  live 100   peak 100
//   - 0  temporary (right after its +)       live 0
//   + 1 (1000 B, leaky_init)                live 1000  peak 1000
//   c 5
//   + 3 (200 B, make_obj)                   live 1200  peak 1200
//   + 0                                     live 1300  peak 1300
//   R 100 (256 pages of 4096 B)
//   c a
//   + 2 (16 B, unresolved 0x5000)           live 1316  peak 1316 at 10 ms
//   - 3                                     live 1116
//   + 3, - 3  temporary                     live 1116
//   - 0  temporary too: heaptrack forgets the last + at every -, so 0 matches
//   R 180 (384 pages)                       live 1016
//   c f  -> runtime 16 ms
// 6 calls, 3 temporary, peak 1316 B; 1016 B still live, of which leaky_init's 1000 B match
// the embedded suppression "leaky_*": leaked 16 B, suppressed 1000 B.
void TestHeaptrack::everyRecordType() {
    QFETCH(QString, file);
    QTemporaryDir dir;
    Database db(dir.filePath("h.memviz").toStdString());
    const std::int64_t id = importPath(db, file);

    const auto h = loadHeaptrackSummary(db, id);
    QVERIFY(h);
    QCOMPARE(h->calls, 6);
    QCOMPARE(h->temporary, 3);
    QCOMPARE(h->peakBytes, 1316);
    QCOMPARE(h->peakTimeMs, 10);
    QCOMPARE(h->leakedBytes, 16);
    QCOMPARE(h->suppressedBytes, 1000);
    QCOMPARE(h->peakRssBytes, 384 * 4096);
    QCOMPARE(h->totalTimeMs, 16);
    QCOMPARE(h->command, std::string("./prog --flag"));

    const TraceSummary s = loadSummary(db, id);
    QCOMPARE(s.trace.format, std::string("heaptrack"));
    QCOMPARE(s.devices.size(), std::size_t(1));
    const DeviceSummary& d = s.devices[0];
    QCOMPARE(d.name, std::string("heap"));
    QCOMPARE(d.events, 10);
    QCOMPARE(d.allocs, 6);
    QCOMPARE(d.frees, 4);
    QCOMPARE(d.peakBytes, 1316);
    QCOMPARE(d.peakTimeNs, 10'000'000);
    QCOMPARE(d.finalBytes, 1016); // live bytes; suppression only hides leaks from the leak figure
    QCOMPARE(s.trace.durationNs, 16'000'000);
    QVERIFY(s.warnings.empty());

    const std::vector<AllocationSite> sites = queryAllocationSites(db, id);
    QCOMPARE(sites.size(), std::size_t(3));
    // leaky_init: 1000 B at the peak, its leak suppressed.
    QCOMPARE(sites[0].function, std::string("leaky_init"));
    QCOMPARE(sites[0].file, std::string("prog.c"));
    QCOMPARE(sites[0].line, 0x1e);
    QCOMPARE(sites[0].peakBytes, 1000);
    QCOMPARE(sites[0].leakedBytes, 0);
    QCOMPARE(sites[0].allocations, 1);
    // make_obj: infos 0 and 3 (the first through operator new, which is skipped), merged.
    QCOMPARE(sites[1].function, std::string("make_obj"));
    QCOMPARE(sites[1].module, std::string("prog"));
    QCOMPARE(sites[1].line, 0x14);
    QCOMPARE(sites[1].allocations, 4);
    QCOMPARE(sites[1].temporary, 3);
    QCOMPARE(sites[1].peakBytes, 300);
    QCOMPARE(sites[1].leakedBytes, 0);
    QCOMPARE(sites[1].stacks, 2);
    // The unresolved frame: named by its address.
    QCOMPARE(frameFunctionText(sites[2].function, sites[2].address), std::string("0x5000"));
    QCOMPARE(sites[2].peakBytes, 16);
    QCOMPARE(sites[2].leakedBytes, 16);

    // An event's address is its allocation info.
    const auto info3 = lookupAllocInfo(db, id, 3);
    QVERIFY(info3);
    QCOMPARE(info3->size, 200);
    QCOMPARE(info3->nodeId, 2);
    QCOMPARE(lookupAllocInfo(db, id, 0)->nodeId, 3);
    QVERIFY(!lookupAllocInfo(db, id, 4));

    const std::vector<SeriesInfo> series = listSeries(db, id);
    const SeriesInfo* heap = seriesNamed(series, "consumed");
    const SeriesInfo* rss = seriesNamed(series, "RSS");
    const SeriesInfo* rate = seriesNamed(series, "allocations per second");
    const SeriesInfo* temporary = seriesNamed(series, "temporary allocations per second");
    QVERIFY(heap && rss && rate && temporary);
    QCOMPARE(heap->vMax, 1316);
    QCOMPARE(heap->vFinal, 1016);
    QCOMPARE(rss->unit, std::string("bytes"));
    const auto rssPoints = allPoints(db, *rss);
    QCOMPARE(rssPoints.size(), std::size_t(2));
    QCOMPARE(rssPoints[0], (SeriesPoint{5'000'000, 256 * 4096}));
    QCOMPARE(rssPoints[1], (SeriesPoint{10'000'000, 384 * 4096}));
    // Allocation calls per second, per interval between timestamps: 2 calls in [0, 5) ms,
    // 2 in [5, 10), 2 in [10, 15), none after.
    QCOMPARE(rate->unit, std::string("calls/s"));
    const auto ratePoints = allPoints(db, *rate);
    QCOMPARE(ratePoints.size(), std::size_t(5));
    QCOMPARE(ratePoints[0], (SeriesPoint{0, 400}));
    QCOMPARE(ratePoints[1], (SeriesPoint{5'000'000, 400}));
    QCOMPARE(ratePoints[2], (SeriesPoint{10'000'000, 400}));
    QCOMPARE(ratePoints[3], (SeriesPoint{15'000'000, 0}));
    // Temporary allocations: one in [0, 5) ms, two in [10, 15).
    const auto tempPoints = allPoints(db, *temporary);
    QCOMPARE(tempPoints[0], (SeriesPoint{0, 200}));
    QCOMPARE(tempPoints[1], (SeriesPoint{5'000'000, 0}));
    QCOMPARE(tempPoints[2], (SeriesPoint{10'000'000, 400}));
}

void TestHeaptrack::agreesWithHeaptrackPrint_data() { everyRecordType_data(); }

// The same handwritten files, checked against the real heaptrack_print when it is installed.
void TestHeaptrack::agreesWithHeaptrackPrint() {
    QFETCH(QString, file);
    const QString print = findTool("heaptrack_print");
    if (print.isEmpty()) MEMVIZ_SKIP_OR_FAIL("heaptrack_print is not installed (apt install heaptrack)");
    // heaptrack_print picks its decompressor by extension.
    QTemporaryDir dir;
    QString input = file;
    if (file.endsWith(".txt")) {
        input = dir.filePath("plain");
        QFile::copy(file, input);
    }
    const HeaptrackPrintReport report = parseHeaptrackPrint(QString::fromUtf8(runProcess(print, {input}).out));
    Database db(dir.filePath("h.memviz").toStdString());
    const auto h = loadHeaptrackSummary(db, importPath(db, file));
    QCOMPARE(h->calls, report.calls);
    QCOMPARE(h->temporary, report.temporary);
    QCOMPARE(heaptrackBytes(h->peakBytes), report.peak);
    QCOMPARE(heaptrackBytes(h->leakedBytes), report.leaked);
    QCOMPARE(heaptrackBytes(h->suppressedBytes), report.suppressed);
    QCOMPARE(report.byPeak.size(), 3);
    QCOMPARE(report.byPeak[1].function, QStringLiteral("make_obj"));
    QCOMPARE(report.byPeak[1].bytes, heaptrackBytes(300));
}

void TestHeaptrack::siteBacktraces() {
    QTemporaryDir dir;
    Database db(dir.filePath("h.memviz").toStdString());
    const std::int64_t id = importPath(db, fixture("v3_all_records.txt"));
    const auto sites = queryAllocationSites(db, id);
    const std::vector<SiteStack> stacks = querySiteStacks(db, id, sites[1].id);
    QCOMPARE(stacks.size(), std::size_t(2));
    // Info 3 (200 B, trace node 2) peaks higher than info 0 (100 B, node 3).
    QCOMPARE(stacks[0].nodeId, 2);
    QCOMPARE(stacks[0].peakBytes, 200);
    QCOMPARE(stacks[1].peakBytes, 100);
    QCOMPARE(stacks[1].temporary, 2);
    // make_obj (with helper inlined into it), called from main; operator new is not shown.
    for (const SiteStack& k : stacks) {
        QCOMPARE(k.frames.size(), std::size_t(3));
        QCOMPARE(k.frames[0].function, std::string("make_obj"));
        QVERIFY(!k.frames[0].inlined);
        QCOMPARE(k.frames[1].function, std::string("helper"));
        QCOMPARE(k.frames[1].file, std::string("util.h"));
        QVERIFY(k.frames[1].inlined);
        QCOMPARE(k.frames[2].function, std::string("main"));
        QCOMPARE(k.frames[2].line, 10);
    }
}

void TestHeaptrack::cutOffLastLineIsAWarning() {
    QTemporaryDir dir;
    QByteArray content = readFile(fixture("v3_all_records.txt"));
    content += "+ 1\n+"; // a recording cut off in the middle of a line
    const QString path = writeFile(dir, "cut", content);
    Database db(dir.filePath("h.memviz").toStdString());
    const std::int64_t id = importPath(db, path);
    const TraceSummary s = loadSummary(db, id);
    QCOMPARE(s.devices[0].allocs, 7);
    QCOMPARE(s.warnings.size(), std::size_t(1));
    QCOMPARE(s.warnings[0].kind, std::string("truncated_last_line"));
    QVERIFY(QString::fromStdString(s.warnings[0].firstLocation).startsWith(lineAfterFixture(2)));
}

void TestHeaptrack::countedWarnings() {
    QTemporaryDir dir;
    QByteArray content = readFile(fixture("v3_all_records.txt"));
    content += "x ./prog\nx ./prog\nc 3\n+ 2\n";
    const QString path = writeFile(dir, "warn", content);
    Database db(dir.filePath("h.memviz").toStdString());
    const TraceSummary s = loadSummary(db, importPath(db, path));
    QCOMPARE(s.warnings.size(), std::size_t(2));
    QCOMPARE(s.warnings[0].kind, std::string("out_of_order_time"));
    QCOMPARE(s.warnings[0].count, 1);
    QCOMPARE(s.warnings[1].kind, std::string("unknown_record"));
    QCOMPARE(s.warnings[1].count, 2);
    QVERIFY(QString::fromStdString(s.warnings[1].firstLocation).startsWith(lineAfterFixture()));
}

void TestHeaptrack::badInput_data() {
    QTest::addColumn<QByteArray>("content");
    QTest::addColumn<QStringList>("expected"); // fragments of the error message
    const QByteArray base = readFile(fixture("v3_all_records.txt"));
    const QString next = lineAfterFixture();
    QTest::newRow("+ without index") << base + "+\n" << QStringList{next, "`+` record", "missing field"};
    QTest::newRow("+ index not defined") << base + "+ 9\n"
                                         << QStringList{next, "`+` record", "allocation info index 9 is not defined"};
    QTest::newRow("- index not defined") << base + "- 4\n" << QStringList{next, "`-` record", "index 4 is not defined"};
    QTest::newRow("+ index not hex") << base + "+ zz\n" << QStringList{next, "`+` record", "not a hex number"};
    QTest::newRow("+ extra field") << base + "+ 1 2\n" << QStringList{next, "`+` record", "unexpected text"};
    QTest::newRow("a without trace") << base + "a 10\n" << QStringList{next, "`a` record", "missing field: trace index"};
    QTest::newRow("a trace not defined") << base + "a 10 9\n" << QStringList{next, "`a` record", "trace index 9 is not defined"};
    QTest::newRow("t ip not defined") << base + "t 9 1\n" << QStringList{next, "`t` record", "ip index 9 is not defined"};
    QTest::newRow("t parent not defined") << base + "t 1 9\n" << QStringList{next, "`t` record", "parent index 9"};
    QTest::newRow("t without parent") << base + "t 1\n" << QStringList{next, "`t` record", "missing field: parent index"};
    QTest::newRow("i module not defined") << base + "i 6000 99\n" << QStringList{next, "`i` record", "module names string 99"};
    QTest::newRow("i function not defined") << base + "i 6000 1 50 2 3\n"
                                            << QStringList{next, "`i` record", "function names string 50"};
    QTest::newRow("i without module") << base + "i 6000\n" << QStringList{next, "`i` record", "missing field: module"};
    QTest::newRow("s length wrong") << base + "s 5 abc\n"
                                    << QStringList{next, "`s` record", "3 bytes long but its length field says 5"};
    QTest::newRow("c not hex") << base + "c 1x\n" << QStringList{next, "`c` record", "not a hex number"};
    QTest::newRow("second X") << base + "X again\n" << QStringList{next, "`X` record", "second `X`"};
    QTest::newRow("second version") << base + "v 10400 3\n" << QStringList{next, "`v` record", "second version line"};
    QTest::newRow("newer format") << QByteArray("v 10600 4\n") << QStringList{"line 1 ", "version 4 is newer"};
    QTest::newRow("format version 0") << QByteArray("v 10000 0\n") << QStringList{"line 1 ", "version 0", "not supported"};
    QTest::newRow("record before version") << QByteArray("v\n") << QStringList{"line 1 ", "missing field: heaptrack version"};
    QTest::newRow("no record type space") << base + "+1\n" << QStringList{next, "not followed by a space"};
    // Raw data (heaptrack -r, or the fifo's content): what libheaptrack writes before
    // heaptrack_interpret, its module maps and executable records. Hand-made, in the layout of
    // heaptrack 1.5's tests/auto/test_sysroot/heaptrack.test_sysroot.raw.
    const QByteArray raw = "v 10550 3\nx 3b /home/u/build/test_lib\nX ./test_lib\nI 1000 7d09db\n"
                           "m 1 -\nm 1 x 5d7ea53f9000 0 848 1848 268\nt 7bf3f6a3579f 0\n+ 12000 4 5d7ec4ddc570\n";
    QTest::newRow("raw data") << raw << QStringList{"line 5 ", "`m` record", "raw heaptrack data", "heaptrack_interpret"};
}

void TestHeaptrack::badInput() {
    QFETCH(QByteArray, content);
    QFETCH(QStringList, expected);
    QTemporaryDir dir;
    const QString path = writeFile(dir, "heaptrack.bad", content);
    const QString store = dir.filePath("h.memviz");
    {
        Database db(store.toStdString());
        try {
            importFile(db, path.toStdString(), Progress{}, "heaptrack");
            QFAIL("the import should have failed");
        } catch (const ImportError& e) {
            const QString message = QString::fromUtf8(e.what());
            for (const QString& part : expected) QVERIFY2(message.contains(part), qPrintable(message));
        }
    }
    // Nothing of the failed import was stored.
    Database db(store.toStdString(), Database::Mode::ReadOnly);
    QVERIFY(listTraces(db).empty());
    QCOMPARE(queryInt(db, "SELECT count(*) FROM heaptrack_sites").value_or(-1), 0);
    QCOMPARE(queryInt(db, "SELECT count(*) FROM series").value_or(-1), 0);
}

void TestHeaptrack::truncatedCompressedStream_data() {
    QTest::addColumn<QString>("file");
    QTest::newRow("gzip") << fixture("v3_all_records.gz");
    QTest::newRow("zstd") << fixture("v3_all_records.zst");
}

void TestHeaptrack::truncatedCompressedStream() {
    QFETCH(QString, file);
    QTemporaryDir dir;
    const QByteArray whole = readFile(file);
    const QString path = writeFile(dir, "heaptrack.cut", whole.left(whole.size() * 2 / 3));
    Database db(dir.filePath("h.memviz").toStdString());
    try {
        importFile(db, path.toStdString(), Progress{});
        QFAIL("the import should have failed");
    } catch (const ImportError& e) {
        QVERIFY2(QString::fromUtf8(e.what()).contains("truncated"), e.what());
    }
    QVERIFY(listTraces(db).empty());
}

void TestHeaptrack::sniffing() {
    const HeaptrackImporter importer;
    QCOMPARE(importer.sniff("v 10400 3\nX ./a\n", "heaptrack.a.123.zst"), 100);
    QVERIFY(importer.sniff("# comment\nv 10400 3\n", "x") > 50);
    QCOMPARE(importer.sniff("desc: --x\ncmd: ./a\ntime_unit: i\n", "massif.out.1"), 0);
    QCOMPARE(importer.sniff("time_ns,action,address,size\n", "log.csv"), 0);
    QCOMPARE(importer.sniff("v hello\n", "heaptrack.x"), 0);
    QCOMPARE(QString::fromStdString(detectImporter(fixture("v3_all_records.zst").toStdString()).id()),
             QStringLiteral("heaptrack"));
}

void TestHeaptrack::suppressionPatterns_data() {
    QTest::addColumn<QString>("pattern");
    QTest::addColumn<QString>("text");
    QTest::addColumn<bool>("matches");
    QTest::newRow("substring") << "alloc"
                               << "my_alloc_fn" << true;
    QTest::newRow("wildcard") << "leaky_*"
                              << "leaky_init" << true;
    QTest::newRow("wildcard in the middle") << "a*c"
                                            << "xxabbbcxx" << true;
    QTest::newRow("order matters") << "c*a"
                                   << "abc" << false;
    QTest::newRow("anchored start") << "^foo"
                                    << "xfoo" << false;
    QTest::newRow("anchored start ok") << "^foo"
                                       << "foobar" << true;
    QTest::newRow("anchored end") << "foo$"
                                  << "foobar" << false;
    QTest::newRow("anchored end ok") << "bar$"
                                     << "foobar" << true;
    QTest::newRow("empty text") << "*"
                                << "" << false;
    QTest::newRow("no match") << "zzz"
                              << "abc" << false;
}

void TestHeaptrack::suppressionPatterns() {
    QFETCH(QString, pattern);
    QFETCH(QString, text);
    QFETCH(bool, matches);
    QCOMPARE(suppressionMatches(pattern.toStdString(), text.toStdString()), matches);
    QCOMPARE(parseSuppressionLine("  leak:" + pattern.toStdString() + " ").value_or(""), pattern.toStdString());
}

QTEST_GUILESS_MAIN(TestHeaptrack)
#include "tst_heaptrack.moc"

// SPDX-License-Identifier: MIT
// The massif importer on handwritten massif.out files in every time unit, with figures worked
// out by hand; heap-tree labels; bad input of every kind.
#include <QtTest>

#include "NativeToolOutput.h"
#include "TestSupport.h"
#include "core/Errors.h"
#include "core/Progress.h"
#include "formats/FormatRegistry.h"
#include "formats/massif/MassifImporter.h"
#include "formats/massif/MassifLabel.h"
#include "formats/massif/MassifQueries.h"
#include "store/Database.h"
#include "store/TraceQueries.h"
#include "store/TraceWriter.h"

using namespace memviz;
using namespace memviz::test;

namespace {

QString fixture(const QString& name) { return QStringLiteral(MEMVIZ_TEST_DATA) + "/native/massif/" + name; }

// The snapshots of the fixtures, by hand: (heap, extra, stacks, tree).
struct Expected {
    std::int64_t heap, extra, stacks;
    const char* tree;
};
constexpr Expected kSnapshots[] = {
    {0, 0, 0, "empty"},
    {5000, 40, 512, "detailed"},
    {8000, 64, 256, "peak"},
    {1000, 8, 0, "empty"},
};

const QByteArray kHeader = "desc: x\ncmd: ./prog\ntime_unit: i\n";

QByteArray snapshot(int n, const QByteArray& tree = "empty", int heap = 0) {
    return "snapshot=" + QByteArray::number(n) + "\ntime=" + QByteArray::number(n * 10) +
           "\nmem_heap_B=" + QByteArray::number(heap) + "\nmem_heap_extra_B=0\nmem_stacks_B=0\nheap_tree=" + tree + "\n";
}

} // namespace

class TestMassif : public QObject {
    Q_OBJECT
private slots:
    void timeUnits_data();
    void timeUnits();
    void agreesWithMsPrint_data();
    void agreesWithMsPrint();
    void heapTreeSortedByBytes();
    void labels_data();
    void labels();
    void treeThatDoesNotAddUpIsReported();
    void badInput_data();
    void badInput();
    void truncatedCompressedStream();
    void sniffing();
};

void TestMassif::timeUnits_data() {
    QTest::addColumn<QString>("file");
    QTest::addColumn<QString>("timeKind");
    QTest::addColumn<QStringList>("times");
    QTest::addColumn<QList<qint64>>("xs");
    QTest::newRow("instructions") << fixture("time_i.massif") << "instructions" << QStringList{"0", "1000", "2500", "4000"}
                                  << QList<qint64>{0, 1000, 2500, 4000};
    QTest::newRow("instructions, zstd") << fixture("time_i.massif.zst") << "instructions"
                                        << QStringList{"0", "1000", "2500", "4000"} << QList<qint64>{0, 1000, 2500, 4000};
    QTest::newRow("milliseconds") << fixture("time_ms.massif") << "time" << QStringList{"0", "12", "30", "45"}
                                  << QList<qint64>{0, 12'000'000, 30'000'000, 45'000'000};
    QTest::newRow("bytes") << fixture("time_B.massif") << "bytes" << QStringList{"0", "5000", "13000", "20000"}
                           << QList<qint64>{0, 5000, 13000, 20000};
}

void TestMassif::timeUnits() {
    QFETCH(QString, file);
    QFETCH(QString, timeKind);
    QFETCH(QStringList, times);
    QFETCH(QList<qint64>, xs);
    QTemporaryDir dir;
    Database db(dir.filePath("m.memviz").toStdString());
    const std::int64_t id = importFile(db, file.toStdString(), Progress{});

    const std::vector<MassifSnapshot> snaps = listMassifSnapshots(db, id);
    QCOMPARE(snaps.size(), std::size(kSnapshots));
    for (std::size_t i = 0; i < snaps.size(); ++i) {
        QCOMPARE(snaps[i].number, static_cast<std::int64_t>(i));
        QCOMPARE(QString::fromStdString(snaps[i].time), times[static_cast<int>(i)]);
        QCOMPARE(snaps[i].x, xs[static_cast<int>(i)]);
        QCOMPARE(snaps[i].heapBytes, kSnapshots[i].heap);
        QCOMPARE(snaps[i].extraBytes, kSnapshots[i].extra);
        QCOMPARE(snaps[i].stacksBytes, kSnapshots[i].stacks);
        QCOMPARE(snaps[i].tree, std::string(kSnapshots[i].tree));
    }

    const TraceSummary s = loadSummary(db, id);
    QCOMPARE(QString::fromStdString(s.trace.timeKind), timeKind);
    QCOMPARE(s.trace.format, std::string("massif"));
    QCOMPARE(s.devices.size(), std::size_t(1));
    QCOMPARE(s.devices[0].peakBytes, 8000 + 64 + 256); // the peak snapshot's total
    QCOMPARE(s.devices[0].peakTimeNs, xs[2]);
    QCOMPARE(s.devices[0].finalBytes, 1008);
    QCOMPARE(s.trace.durationNs, xs[3]);

    // Useful heap, extra heap and stacks are stacked; the total is the primary line.
    const std::vector<SeriesInfo> series = listSeries(db, id);
    QCOMPARE(series.size(), std::size_t(4));
    QCOMPARE(series[0].name, std::string("useful heap"));
    QCOMPARE(series[1].name, std::string("extra heap"));
    QCOMPARE(series[2].name, std::string("stacks"));
    QCOMPARE(series[3].name, std::string("total"));
    for (int i = 0; i < 3; ++i) QCOMPARE(series[static_cast<std::size_t>(i)].style, std::string(kSeriesStacked));
    QCOMPARE(series[3].style, std::string());
    QCOMPARE(series[0].vMax, 8000);
    QCOMPARE(series[2].vMax, 512);
    QCOMPARE(series[3].vMax, 8320);

    Statement meta(db, "SELECT value FROM trace_metadata WHERE trace_id = ? AND key = 'massif.cmd'");
    meta.bind(1, id);
    QVERIFY(meta.step());
    QCOMPARE(meta.text(0), std::string("./prog arg"));
}

void TestMassif::agreesWithMsPrint_data() {
    QTest::addColumn<QString>("file");
    for (const char* f : {"time_i.massif", "time_ms.massif", "time_B.massif"}) QTest::newRow(f) << fixture(f);
}

// The handwritten files through the real ms_print, when it is installed.
void TestMassif::agreesWithMsPrint() {
    QFETCH(QString, file);
    const QString msPrint = findTool("ms_print");
    if (msPrint.isEmpty()) MEMVIZ_SKIP_OR_FAIL("ms_print is not installed (apt install valgrind)");
    const MsPrintReport report = parseMsPrint(QString::fromUtf8(runProcess(msPrint, {file}).out));
    QTemporaryDir dir;
    Database db(dir.filePath("m.memviz").toStdString());
    const auto snaps = listMassifSnapshots(db, importFile(db, file.toStdString(), Progress{}));
    QCOMPARE(static_cast<int>(snaps.size()), report.snapshots);
    QCOMPARE(report.detailed, (QList<qint64>{1, 2}));
    QCOMPARE(report.peak, 2);
    for (std::size_t i = 0; i < snaps.size(); ++i) {
        QCOMPARE(snaps[i].totalBytes(), report.rows[static_cast<int>(i)].total);
        QCOMPARE(QString::fromStdString(snaps[i].time), report.rows[static_cast<int>(i)].time);
    }
}

void TestMassif::heapTreeSortedByBytes() {
    QTemporaryDir dir;
    Database db(dir.filePath("m.memviz").toStdString());
    const std::int64_t id = importFile(db, fixture("time_i.massif").toStdString(), Progress{});
    QVERIFY(loadMassifTree(db, id, 0).nodes.empty());
    const MassifTree tree = loadMassifTree(db, id, 1);
    QCOMPARE(tree.nodes.size(), std::size_t(7));
    const MassifNode& root = tree.nodes[0];
    QCOMPARE(root.bytes, 5000);
    QVERIFY(!root.address);
    QCOMPARE(root.children.size(), std::size_t(3));
    const MassifNode& table = tree.nodes[root.children[0]];
    QCOMPARE(table.function, std::string("make_table"));
    QCOMPARE(table.location, std::string("table.c:42"));
    QCOMPARE(table.address.value_or(0), 0x400500);
    QCOMPARE(table.children.size(), std::size_t(2));
    QCOMPARE(tree.nodes[table.children[0]].bytes, 2000);
    QCOMPARE(tree.nodes[table.children[1]].function, std::string("Foo::bar(int) const"));
    const MassifNode& lib = tree.nodes[root.children[1]];
    QCOMPARE(lib.bytes, 1900);
    QCOMPARE(lib.function, std::string("???"));
    QCOMPARE(lib.location, std::string("in /usr/lib/libstdc++.so.6"));
    const MassifNode& small = tree.nodes[root.children[2]];
    QCOMPARE(small.bytes, 100);
    QCOMPARE(small.label, std::string("in 3 places, all below massif's threshold (1.00%)"));
}

void TestMassif::labels_data() {
    QTest::addColumn<QString>("label");
    QTest::addColumn<int>("kind");
    QTest::addColumn<qint64>("address");
    QTest::addColumn<QString>("function");
    QTest::addColumn<QString>("location");
    using K = MassifLabel::Kind;
    QTest::newRow("root") << "(heap allocation functions) malloc/new/new[], --alloc-fns, etc." << int(K::Root) << qint64(-1)
                          << "(heap allocation functions) malloc/new/new[], --alloc-fns, etc."
                          << "";
    QTest::newRow("pages root") << "(page allocation syscalls) mmap/mremap/brk, --alloc-fns, etc." << int(K::Root) << qint64(-1)
                                << "(page allocation syscalls) mmap/mremap/brk, --alloc-fns, etc."
                                << "";
    QTest::newRow("file and line") << "0x1091F4: main (a.c:7)" << int(K::Code) << qint64(0x1091F4) << "main"
                                   << "a.c:7";
    QTest::newRow("module") << "0x4E5B1B0: ??? (in /usr/lib/libstdc++.so.6)" << int(K::Code) << qint64(0x4E5B1B0) << "???"
                            << "in /usr/lib/libstdc++.so.6";
    QTest::newRow("C++ signature") << "0x10: std::vector<int>::push_back(int const&) (stl_vector.h:1189)" << int(K::Code)
                                   << qint64(0x10) << "std::vector<int>::push_back(int const&)"
                                   << "stl_vector.h:1189";
    QTest::newRow("no location") << "0x20: ???" << int(K::Code) << qint64(0x20) << "???"
                                 << "";
    QTest::newRow("name with parentheses only") << "0x30: f(int)" << int(K::Code) << qint64(0x30) << "f(int)"
                                                << "";
    QTest::newRow("one place") << "in 1 place, below massif's threshold (1.00%)" << int(K::BelowThreshold) << qint64(-1)
                               << "in 1 place, below massif's threshold (1.00%)"
                               << "";
    QTest::newRow("places") << "in 12 places, all below massif's threshold (1.00%)" << int(K::BelowThreshold) << qint64(-1)
                            << "in 12 places, all below massif's threshold (1.00%)"
                            << "";
}

void TestMassif::labels() {
    QFETCH(QString, label);
    QFETCH(int, kind);
    QFETCH(qint64, address);
    QFETCH(QString, function);
    QFETCH(QString, location);
    const MassifLabel l = parseMassifLabel(label.toStdString());
    QCOMPARE(int(l.kind), kind);
    QCOMPARE(l.address.value_or(-1), address);
    QCOMPARE(QString::fromStdString(l.function), function);
    QCOMPARE(QString::fromStdString(l.location), location);
}

void TestMassif::treeThatDoesNotAddUpIsReported() {
    QTemporaryDir dir;
    const QByteArray content = kHeader + snapshot(0, "detailed", 100) +
                               "n2: 100 (heap allocation functions) malloc/new/new[], --alloc-fns, etc.\n"
                               " n0: 60 0x1: f (a.c:1)\n n0: 30 0x2: g (a.c:2)\n" +
                               snapshot(1, "peak", 500) + "n1: 400 (heap allocation functions) x\n n0: 400 0x1: f (a.c:1)\n";
    const QString path = writeFile(dir, "massif.out.sum", content);
    Database db(dir.filePath("m.memviz").toStdString());
    const TraceSummary s = loadSummary(db, importFile(db, path.toStdString(), Progress{}));
    QCOMPARE(s.warnings.size(), std::size_t(2));
    QCOMPARE(s.warnings[0].kind, std::string("massif_tree_sum"));
    QCOMPARE(s.warnings[0].firstLocation, std::string("line 10 (snapshot 0)"));
    QCOMPARE(s.warnings[1].kind, std::string("massif_tree_total"));
    QVERIFY(QString::fromStdString(s.warnings[1].firstLocation).contains("(snapshot 1)"));
}

void TestMassif::badInput_data() {
    QTest::addColumn<QByteArray>("content");
    QTest::addColumn<QStringList>("expected");
    QTest::newRow("no cmd line") << QByteArray("desc: x\ntime_unit: i\n") << QStringList{"line 2", "\"cmd:\""};
    QTest::newRow("no time_unit") << QByteArray("desc: x\ncmd: ./a\nsnapshot=0\n") << QStringList{"line 3", "time_unit"};
    QTest::newRow("unknown time unit") << QByteArray("desc: x\ncmd: ./a\ntime_unit: q\n") << QStringList{"line 3", "\"q\""};
    QTest::newRow("no snapshots") << kHeader << QStringList{"no snapshots"};
    QTest::newRow("missing time") << kHeader + "snapshot=0\nmem_heap_B=0\n" << QStringList{"line 5 (snapshot 0)", "\"time=\""};
    QTest::newRow("heap not a number") << kHeader + "snapshot=0\ntime=0\nmem_heap_B=lots\n"
                                       << QStringList{"line 6 (snapshot 0)", "mem_heap_B", "\"lots\""};
    QTest::newRow("negative time") << kHeader + "snapshot=0\ntime=-5\n" << QStringList{"line 5", "time"};
    QTest::newRow("bad heap_tree") << kHeader + snapshot(0, "sideways") << QStringList{"line 9 (snapshot 0)", "sideways"};
    QTest::newRow("bad tree line") << kHeader + snapshot(0, "detailed") + "n1 0 x\n"
                                   << QStringList{"line 10", "heap-tree node line"};
    QTest::newRow("tree cut short") << kHeader + snapshot(0, "detailed") + "n2: 0 root\n n0: 0 0x1: f (a.c:1)\n"
                                    << QStringList{"(snapshot 0)", "heap-tree node line", "end of the file"};
    QTest::newRow("duplicate snapshot") << kHeader + snapshot(0) + snapshot(0)
                                        << QStringList{"line 10", "snapshot 0 appears twice"};
    QTest::newRow("junk instead of snapshot") << kHeader + "hello\n" << QStringList{"line 4", "\"snapshot=\"", "hello"};
}

void TestMassif::badInput() {
    QFETCH(QByteArray, content);
    QFETCH(QStringList, expected);
    QTemporaryDir dir;
    const QString path = writeFile(dir, "massif.out.bad", content);
    const QString store = dir.filePath("m.memviz");
    {
        Database db(store.toStdString());
        try {
            importFile(db, path.toStdString(), Progress{}, "massif");
            QFAIL("the import should have failed");
        } catch (const ImportError& e) {
            const QString message = QString::fromUtf8(e.what());
            for (const QString& part : expected) QVERIFY2(message.contains(part), qPrintable(message));
        }
    }
    Database db(store.toStdString(), Database::Mode::ReadOnly);
    QVERIFY(listTraces(db).empty());
    QCOMPARE(queryInt(db, "SELECT count(*) FROM massif_snapshots").value_or(-1), 0);
    QCOMPARE(queryInt(db, "SELECT count(*) FROM massif_tree_nodes").value_or(-1), 0);
}

void TestMassif::truncatedCompressedStream() {
    QTemporaryDir dir;
    const QByteArray whole = readFile(fixture("time_i.massif.zst"));
    const QString path = writeFile(dir, "massif.out.cut", whole.left(whole.size() / 2));
    Database db(dir.filePath("m.memviz").toStdString());
    QVERIFY_THROWS_EXCEPTION(ImportError, importFile(db, path.toStdString(), Progress{}));
    QVERIFY(listTraces(db).empty());
}

void TestMassif::sniffing() {
    const MassifImporter importer;
    QCOMPARE(importer.sniff(readFile(fixture("time_i.massif")).toStdString(), "x"), 100);
    QCOMPARE(importer.sniff("v 10400 3\n", "massif.out.1"), 0);
    QCOMPARE(QString::fromStdString(detectImporter(fixture("time_B.massif").toStdString()).id()), QStringLiteral("massif"));
}

QTEST_GUILESS_MAIN(TestMassif)
#include "tst_massif.moc"

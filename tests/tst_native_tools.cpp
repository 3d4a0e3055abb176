// SPDX-License-Identifier: MIT
// heaptrack and massif recordings of real programs, made at test time with the real tools,
// and compared with what heaptrack_print and ms_print report for the same files.
#include <QDir>
#include <QtTest>

#include "NativeToolOutput.h"
#include "TestSupport.h"
#include "core/Progress.h"
#include "formats/FormatRegistry.h"
#include "formats/heaptrack/HeaptrackQueries.h"
#include "formats/massif/MassifQueries.h"
#include "store/Database.h"
#include "store/TraceQueries.h"

using namespace memviz;
using namespace memviz::test;

namespace {

struct Imported {
    std::unique_ptr<Database> db;
    std::int64_t traceId = 0;
};

Imported importInto(const QTemporaryDir& dir, const QString& path) {
    Imported r;
    r.db = std::make_unique<Database>(dir.filePath("native.memviz").toStdString());
    r.traceId = importFile(*r.db, path.toStdString(), Progress{});
    return r;
}

// How heaptrack_print names a site (with --shorten-templates=0).
QString functionText(const AllocationSite& s) { return QString::fromStdString(frameFunctionText(s.function, s.address)); }
QString locationText(const AllocationSite& s) {
    return s.file.empty() ? QString() : QString::fromStdString(s.file) + ":" + QString::number(s.line);
}
QString moduleText(const AllocationSite& s) { return s.module.empty() ? QStringLiteral("??") : QString::fromStdString(s.module); }

const AllocationSite* findSite(const std::vector<AllocationSite>& sites, const HeaptrackPrintEntry& e) {
    for (const AllocationSite& s : sites)
        if (functionText(s) == e.function && locationText(s) == e.location && moduleText(s) == e.module) return &s;
    return nullptr;
}

// The innermost frame as heaptrack_print's flame-graph export writes it.
QString flameLeaf(const AllocationSite& s) {
    QString leaf = functionText(s);
    if (!s.file.empty()) leaf += " (" + QFileInfo(QString::fromStdString(s.file)).fileName() + ")";
    return leaf;
}

} // namespace

class TestNativeTools : public QObject {
    Q_OBJECT
private slots:
    void heaptrackMatchesHeaptrackPrint_data();
    void heaptrackMatchesHeaptrackPrint();
    void massifMatchesMsPrint_data();
    void massifMatchesMsPrint();
};

void TestNativeTools::heaptrackMatchesHeaptrackPrint_data() {
    QTest::addColumn<QString>("program");
    QTest::newRow("C: malloc, calloc, realloc, free") << QStringLiteral(MEMVIZ_NATIVE_C);
    QTest::newRow("C++: new, new[], std::vector, delete") << QStringLiteral(MEMVIZ_NATIVE_CPP);
}

void TestNativeTools::heaptrackMatchesHeaptrackPrint() {
    QFETCH(QString, program);
    const QString heaptrack = findTool("heaptrack");
    const QString print = findTool("heaptrack_print");
    if (heaptrack.isEmpty() || print.isEmpty()) MEMVIZ_SKIP_OR_FAIL("heaptrack is not installed (apt install heaptrack)");
    QTemporaryDir dir;
    const QString recording = recordWithHeaptrack(heaptrack, dir, "rec", program);
    QVERIFY(!recording.isEmpty());

    const HeaptrackPrintReport report = parseHeaptrackPrint(runOutput(print, {"--shorten-templates=0", recording}));
    QVERIFY(report.calls > 0);
    // Exact bytes: the flame-graph export lists every backtrace's cost as a plain number.
    QHash<QString, FlameCosts> flame;
    for (const QString cost : {"allocations", "temporary", "peak", "leaked"}) {
        const QString out = dir.filePath("flame-" + cost);
        runOutput(print, {"--shorten-templates=0", "--flamegraph-cost-type", cost, "-F", out, recording});
        flame[cost] = parseFlamegraph(QString::fromUtf8(readFile(out)));
    }

    const Imported imported = importInto(dir, recording);
    const auto totals = loadHeaptrackSummary(*imported.db, imported.traceId);
    QVERIFY(totals.has_value());
    QCOMPARE(totals->calls, report.calls);
    QCOMPARE(totals->temporary, report.temporary);
    QCOMPARE(heaptrackBytes(totals->peakBytes), report.peak);
    QCOMPARE(heaptrackBytes(totals->leakedBytes), report.leaked);
    QCOMPARE(totals->calls, flame["allocations"].total);
    QCOMPARE(totals->temporary, flame["temporary"].total);
    QCOMPARE(totals->peakBytes, flame["peak"].total);
    QCOMPARE(totals->leakedBytes, flame["leaked"].total);

    // The canonical summary shows the same calls and peak.
    const TraceSummary summary = loadSummary(*imported.db, imported.traceId);
    QCOMPARE(summary.devices.size(), std::size_t(1));
    QCOMPARE(summary.devices[0].allocs, report.calls);
    QCOMPARE(summary.devices[0].peakBytes, totals->peakBytes);
    QCOMPARE(summary.devices[0].peakTimeNs, totals->peakTimeMs * 1000000);

    const std::vector<AllocationSite> sites = queryAllocationSites(*imported.db, imported.traceId);
    // Top of the peak-consumption list: same sites, same order of values.
    QVERIFY(!report.byPeak.isEmpty());
    for (int i = 0; i < report.byPeak.size(); ++i) {
        const HeaptrackPrintEntry& e = report.byPeak[i];
        const AllocationSite* s = findSite(sites, e);
        QVERIFY2(s, qPrintable("no site for " + e.function + " at " + e.location));
        QCOMPARE(heaptrackBytes(s->peakBytes), e.bytes);
        QCOMPARE(s->allocations, e.calls);
        QCOMPARE(heaptrackBytes(sites[static_cast<std::size_t>(i)].peakBytes), e.bytes);
    }
    for (const HeaptrackPrintEntry& e : report.byCalls) {
        const AllocationSite* s = findSite(sites, e);
        QVERIFY2(s, qPrintable("no site for " + e.function));
        QCOMPARE(s->allocations, e.calls);
        QCOMPARE(heaptrackBytes(s->peakBytes), e.bytes);
    }
    for (const HeaptrackPrintEntry& e : report.byTemporary) {
        const AllocationSite* s = findSite(sites, e);
        QVERIFY2(s, qPrintable("no site for " + e.function));
        QCOMPARE(s->temporary, e.temporary);
        QCOMPARE(s->allocations, e.calls);
    }
    // Every site in the program's own source, to the byte.
    QHash<QString, AllocationSite> ours;
    for (const AllocationSite& s : sites) {
        if (!QString::fromStdString(s.file).contains("alloc_patterns")) continue;
        AllocationSite& sum = ours[flameLeaf(s)];
        sum.allocations += s.allocations;
        sum.temporary += s.temporary;
        sum.peakBytes += s.peakBytes;
        sum.leakedBytes += s.leakedBytes;
    }
    QVERIFY(ours.size() >= 2);
    for (auto it = ours.cbegin(); it != ours.cend(); ++it) {
        QCOMPARE(it->allocations, flame["allocations"].byLeaf.value(it.key()));
        QCOMPARE(it->temporary, flame["temporary"].byLeaf.value(it.key()));
        QCOMPARE(it->peakBytes, flame["peak"].byLeaf.value(it.key()));
        QCOMPARE(it->leakedBytes, flame["leaked"].byLeaf.value(it.key()));
    }
}

void TestNativeTools::massifMatchesMsPrint_data() {
    QTest::addColumn<QString>("program");
    QTest::addColumn<QStringList>("options");
    const QString c = QStringLiteral(MEMVIZ_NATIVE_C);
    QTest::newRow("C, instructions") << c << QStringList{"--time-unit=i"};
    QTest::newRow("C, milliseconds") << c << QStringList{"--time-unit=ms"};
    QTest::newRow("C, bytes, every snapshot detailed") << c << QStringList{"--time-unit=B", "--detailed-freq=1"};
    QTest::newRow("C, with stacks") << c << QStringList{"--stacks=yes"};
    QTest::newRow("C++, instructions") << QStringLiteral(MEMVIZ_NATIVE_CPP) << QStringList{"--time-unit=i"};
}

void TestNativeTools::massifMatchesMsPrint() {
    QFETCH(QString, program);
    QFETCH(QStringList, options);
    const QString valgrind = findTool("valgrind");
    const QString msPrint = findTool("ms_print");
    if (valgrind.isEmpty() || msPrint.isEmpty()) MEMVIZ_SKIP_OR_FAIL("valgrind is not installed (apt install valgrind)");
    QTemporaryDir dir;
    const QString out = recordWithMassif(valgrind, dir, program, options);
    QVERIFY(QFileInfo::exists(out));
    const MsPrintReport report = parseMsPrint(runOutput(msPrint, {out}));
    QVERIFY(report.snapshots > 0);
    QCOMPARE(report.rows.size(), report.snapshots);

    const Imported imported = importInto(dir, out);
    const std::vector<MassifSnapshot> snapshots = listMassifSnapshots(*imported.db, imported.traceId);
    QCOMPARE(static_cast<int>(snapshots.size()), report.snapshots);
    QList<qint64> detailed;
    qint64 peak = -1;
    for (std::size_t i = 0; i < snapshots.size(); ++i) {
        const MassifSnapshot& s = snapshots[i];
        const MsPrintRow& row = report.rows[static_cast<int>(i)];
        QCOMPARE(s.number, row.n);
        QCOMPARE(QString::fromStdString(s.time), row.time);
        QCOMPARE(s.totalBytes(), row.total);
        QCOMPARE(s.heapBytes, row.heap);
        QCOMPARE(s.extraBytes, row.extra);
        QCOMPARE(s.stacksBytes, row.stacks);
        if (s.detailed()) detailed.append(s.number);
        if (s.peak()) peak = s.number;
    }
    QCOMPARE(detailed, report.detailed);
    QCOMPARE(peak, report.peak);

    // Every entry ms_print shows of a detailed snapshot's tree is a node of ours.
    for (auto it = report.trees.cbegin(); it != report.trees.cend(); ++it) {
        MassifTree tree = loadMassifTree(*imported.db, imported.traceId, it.key());
        QVERIFY(!tree.nodes.empty());
        for (const MsPrintTreeEntry& e : it.value()) {
            auto match = std::find_if(tree.nodes.begin(), tree.nodes.end(), [&](const MassifNode& n) {
                return n.bytes == e.bytes && QString::fromStdString(n.label) == e.label;
            });
            QVERIFY2(match != tree.nodes.end(),
                     qPrintable(QString("snapshot %1: %2 (%3 B)").arg(it.key()).arg(e.label).arg(e.bytes)));
            tree.nodes.erase(match);
        }
    }

    // The canonical summary's peak is massif's peak snapshot.
    const TraceSummary summary = loadSummary(*imported.db, imported.traceId);
    const auto peakRow = std::find_if(report.rows.begin(), report.rows.end(),
                                      [&](const MsPrintRow& r) { return r.n == report.peak; });
    QVERIFY(peakRow != report.rows.end());
    QCOMPARE(summary.devices[0].peakBytes, peakRow->total);
    const QString unit = options.first().startsWith("--time-unit=") ? options.first().mid(12) : QStringLiteral("i");
    QCOMPARE(QString::fromStdString(summary.trace.timeKind), unit == "i"   ? QStringLiteral("instructions")
                                                             : unit == "B" ? QStringLiteral("bytes")
                                                                           : QStringLiteral("time"));
}

QTEST_GUILESS_MAIN(TestNativeTools)
#include "tst_native_tools.moc"

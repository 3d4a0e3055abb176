// SPDX-License-Identifier: MIT
// CUDA memory snapshots: every layout (generated at test time) and the two real files, against
// numbers an independent Python script computes; the invariants of the views (what is alive
// at a moment adds up to the allocated bytes then; the reconstructed allocator state adds up
// too); hostile and truncated files rejected with nothing stored.
#include <QCryptographicHash>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QtTest>

#include "StorePagesHash.h"
#include "TestSupport.h"
#include "core/Errors.h"
#include "core/Progress.h"
#include "formats/FormatRegistry.h"
#include "formats/snapshot/SnapshotQueries.h"
#include "store/Database.h"
#include "store/SeriesQuery.h"
#include "store/TraceQueries.h"

using namespace memviz;

namespace {

struct Imported {
    std::unique_ptr<QTemporaryDir> dir;
    std::unique_ptr<Database> db;
    std::int64_t traceId = 0;
};

Imported importSnapshot(const QString& path) {
    Imported r;
    r.dir = std::make_unique<QTemporaryDir>();
    r.db = std::make_unique<Database>(r.dir->filePath("s.memviz").toStdString());
    r.traceId = importFile(*r.db, path.toStdString(), Progress{});
    return r;
}

QJsonObject oracle(const QString& path) {
    const auto r = memviz::test::runProcess(memviz::test::python(), {memviz::test::oracle("snapshot_oracle.py"), path});
    if (r.exitCode != 0) qWarning("%s", r.err.constData());
    return QJsonDocument::fromJson(r.out).object();
}

std::int64_t num(const QJsonValue& v) { return static_cast<std::int64_t>(v.toDouble()); }

// The value of a device's series at the moment right after `seq` (the series value at that
// entry's time is the last point there, so compare through allocatedAfter of the alive set).
std::int64_t aliveBytes(const std::vector<SnapshotAllocationRow>& all, std::int64_t moment) {
    std::int64_t sum = 0;
    for (std::size_t i : aliveAt(all, moment)) sum += all[i].requestedSize;
    return sum;
}

} // namespace

class TestSnapshot : public QObject {
    Q_OBJECT
private slots:
    void initTestCase();
    void sniffsSnapshotsByContent();
    void matchesOracle_data();
    void matchesOracle();
    void realSnapshotsMatchOracle_data();
    void realSnapshotsMatchOracle();
    void aliveAllocationsAddUpToAllocatedBytes_data();
    void aliveAllocationsAddUpToAllocatedBytes();
    void allocatorStateAddsUp_data();
    void allocatorStateAddsUp();
    void ringBufferTruncationHasBaseline();
    void entriesWithoutTimesUseEntryNumbers();
    void legacySegmentList();
    void historyBlocksAndLegacyFrees();
    void oomsAndAnnotations();
    void stacksAndSearch();
    void pinnedHostAndUnknownActions();
    void freesFindTheirAllocations();
    void hostileSnapshotsAreRejected_data();
    void hostileSnapshotsAreRejected();
    void truncationAtEveryByteStoresNothing();
    void commandLineWorksOnSnapshots();

private:
    QString file(const char* name) const { return dir_.filePath(name); }
    QTemporaryDir dir_;
};

void TestSnapshot::initTestCase() {
    QVERIFY(dir_.isValid());
    if (memviz::test::python().isEmpty()) MEMVIZ_SKIP_OR_FAIL("no Python interpreter for the generator and oracle scripts");
    const auto r = memviz::test::runProcess(memviz::test::python(), {memviz::test::oracle("make_snapshots.py"), dir_.path()});
    QVERIFY2(r.exitCode == 0, r.err.constData());
    QVERIFY(QFileInfo::exists(file("dict_protocol4.pickle")));
}

void TestSnapshot::sniffsSnapshotsByContent() {
    for (const char* name : {"dict_protocol2.pickle", "dict_protocol4.pickle", "dict_protocol5.pickle",
                             "legacy_segment_list.pickle", "no_time_expandable.pickle"})
        QCOMPARE(QString::fromStdString(detectImporter(file(name).toStdString()).id()), QString(kSnapshotFormatId));
    // Any other pickle is still sent here and gets a clear message.
    const QString other = memviz::test::writeFile(dir_, "other.pkl",
                                                  QByteArray("\x80\x04\x95\x03\x00\x00\x00\x00\x00\x00\x00K\x07.", 14));
    Database db(dir_.filePath("other.memviz").toStdString());
    try {
        importFile(db, other.toStdString(), Progress{});
        QFAIL("a pickle of an int was imported");
    } catch (const ImportError& e) {
        QVERIFY2(QString(e.what()).contains("not a CUDA memory snapshot: the pickle holds an int"), e.what());
    }
}

void TestSnapshot::matchesOracle_data() {
    QTest::addColumn<QString>("name");
    for (const char* n :
         {"dict_protocol2.pickle", "dict_protocol4.pickle", "dict_protocol5.pickle", "ring_truncated.pickle",
          "no_time_expandable.pickle", "history_legacy_free.pickle", "legacy_segment_list.pickle", "host_and_unknown.pickle"})
        QTest::newRow(n) << QString(n);
}

// Every device: counts per action, peak (and when), final, baseline, reserved bytes, segments.
static void compareWithOracle(const QString& path) {
    const QJsonObject expected = oracle(path);
    QVERIFY(!expected.isEmpty());
    const Imported imp = importSnapshot(path);
    const TraceSummary summary = loadSummary(*imp.db, imp.traceId);
    const SnapshotOverview overview = loadSnapshotOverview(*imp.db, imp.traceId);
    QCOMPARE(QString::fromStdString(summary.trace.format), QString(kSnapshotFormatId));
    QCOMPARE(QString::fromStdString(summary.trace.timeKind), expected["time_kind"].toString());
    QCOMPARE(static_cast<qsizetype>(overview.annotations.size()), expected["annotations"].toInteger());
    const QJsonObject devices = expected["devices"].toObject();
    QCOMPARE(static_cast<qsizetype>(summary.devices.size()), devices.size());
    for (const DeviceSummary& d : summary.devices) {
        const QString name = QString::fromStdString(d.name);
        QVERIFY2(devices.contains(name), qPrintable(name));
        const QJsonObject e = devices[name].toObject();
        const SnapshotDeviceStats* st = overview.device(d.device);
        QVERIFY(st);
        QCOMPARE(d.events, num(e["entries"]));
        QCOMPARE(d.allocs, num(e["allocs"]));
        QCOMPARE(d.frees, num(e["frees"]));
        QCOMPARE(d.peakBytes, num(e["peak_bytes"]));
        QCOMPARE(d.peakTimeNs, num(e["peak_time_ns"]));
        QCOMPARE(d.finalBytes, num(e["final_bytes"]));
        QCOMPARE(st->peakSeq, num(e["peak_seq"]));
        QCOMPARE(st->baselineBytes, num(e["baseline_bytes"]));
        QCOMPARE(st->baselineBlocks, num(e["baseline_blocks"]));
        QCOMPARE(st->reservedFinal, num(e["reserved_final"]));
        QCOMPARE(st->reservedInitial, num(e["reserved_initial"]));
        QCOMPARE(st->segments, num(e["segments"]));
        QCOMPARE(st->finalActiveRequested, num(e["active_requested"]));
        QCOMPARE(st->finalActiveBytes, num(e["active_bytes"]));
        QCOMPARE(st->finalPendingRequested, num(e["pending_requested"]));
        QVERIFY2(st->consistent(), qPrintable(name));
        std::int64_t ooms = 0;
        for (const SnapshotOomRow& o : overview.ooms) ooms += o.device == d.device;
        QCOMPARE(ooms, num(e["ooms"]));
        const QJsonObject actions = e["actions"].toObject();
        qsizetype seen = 0;
        for (const auto& [device, count] : overview.actionCounts) {
            if (device != d.device) continue;
            ++seen;
            QCOMPARE(count.second, num(actions[QString::fromStdString(count.first)]));
        }
        QCOMPARE(seen, actions.size());
        // The reserved series ends at the final segments and starts where the oracle says.
        for (const SeriesInfo& s : listSeries(*imp.db, imp.traceId)) {
            if (s.device != d.device) continue;
            if (s.name == "reserved") QCOMPARE(s.vFinal, num(e["reserved_final"]));
            if (s.name == "allocated") QVERIFY(s.vMin >= 0);
        }
    }
}

void TestSnapshot::matchesOracle() {
    QFETCH(QString, name);
    compareWithOracle(file(qPrintable(name)));
}

void TestSnapshot::realSnapshotsMatchOracle_data() {
    QTest::addColumn<QString>("fixture");
    QTest::newRow("magma27_2026") << "pytorch-snapshot/magma27_2026.pickle";
    QTest::newRow("bcrafton_2025") << "pytorch-snapshot/bcrafton_2025.pickle";
}

void TestSnapshot::realSnapshotsMatchOracle() {
    QFETCH(QString, fixture);
    MEMVIZ_REQUIRE_FIXTURE(path, fixture);
    compareWithOracle(path);
    // Numbers from the fixture README, independent of both programs.
    const Imported imp = importSnapshot(path);
    const SnapshotOverview o = loadSnapshotOverview(*imp.db, imp.traceId);
    QCOMPARE(o.devices.size(), std::size_t{1});
    QCOMPARE(o.devices[0].segments, fixture.contains("magma") ? 216 : 96);
    QCOMPARE(o.devices[0].entries, fixture.contains("magma") ? 5163 : 6486);
    if (fixture.contains("bcrafton")) {
        QCOMPARE(o.annotations.size(), std::size_t{2});
        const auto spans = annotationSpans(o.annotations, loadSummary(*imp.db, imp.traceId).trace.durationNs);
        QCOMPARE(spans.size(), std::size_t{1});
        QCOMPARE(QString::fromStdString(spans[0].name), QStringLiteral("Optimizer.step#AdamW.step"));
        QCOMPARE(spans[0].end - spans[0].begin, std::int64_t{(1773270053896695 - 1773270053883781) * 1000});
    }
}

void TestSnapshot::aliveAllocationsAddUpToAllocatedBytes_data() { matchesOracle_data(); }

void TestSnapshot::aliveAllocationsAddUpToAllocatedBytes() {
    QFETCH(QString, name);
    const Imported imp = importSnapshot(file(qPrintable(name)));
    const SnapshotOverview o = loadSnapshotOverview(*imp.db, imp.traceId);
    for (const SnapshotDeviceStats& d : o.devices) {
        const auto all = loadAllocations(*imp.db, imp.traceId, d.device);
        QCOMPARE(aliveBytes(all, d.peakSeq), d.peakBytes);
        QCOMPARE(aliveBytes(all, d.entries - 1), d.finalReplayed);
        QCOMPARE(aliveBytes(all, -1), d.baselineBytes);
        // Largest first.
        const auto alive = aliveAt(all, d.peakSeq);
        for (std::size_t i = 1; i < alive.size(); ++i) QVERIFY(all[alive[i - 1]].requestedSize >= all[alive[i]].requestedSize);
        // At every moment, the series value at that entry's time bounds what the alive set says
        // at the last entry of that time (several entries can share a microsecond).
        for (std::int64_t m = 0; m < d.entries; m += std::max<std::int64_t>(1, d.entries / 25)) {
            const auto t = entryTime(*imp.db, imp.traceId, d.device, m);
            QVERIFY(t.has_value());
            const std::int64_t last = entryAtTime(*imp.db, imp.traceId, d.device, *t);
            QVERIFY(last >= m);
            std::int64_t series = -1;
            for (const SeriesInfo& s : listSeries(*imp.db, imp.traceId))
                if (s.device == d.device && s.name == "allocated") series = seriesValueAt(*imp.db, s.id, *t).value_or(-1);
            QCOMPARE(aliveBytes(all, last), series);
        }
    }
}

void TestSnapshot::allocatorStateAddsUp_data() {
    QTest::addColumn<QString>("name");
    for (const char* n : {"dict_protocol4.pickle", "ring_truncated.pickle", "no_time_expandable.pickle",
                          "history_legacy_free.pickle", "legacy_segment_list.pickle"})
        QTest::newRow(n) << QString(n);
}

void TestSnapshot::allocatorStateAddsUp() {
    QFETCH(QString, name);
    const Imported imp = importSnapshot(file(qPrintable(name)));
    const SnapshotOverview o = loadSnapshotOverview(*imp.db, imp.traceId);
    for (const SnapshotDeviceStats& d : o.devices) {
        const auto all = loadAllocations(*imp.db, imp.traceId, d.device);
        // At the end: exactly the final segments.
        const AllocatorState end = allocatorStateAt(*imp.db, imp.traceId, d.device, d.entries - 1, all);
        QCOMPARE(end.figures.reserved, d.reservedFinal);
        QCOMPARE(end.figures.allocated + end.figures.pendingFree >= d.finalActiveRequested, true);
        QCOMPARE(end.figures.requested, d.finalActiveRequested);
        QCOMPARE(end.figures.blocksOutsideSegments, std::int64_t{0});
        // Before the first entry: the initial reserved bytes; at every moment the blocks'
        // requested bytes are the allocated bytes then, and every block lies in a segment.
        const AllocatorState start = allocatorStateAt(*imp.db, imp.traceId, d.device, -1, all);
        QCOMPARE(start.figures.reserved, d.reservedInitial);
        for (std::int64_t m = -1; m < d.entries; m += std::max<std::int64_t>(1, d.entries / 20)) {
            const AllocatorState s = allocatorStateAt(*imp.db, imp.traceId, d.device, m, all);
            std::int64_t requested = 0;
            for (const StateSegment& seg : s.segments)
                for (const StateBlock& b : seg.blocks) {
                    requested += b.requestedSize;
                    QVERIFY(b.address >= seg.address && b.address + b.size <= seg.address + seg.size);
                }
            QCOMPARE(requested, aliveBytes(all, m));
            QCOMPARE(s.figures.blocksOutsideSegments, std::int64_t{0});
            QVERIFY(s.figures.free >= 0);
            QVERIFY(s.figures.inactiveSplit <= s.figures.free);
        }
    }
}

void TestSnapshot::ringBufferTruncationHasBaseline() {
    const Imported imp = importSnapshot(file("ring_truncated.pickle"));
    const SnapshotOverview o = loadSnapshotOverview(*imp.db, imp.traceId);
    const SnapshotDeviceStats& d = o.devices.at(0);
    QVERIFY(d.baselineBytes > 0);
    QVERIFY(d.baselineFreedBlocks > 0);                // freed in the trace, alloc dropped
    QVERIFY(d.baselineBlocks > d.baselineFreedBlocks); // alive at the end, alloc dropped
    for (const SeriesInfo& s : listSeries(*imp.db, imp.traceId))
        if (s.name == "allocated") QVERIFY(s.vMin >= 0);
    // Without the baseline the replay would go negative: the trace frees more than it allocates
    // at first.
    const auto all = loadAllocations(*imp.db, imp.traceId, 0);
    std::int64_t running = 0, lowest = 0;
    const std::vector<Event> entries = loadEntries(*imp.db, imp.traceId, 0, 0);
    for (const Event& e : entries) {
        if (e.kind == EventKind::Alloc) running += e.size;
        if (e.kind == EventKind::Free) running -= e.size;
        lowest = std::min(lowest, running);
    }
    QVERIFY(lowest < 0);
    QVERIFY(-lowest <= d.baselineBytes);
    const TraceSummary summary = loadSummary(*imp.db, imp.traceId);
    bool warned = false;
    for (const ImportWarning& w : summary.warnings) warned |= w.kind == "pre_existing_allocations";
    QVERIFY(warned);
}

void TestSnapshot::entriesWithoutTimesUseEntryNumbers() {
    const Imported imp = importSnapshot(file("no_time_expandable.pickle"));
    const TraceSummary s = loadSummary(*imp.db, imp.traceId);
    QCOMPARE(QString::fromStdString(s.trace.timeKind), QStringLiteral("index"));
    QCOMPARE(s.trace.durationNs, s.devices.at(0).events - 1);
    QVERIFY(!s.trace.epochNs.has_value());
    QCOMPARE(entryAtTime(*imp.db, imp.traceId, 0, 17), std::int64_t{17});
    QCOMPARE(entryAtTime(*imp.db, imp.traceId, 0, 1000000), s.devices.at(0).events - 1);
    const SnapshotOverview o = loadSnapshotOverview(*imp.db, imp.traceId);
    bool maps = false, unmaps = false;
    for (const auto& [device, count] : o.actionCounts) {
        maps |= count.first == "segment_map";
        unmaps |= count.first == "segment_unmap";
    }
    QVERIFY(maps && unmaps);
}

void TestSnapshot::legacySegmentList() {
    const QString path = file("legacy_segment_list.pickle");
    const Imported imp = importSnapshot(path);
    const SnapshotOverview o = loadSnapshotOverview(*imp.db, imp.traceId);
    QCOMPARE(o.devices.size(), std::size_t{1});
    QCOMPARE(o.devices[0].entries, std::int64_t{0});
    QCOMPARE(o.devices[0].baselineBytes, o.devices[0].finalReplayed);
    // Blocks have no address in this layout: each starts where the one before ended.
    const auto segments = loadSegments(*imp.db, imp.traceId, 0);
    const auto blocks = loadBlocks(*imp.db, imp.traceId, 0);
    QVERIFY(!blocks.empty());
    for (const SnapshotSegmentRow& seg : segments) {
        std::int64_t cursor = seg.address, total = 0;
        for (const SnapshotBlockRow& b : blocks) {
            if (b.segmentAddress != seg.address) continue;
            QCOMPARE(b.address, cursor);
            cursor += b.size;
            total += b.size;
        }
        QCOMPARE(total, seg.totalSize);
    }
    // Requested sizes come from history[0].real_size: not all are the rounded block sizes.
    bool unrounded = false;
    for (const SnapshotBlockRow& b : blocks)
        if (b.state == "active_allocated") unrounded |= b.requestedSize != b.size;
    QVERIFY(unrounded);
    QCOMPARE(QString::fromStdString(o.snapshotInfo.at(0).second), QStringLiteral("segment list (2022)"));
}

void TestSnapshot::historyBlocksAndLegacyFrees() {
    const Imported imp = importSnapshot(file("history_legacy_free.pickle"));
    const SnapshotOverview o = loadSnapshotOverview(*imp.db, imp.traceId);
    bool legacyFree = false;
    for (const auto& [device, count] : o.actionCounts) legacyFree |= count.first == "free";
    QVERIFY(legacyFree);
    QVERIFY(o.devices[0].consistent());
    // Frames came from history[0].frames: the alive blocks at the end have stacks.
    const auto blocks = loadBlocks(*imp.db, imp.traceId, 0);
    bool withStack = false;
    for (const SnapshotBlockRow& b : blocks) withStack |= b.state == "active_allocated" && b.stack >= 0;
    QVERIFY(withStack);
    // Undoing a legacy free brings back an allocated block, not a pending-free one.
    const auto all = loadAllocations(*imp.db, imp.traceId, 0);
    const AllocatorState s = allocatorStateAt(*imp.db, imp.traceId, 0, o.devices[0].peakSeq, all);
    QCOMPARE(s.figures.pendingFree, std::int64_t{0});
}

void TestSnapshot::oomsAndAnnotations() {
    const Imported imp = importSnapshot(file("dict_protocol4.pickle"));
    const SnapshotOverview o = loadSnapshotOverview(*imp.db, imp.traceId);
    QCOMPARE(o.ooms.size(), std::size_t{2});
    // The generator writes OOMs after steps 119 and 239 with device_free = 123 MiB + step.
    QCOMPARE(o.ooms[0].deviceFreeBytes.value_or(-1), std::int64_t{123 * 1048576 + 119});
    QCOMPARE(o.ooms[1].deviceFreeBytes.value_or(-1), std::int64_t{123 * 1048576 + 239});
    QCOMPARE(o.ooms[0].requestedBytes, std::int64_t{40} * 1024 * 1048576);
    const TraceSummary summary = loadSummary(*imp.db, imp.traceId);
    const auto spans = annotationSpans(o.annotations, summary.trace.durationNs);
    QCOMPARE(spans.size(), std::size_t{2});
    QCOMPARE(QString::fromStdString(spans[0].name), QStringLiteral("forward"));
    QCOMPARE(spans[0].end - spans[0].begin, std::int64_t{1900 * 1000});
    QVERIFY(!spans[0].open);
    QVERIFY(spans[1].open);
    QCOMPARE(spans[1].end, summary.trace.durationNs);
    // Allocator settings are kept, nested ones flattened.
    std::map<std::string, std::string> settings(o.allocatorSettings.begin(), o.allocatorSettings.end());
    QCOMPARE(QString::fromStdString(settings["max_split_size"]), QStringLiteral("-1"));
    QCOMPARE(QString::fromStdString(settings["roundup_power2_divisions.4"]), QStringLiteral("0"));
    QCOMPARE(QString::fromStdString(settings["PYTORCH_CUDA_ALLOC_CONF"]), QStringLiteral("expandable_segments:False"));
}

void TestSnapshot::stacksAndSearch() {
    const Imported imp = importSnapshot(file("dict_protocol4.pickle"));
    const StackCatalog c = loadStackCatalog(*imp.db, imp.traceId);
    // The generator uses 5 distinct frames and 4 distinct stacks (segment entries: the 3rd).
    QCOMPARE(c.frames.size(), std::size_t{5});
    QCOMPARE(c.stacks.size(), std::size_t{4});
    const auto matches = c.stacksMatching("OPTIM.PY");
    QCOMPARE(matches.size(), std::size_t{1});
    const std::int32_t s = *matches.begin();
    QCOMPARE(QString::fromStdString(c.siteOf(s)), QStringLiteral("step (optim.py:12)"));
    QCOMPARE(c.framesOf(s).size(), std::size_t{3});
    QCOMPARE(QString::fromStdString(c.framesOf(s)[0].filename), QStringLiteral("??"));
    // Sites name the operator column: innermost Python frame.
    const auto ops = memviz::test::runMemviz({"ops", file("dict_protocol4.pickle"), "--json"});
    QCOMPARE(ops.exitCode, 0);
    QVERIFY(ops.out.contains("forward (linear.py:125)"));
}

void TestSnapshot::pinnedHostAndUnknownActions() {
    const Imported imp = importSnapshot(file("host_and_unknown.pickle"));
    const TraceSummary s = loadSummary(*imp.db, imp.traceId);
    QCOMPARE(s.devices.size(), std::size_t{2});
    QCOMPARE(QString::fromStdString(s.devices[1].name), QStringLiteral("pinned host"));
    bool warned = false;
    for (const ImportWarning& w : s.warnings)
        warned |= w.kind == "unknown_action" && w.message.find("user_defined") != std::string::npos;
    QVERIFY(warned);
}

// The builder matches frees to allocations again while it emits (it keeps no per-entry index):
// an alloc over a live address, a free whose alloc the trace lacks, a double free and a time
// that goes backwards, in one trace. Expectations worked out by hand below.
void TestSnapshot::freesFindTheirAllocations() {
    const QByteArray python =
        "e=lambda a,addr,size,t: {'action':a,'addr':addr,'size':size,'stream':0,'time_us':t,'frames':[]}\n"
        "seg={'device':0,'address':4096,'total_size':2097152,'allocated_size':512,'active_size':512,"
        "'requested_size':120,'stream':0,'segment_type':'large','segment_pool_id':(0,0),'is_expandable':False,'frames':[],"
        "'blocks':[{'address':12288,'size':512,'requested_size':120,'state':'active_allocated','frames':[]}]}\n"
        "snap={'segments':[seg],'device_traces':[[e('alloc',4096,100,10),e('alloc',4096,200,20),"
        "e('free_completed',8192,50,15),e('free_completed',4096,200,30),e('free_completed',4096,200,40),"
        "e('alloc',12288,120,50)]]}\n";
    const QString script = memviz::test::writeFile(
        dir_, "frees.py", "import pickle, sys\n" + python + "pickle.dump(snap, open(sys.argv[1], 'wb'), protocol=4)\n");
    const QString path = dir_.filePath("frees.pickle");
    const auto made = memviz::test::runProcess(memviz::test::python(), {script, path});
    QVERIFY2(made.exitCode == 0, made.err.constData());
    const Imported imp = importSnapshot(path);

    // Times: t0 = 10 us; entry 2 (15 us) comes after entry 1 (20 us), so it is drawn at 20 us.
    // Allocated bytes: baseline 50 (entry 2 frees what was allocated before the trace);
    // 0: 50+100 = 150; 1: the alloc displaces the 100 and adds 200 = 250 (the peak);
    // 2: 250-50 = 200; 3: 200-200 = 0; 4: a double free, ignored = 0; 5: 0+120 = 120.
    const SnapshotOverview o = loadSnapshotOverview(*imp.db, imp.traceId);
    const SnapshotDeviceStats& d = o.devices.at(0);
    QCOMPARE(d.baselineBytes, std::int64_t{50});
    QCOMPARE(d.baselineFreedBlocks, std::int64_t{1});
    QCOMPARE(d.peakSeq, std::int64_t{1});
    QCOMPARE(d.peakBytes, std::int64_t{250});
    QCOMPARE(d.finalReplayed, std::int64_t{120});
    std::int64_t allocated = -1;
    for (const SeriesInfo& s : listSeries(*imp.db, imp.traceId))
        if (s.name == "allocated") allocated = s.id;
    QVERIFY(allocated >= 0);
    const std::pair<std::int64_t, std::int64_t> expected[] = {{0, 150}, {10000, 200}, {20000, 0}, {30000, 0}, {40000, 120}};
    for (const auto& [t, v] : expected) QCOMPARE(seriesValueAt(*imp.db, allocated, t), std::optional<std::int64_t>(v));

    const std::vector<Event> entries = loadEntries(*imp.db, imp.traceId, 0, 0);
    QCOMPARE(entries.size(), std::size_t{6});
    const std::int64_t times[] = {0, 10000, 10000, 20000, 30000, 40000};
    for (std::size_t k = 0; k < 6; ++k) QCOMPARE(entries[k].timeNs, times[k]);
    QCOMPARE(entries[2].size, std::int64_t{50});
    QCOMPARE(entries[2].flags, std::uint8_t{kFlagPreexisting});
    QCOMPARE(entries[3].size, std::int64_t{200});
    QCOMPARE(entries[3].flags, std::uint8_t{kFlagNone});
    QCOMPARE(entries[4].size, std::int64_t{0});
    QCOMPARE(entries[4].flags, std::uint8_t{kFlagUnmatched});

    // In the order the replay meets them: the displaced alloc, its successor, the pre-existing
    // one (at its free), the one alive at the end (its block: 512 bytes).
    const auto all = loadAllocations(*imp.db, imp.traceId, 0);
    QCOMPARE(all.size(), std::size_t{4});
    QCOMPARE(all[0].requestedSize, std::int64_t{100});
    QCOMPARE(all[0].freeSeq, std::optional<std::int64_t>(1));
    QCOMPARE(all[0].tFree, std::optional<std::int64_t>(10000));
    QCOMPARE(all[1].requestedSize, std::int64_t{200});
    QCOMPARE(all[1].allocSeq, std::int64_t{1});
    QCOMPARE(all[1].freeSeq, std::optional<std::int64_t>(3));
    QCOMPARE(all[1].tFree, std::optional<std::int64_t>(20000));
    QCOMPARE(all[2].address, std::int64_t{8192});
    QCOMPARE(all[2].allocSeq, std::int64_t{-1});
    QCOMPARE(all[2].freeSeq, std::optional<std::int64_t>(2));
    QCOMPARE(all[2].tFree, std::optional<std::int64_t>(10000)); // drawn at 20 us, not 15
    QCOMPARE(all[2].origin, 1);
    QCOMPARE(all[3].allocSeq, std::int64_t{5});
    QCOMPARE(all[3].tAlloc, std::optional<std::int64_t>(40000));
    QVERIFY(!all[3].freeSeq.has_value());
    QCOMPARE(all[3].blockSize, std::optional<std::int64_t>(512));

    QStringList kinds;
    for (const ImportWarning& w : loadSummary(*imp.db, imp.traceId).warnings) kinds << QString::fromStdString(w.kind);
    for (const char* k : {"alloc_over_live", "double_free", "out_of_order_time", "pre_existing_allocations"})
        QVERIFY2(kinds.contains(k), qPrintable(kinds.join(' ')));
}

void TestSnapshot::hostileSnapshotsAreRejected_data() {
    QTest::addColumn<QByteArray>("python"); // builds `snap`
    QTest::addColumn<QString>("expected");
    const QByteArray base =
        "e=lambda **k: dict({'action':'alloc','addr':4096,'size':512,'stream':0,'time_us':5,'frames':[]}, **k)\n"
        "seg={'device':0,'address':4096,'total_size':2097152,'allocated_size':0,'active_size':0,"
        "'requested_size':0,'stream':0,'segment_type':'large','segment_pool_id':(0,0),"
        "'is_expandable':False,'frames':[],'blocks':[]}\n";
    QTest::newRow("size is a str") << base + "snap={'segments':[seg],'device_traces':[[e(),e(size='12')]]}"
                                   << "device_traces[0][1]: 'size' is a str, not an int";
    QTest::newRow("negative size") << base + "snap={'segments':[seg],'device_traces':[[e(size=-5)]]}"
                                   << "device_traces[0][0]: 'size' is out of range (-5; expected 0 to 2^63 - 1)";
    QTest::newRow("alloc without addr") << base + "x=e(); del x['addr']\nsnap={'segments':[seg],'device_traces':[[x]]}"
                                        << "device_traces[0][0]: a 'alloc' entry without 'addr'";
    QTest::newRow("entry is a list") << base + "snap={'segments':[seg],'device_traces':[[e(),[1,2]]]}"
                                     << "device_traces[0][1]: an entry that is a list, not a dict";
    QTest::newRow("frame is a str") << base + "snap={'segments':[seg],'device_traces':[[e(frames=['f'])]]}"
                                    << "device_traces[0][0].frames[0]: a frame that is not a dict";
    QTest::newRow("segment without blocks") << base + "s=dict(seg); del s['blocks']\nsnap={'segments':[s],'device_traces':[]}"
                                            << "segments[0]: a segment without 'blocks'";
    QTest::newRow("bytes overflow") << base + "snap={'segments':[seg],'device_traces':[[e(size=2**62),e(addr=1,size=2**62)]]}"
                                    << "allocated bytes overflow 64 bits";
    QTest::newRow("time overflow") << base + "snap={'segments':[seg],'device_traces':[[e(time_us=0),e(time_us=2**62)]]}"
                                   << "device_traces[0][1]: time_us 4611686018427387904 is out of range";
    QTest::newRow("int wider than 64 bits") << base + "snap={'segments':[seg],'device_traces':[[e(addr=2**70)]]}"
                                            << "integer wider than 64 bits";
    QTest::newRow("dict without segments") << QByteArray("snap={'device_traces':[]}") << "without 'segments'";
    QTest::newRow("GLOBAL inside a snapshot")
        << base + "import collections\nsnap={'segments':[seg],'device_traces':[[e(frames=collections.OrderedDict())]]}"
        << "forbidden opcode";
    QTest::newRow("REDUCE inside a snapshot") << base + "class R:\n  def __reduce__(self): return (print, "
                                                        "('pwned',))\nsnap={'segments':[seg],'device_traces':[[e(frames=R())]]}"
                                              << "forbidden opcode STACK_GLOBAL";
}

void TestSnapshot::hostileSnapshotsAreRejected() {
    QFETCH(QByteArray, python);
    QFETCH(QString, expected);
    const QString script = memviz::test::writeFile(
        dir_, "hostile.py", "import pickle, sys\n" + python + "\npickle.dump(snap, open(sys.argv[1], 'wb'), protocol=4)\n");
    const QString path = dir_.filePath("hostile.pickle");
    const auto made = memviz::test::runProcess(memviz::test::python(), {script, path});
    QVERIFY2(made.exitCode == 0, made.err.constData());
    const QString store = dir_.filePath("hostile.memviz");
    QFile::remove(store);
    { Database init(store.toStdString()); }
    const QByteArray before = memviz::test::storePagesHash(store);
    try {
        Database db(store.toStdString());
        importFile(db, path.toStdString(), Progress{});
        QFAIL("the hostile snapshot was imported");
    } catch (const ImportError& e) {
        QVERIFY2(QString(e.what()).contains(expected), e.what());
    }
    QCOMPARE(memviz::test::storePagesHash(store), before);
    Database db(store.toStdString(), Database::Mode::ReadOnly);
    QVERIFY(listTraces(db).empty());
}

void TestSnapshot::truncationAtEveryByteStoresNothing() {
    const QByteArray full = memviz::test::readFile(file("legacy_segment_list.pickle"));
    QVERIFY(full.size() > 1000);
    const QString store = dir_.filePath("cut.memviz");
    QFile::remove(store);
    { Database init(store.toStdString()); }
    const QByteArray before = memviz::test::storePagesHash(store);
    {
        Database db(store.toStdString());
        for (qsizetype n = 1; n < full.size(); ++n) {
            const QString path = memviz::test::writeFile(dir_, "cut.pickle", full.left(n));
            bool rejected = false;
            try {
                importFile(db, path.toStdString(), Progress{}, kSnapshotFormatId);
            } catch (const ImportError&) {
                rejected = true;
            }
            QVERIFY2(rejected, qPrintable(QString("cut at byte %1 was imported").arg(n)));
        }
        QVERIFY(listTraces(db).empty());
    }
    QCOMPARE(memviz::test::storePagesHash(store), before);
}

void TestSnapshot::commandLineWorksOnSnapshots() {
    const QString path = file("dict_protocol4.pickle");
    const auto summary = memviz::test::runMemviz({"summary", path, "--json"});
    QCOMPARE(summary.exitCode, 0);
    const QJsonObject s = QJsonDocument::fromJson(summary.out).object();
    QCOMPARE(s["format"].toString(), QString(kSnapshotFormatId));
    const QJsonObject expected = oracle(path)["devices"].toObject()["cuda:0"].toObject();
    QCOMPARE(num(s["devices"].toArray()[0].toObject()["peak_bytes"]), num(expected["peak_bytes"]));
    const QString db = dir_.filePath("cli.memviz");
    const auto imported = memviz::test::runMemviz({"import", path, "--db", db});
    QCOMPARE(imported.exitCode, 0);
    const auto formats = memviz::test::runMemviz({"formats"});
    QVERIFY(formats.out.contains(kSnapshotFormatId));
    const auto bad = memviz::test::runMemviz({"summary", memviz::test::writeFile(dir_, "bad.pickle",
                                                                                 "\x80\x04"
                                                                                 "cos\nsystem\n.")});
    QCOMPARE(bad.exitCode, 1);
    QVERIFY2(bad.err.contains("forbidden opcode GLOBAL"), bad.err.constData());
}

QTEST_MAIN(TestSnapshot)
#include "tst_snapshot.moc"

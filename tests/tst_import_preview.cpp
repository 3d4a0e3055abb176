// SPDX-License-Identifier: MIT
// The live preview of an import (issue 12): the snapshot reader's running allocated and
// reserved bytes on a small hand-written snapshot (every number worked out by hand below), the
// downsampling's bounds (maximum and last value against a direct scan of the input), and the
// import worker's `preview` lines, including bad ones.
#include <QtTest>
#include <algorithm>
#include <random>

#include "TestSupport.h"
#include "core/PreviewCurve.h"
#include "core/PreviewSink.h"
#include "core/Progress.h"
#include "formats/FormatIds.h"
#include "formats/FormatRegistry.h"
#include "formats/ImportWorkerProtocol.h"
#include "store/Database.h"
#include "store/TraceQueries.h"

using namespace memviz;

namespace {

// What an importer sent, in order.
struct Recorder : PreviewSink {
    std::vector<PreviewBatch> batches;
    int restarts = 0;
    void preview(const PreviewBatch& b) override { batches.push_back(b); }
    void restart() override {
        ++restarts;
        batches.clear();
    }
    std::vector<PreviewPoint> points(const std::string& device) const {
        std::vector<PreviewPoint> out;
        for (const PreviewBatch& b : batches)
            if (b.device == device) out.insert(out.end(), b.points.begin(), b.points.end());
        return out;
    }
    const PreviewBatch* lastOf(const std::string& device) const {
        const PreviewBatch* last = nullptr;
        for (const PreviewBatch& b : batches)
            if (b.device == device) last = &b;
        return last;
    }
};

constexpr std::int64_t MiB2 = 2097152;

} // namespace

class TestImportPreview : public QObject {
    Q_OBJECT
private slots:
    void initTestCase();
    void runningSumsOfHandWrittenSnapshot();
    void untimedSnapshotUsesEntryNumbers();
    void bigSnapshotPreviewEndsAtTheImportedValues();
    void noSinkNoPreview();
    void curveKeepsMaxAndLastWithinBound();
    void streamSendsFewBucketsWithMaxAndLast();
    void protocolRoundTrip();
    void protocolRejectsBadLines();

private:
    QString make(const QString& name, const QString& python);
    Recorder importWithPreview(const QString& path, TraceSummary* summary = nullptr);
    QTemporaryDir dir_;
};

void TestImportPreview::initTestCase() {
    QVERIFY(dir_.isValid());
    if (memviz::test::python().isEmpty()) MEMVIZ_SKIP_OR_FAIL("no Python interpreter to write the snapshots");
}

QString TestImportPreview::make(const QString& name, const QString& python) {
    const QString script = memviz::test::writeFile(
        dir_, name + ".py",
        ("import pickle, sys\n" + python + "\npickle.dump(snap, open(sys.argv[1], 'wb'), protocol=4)\n").toUtf8());
    const QString path = dir_.filePath(name + ".pickle");
    const auto made = memviz::test::runProcess(memviz::test::python(), {script, path});
    if (made.exitCode != 0) qWarning("%s", made.err.constData());
    return path;
}

Recorder TestImportPreview::importWithPreview(const QString& path, TraceSummary* summary) {
    Recorder rec;
    const QString store = path + ".memviz";
    QFile::remove(store);
    Database db(store.toStdString());
    {
        const ScopedPreviewSink scope(&rec);
        importFile(db, path.toStdString(), Progress{}, format_id::kSnapshot);
    }
    if (summary) *summary = loadSummary(db, listTraces(db).at(0).id);
    return rec;
}

// cuda:0's trace, after each entry (allocated relative to the base, reserved relative to the
// base; the bases are worked out at the end):
//  #  time action          addr     size     allocated  reserved  why
//  0  100  free_completed  0x5000   200      -200       0         alloc not in the trace: 200 pre-existing
//  1  110  segment_alloc   0x0      2 MiB    -200       2 MiB
//  2  120  alloc           0x1000   1000      800       2 MiB
//  3  130  alloc           0x2000   500      1300       2 MiB
//  4  140  free_requested  0x2000   500      1300       2 MiB     only free_completed frees
//  5  150  free_completed  0x2000   500       800       2 MiB
//  6  160  free_completed  0x2000   500       800       2 MiB     freed already: ignored
//  7  155  alloc           0x3000   700      1500       2 MiB     time goes back: drawn at 160
//  8  170  alloc           0x3000   100       900       2 MiB     over a live one: 700 freed first
//  9  180  segment_alloc   0x400000 2 MiB     900       4 MiB
// 10  190  free_completed  0x3000   100       800       4 MiB
// 11  200  segment_free    0x400000 2 MiB     800       2 MiB
// Final segments: 0x0 (2 MiB, block 0x1000 of 1000 bytes, alive: the alloc of #2) and 0x800000
// (2 MiB, never in the trace, block 0x800100 of 300 bytes: allocated before the trace).
// Allocated base = 200 + 300 = 500; reserved base = 4 MiB at the end - 2 MiB added = 2 MiB.
// So allocated ends at 500 + 800 = 1300 (= the 1000 + 300 of the final blocks), peaks at
// 500 + 1500 = 2000 at #7; reserved ends at 4 MiB and peaks at 6 MiB.
// cuda:1: alloc 64 at t=105, its free at t=115: 0 -> 64 -> 0, bases 0 and 0.
void TestImportPreview::runningSumsOfHandWrittenSnapshot() {
    const QString path = make(
        "hand",
        "def e(a, addr, size, t): return {'action': a, 'addr': addr, 'size': size, 'stream': 0, 'time_us': t, 'frames': []}\n"
        "def blk(addr, size, req): return {'address': addr, 'size': size, 'requested_size': req, 'state': 'active_allocated', "
        "'frames': []}\n"
        "def seg(addr, blocks): return {'device': 0, 'address': addr, 'total_size': 2097152, 'allocated_size': 0, 'active_size': "
        "0,"
        " 'requested_size': 0, 'stream': 0, 'segment_type': 'large', 'segment_pool_id': (0, 0), 'is_expandable': False,"
        " 'frames': [], 'blocks': blocks}\n"
        "t0 = [e('free_completed', 0x5000, 200, 100), e('segment_alloc', 0, 2097152, 110), e('alloc', 0x1000, 1000, 120),"
        " e('alloc', 0x2000, 500, 130), e('free_requested', 0x2000, 500, 140), e('free_completed', 0x2000, 500, 150),"
        " e('free_completed', 0x2000, 500, 160), e('alloc', 0x3000, 700, 155), e('alloc', 0x3000, 100, 170),"
        " e('segment_alloc', 0x400000, 2097152, 180), e('free_completed', 0x3000, 100, 190), e('segment_free', 0x400000, "
        "2097152, 200)]\n"
        "t1 = [e('alloc', 0x10, 64, 105), e('free_completed', 0x10, 64, 115)]\n"
        "snap = {'segments': [seg(0, [blk(0x1000, 1024, 1000)]), seg(0x800000, [blk(0x800100, 512, 300)])],"
        " 'device_traces': [t0, t1]}");
    TraceSummary summary;
    const Recorder rec = importWithPreview(path, &summary);
    QCOMPARE(rec.restarts, 0);

    const std::vector<PreviewPoint> expected0 = {{100, 0, 0},       {100, -200, 0},    {110, -200, MiB2},    {120, 800, MiB2},
                                                 {130, 1300, MiB2}, {140, 1300, MiB2}, {150, 800, MiB2},     {160, 800, MiB2},
                                                 {160, 1500, MiB2}, {170, 900, MiB2},  {180, 900, 2 * MiB2}, {190, 800, 2 * MiB2},
                                                 {200, 800, MiB2}};
    const auto got0 = rec.points("cuda:0");
    QCOMPARE(got0.size(), expected0.size());
    for (std::size_t i = 0; i < expected0.size(); ++i) {
        if (got0[i] == expected0[i]) continue;
        QFAIL(
            qPrintable(QString("point %1: got (%2, %3, %4)").arg(i).arg(got0[i].x).arg(got0[i].allocated).arg(got0[i].reserved)));
    }
    // While streaming, the bases were what was known so far (200 pre-existing freed, reserved
    // never below 0); the builder's batch made them exact.
    QCOMPARE(rec.batches.front().allocatedBase, 200);
    QCOMPARE(rec.batches.front().reservedBase, 0);
    const PreviewBatch* last0 = rec.lastOf("cuda:0");
    QVERIFY(last0);
    QCOMPARE(last0->axis, PreviewAxis::TimeUs);
    QCOMPARE(last0->allocatedBase, 500);
    QCOMPARE(last0->reservedBase, MiB2);
    QCOMPARE(last0->allocatedBase + got0.back().allocated, 1300);
    QCOMPARE(last0->reservedBase + got0.back().reserved, 2 * MiB2);
    std::int64_t peak = 0, peakReserved = 0;
    for (const PreviewPoint& p : got0) {
        peak = std::max(peak, last0->allocatedBase + p.allocated);
        peakReserved = std::max(peakReserved, last0->reservedBase + p.reserved);
    }
    QCOMPARE(peak, 2000);
    QCOMPARE(peakReserved, 3 * MiB2);

    const std::vector<PreviewPoint> expected1 = {{105, 0, 0}, {105, 64, 0}, {115, 0, 0}};
    QVERIFY(rec.points("cuda:1") == expected1);
    QCOMPARE(rec.lastOf("cuda:1")->allocatedBase, 0);
    QCOMPARE(rec.lastOf("cuda:1")->reservedBase, 0);

    // And the imported timeline agrees with the hand calculation.
    QCOMPARE(summary.devices.size(), std::size_t{2});
    QCOMPARE(summary.devices[0].peakBytes, 2000);
    QCOMPARE(summary.devices[0].finalBytes, 1300);
}

// Without time_us the importer counts entries: so does the preview (x = the entry's number).
void TestImportPreview::untimedSnapshotUsesEntryNumbers() {
    const QString path = make(
        "untimed", "def e(a, addr, size): return {'action': a, 'addr': addr, 'size': size, 'stream': 0, 'frames': []}\n"
                   "snap = {'segments': [], 'device_traces': [[e('alloc', 0x10, 64), e('alloc', 0x20, 32),"
                   " e('free_completed', 0x10, 64)]]}");
    const Recorder rec = importWithPreview(path);
    const std::vector<PreviewPoint> expected = {{0, 0, 0}, {0, 64, 0}, {1, 96, 0}, {2, 32, 0}};
    QVERIFY(rec.points("cuda:0") == expected);
    QCOMPARE(rec.lastOf("cuda:0")->axis, PreviewAxis::Index);
}

// A generated snapshot of 30,000 entries (downsampled: fewer points than entries): the
// preview's last point and maximum are the imported trace's end value and peak.
void TestImportPreview::bigSnapshotPreviewEndsAtTheImportedValues() {
    const QString path = dir_.filePath("big.pickle");
    const auto r = memviz::test::runProcess(
        memviz::test::python(),
        {QStringLiteral(MEMVIZ_SOURCE_DIR) + "/tools/bench-snapshot/make_big_snapshot.py", path, "--entries", "30000"});
    QVERIFY2(r.exitCode == 0, r.err.constData());
    TraceSummary summary;
    const Recorder rec = importWithPreview(path, &summary);
    const auto points = rec.points("cuda:0");
    QVERIFY2(points.size() < 30000 / 2, qPrintable(QString::number(points.size())));
    const PreviewBatch* last = rec.lastOf("cuda:0");
    std::int64_t peak = 0;
    for (const PreviewPoint& p : points) peak = std::max(peak, last->allocatedBase + p.allocated);
    QCOMPARE(last->allocatedBase + points.back().allocated, summary.devices.at(0).finalBytes);
    QCOMPARE(peak, summary.devices.at(0).peakBytes);
}

void TestImportPreview::noSinkNoPreview() {
    QCOMPARE(previewSink(), nullptr);
    Recorder outer, inner;
    {
        const ScopedPreviewSink a(&outer);
        QCOMPARE(previewSink(), &outer);
        {
            const ScopedPreviewSink b(&inner);
            QCOMPARE(previewSink(), &inner);
        }
        QCOMPARE(previewSink(), &outer);
    }
    QCOMPARE(previewSink(), nullptr);
}

namespace {

std::vector<PreviewPoint> randomWalk(std::size_t n) {
    std::mt19937_64 rnd(7);
    std::vector<PreviewPoint> v;
    std::int64_t a = 0, r = 0, x = 0;
    for (std::size_t i = 0; i < n; ++i) {
        a += static_cast<std::int64_t>(rnd() % 2001) - 1000;
        if (rnd() % 100 == 0) r += static_cast<std::int64_t>(rnd() % 4001) - 1000;
        x += static_cast<std::int64_t>(rnd() % 3);
        v.push_back({x, a, r});
    }
    return v;
}

} // namespace

void TestImportPreview::curveKeepsMaxAndLastWithinBound() {
    for (const std::size_t n : {std::size_t{1}, std::size_t{5}, std::size_t{1000}, std::size_t{1000000}}) {
        const auto input = randomWalk(n);
        PreviewCurve curve(512);
        for (const PreviewPoint& p : input) curve.add(p);
        const auto points = curve.points();
        QVERIFY2(points.size() <= 2 * 512, qPrintable(QString::number(points.size())));
        const auto maxA = std::max_element(input.begin(), input.end(),
                                           [](auto& l, auto& r) { return l.allocated < r.allocated; });
        const auto maxR = std::max_element(input.begin(), input.end(), [](auto& l, auto& r) { return l.reserved < r.reserved; });
        std::int64_t gotA = points.front().allocated, gotR = points.front().reserved;
        for (std::size_t i = 0; i < points.size(); ++i) {
            gotA = std::max(gotA, points[i].allocated);
            gotR = std::max(gotR, points[i].reserved);
            if (i) QVERIFY(points[i - 1].x <= points[i].x);
        }
        QCOMPARE(gotA, maxA->allocated);
        QCOMPARE(gotR, maxR->reserved);
        QCOMPARE(curve.maxAllocated(), maxA->allocated);
        QVERIFY(points.back() == input.back());
        // The maximum is drawn where it happened (the first time, on ties).
        const auto atMax = std::find_if(points.begin(), points.end(), [&](auto& p) { return p.allocated == maxA->allocated; });
        QCOMPARE(atMax->x, maxA->x);
    }
    // Cells of equal width on the x axis: a dense start and a sparse end (as a sender whose
    // buckets grow sends them) end up at the same resolution. 100,000 points at x = 0..99,999
    // then 1,000 at x = 100,000, 200,000, ... 100,000,000: 64 cells over 0..100,000,000 are
    // 2^21 wide (the least power of two that makes at most 64 of them), so x < 2^21 is one cell.
    PreviewCurve curve(64);
    for (std::int64_t x = 0; x < 100000; ++x) curve.add({x, x % 7, 0});
    for (std::int64_t k = 1; k <= 1000; ++k) curve.add({100000 * k, 1, 0});
    QCOMPARE(curve.cellWidth(), std::uint64_t{1} << 21);
    const auto points = curve.points();
    QVERIFY(points.size() <= 2 * 64);
    std::int64_t inFirstCell = 0;
    for (const PreviewPoint& p : points) inFirstCell += p.x < (std::int64_t{1} << 21);
    QCOMPARE(inFirstCell, 2); // its maximum and its last value
    // Few values: every one is kept.
    PreviewCurve few(512);
    for (std::int64_t x = 0; x < 5; ++x) few.add({x * 10, x, 0});
    QCOMPARE(few.points().size(), std::size_t{5});
}

// The importer's side: n values give about maxBuckets * (1 + log2(n / maxBuckets) / 2)
// buckets (phase 0: 512 buckets of 1 value; then 256 buckets per phase, each phase twice as
// many values as all before it: 1M values = 512 * 2^11, so 11 more phases: 512 + 11 * 256).
void TestImportPreview::streamSendsFewBucketsWithMaxAndLast() {
    const auto input = randomWalk(512 << 11);
    PreviewStream stream(512);
    std::vector<PreviewPoint> sent;
    for (std::size_t i = 0; i < input.size(); ++i) {
        stream.add(input[i]);
        if (i % 1000 == 0) {
            const auto part = stream.takeClosed();
            sent.insert(sent.end(), part.begin(), part.end());
        }
    }
    stream.close();
    const auto part = stream.takeClosed();
    sent.insert(sent.end(), part.begin(), part.end());
    QCOMPARE(stream.closedBuckets(), 512 + 11 * 256);
    QVERIFY(sent.size() <= 2 * static_cast<std::size_t>(stream.closedBuckets()));
    std::int64_t maxA = input[0].allocated, gotA = sent[0].allocated;
    for (const PreviewPoint& p : input) maxA = std::max(maxA, p.allocated);
    for (std::size_t i = 0; i < sent.size(); ++i) {
        gotA = std::max(gotA, sent[i].allocated);
        if (i) QVERIFY(sent[i - 1].x <= sent[i].x);
    }
    QCOMPARE(gotA, maxA);
    QVERIFY(sent.back() == input.back());
    // The first 512 values went out one by one.
    for (std::size_t i = 0; i < 512; ++i) QVERIFY(sent[i] == input[i]);
}

void TestImportPreview::protocolRoundTrip() {
    using importworker::Line;
    PreviewBatch b{
        "pinned host", PreviewAxis::TimeUs, 500, 2097152, {{100, -200, 0}, {1700000000000000, 9223372036854775807, -1}}};
    const std::string text = importworker::format(Line::previewed(b));
    QCOMPARE(QString::fromStdString(text),
             QString("preview pinned\\shost time_us 500 2097152 100 -200 0 1700000000000000 9223372036854775807 -1\n"));
    const auto back = importworker::parse(text);
    QVERIFY(back);
    QCOMPARE(back->kind, Line::Kind::Preview);
    QVERIFY(back->preview == b);

    // Bases only, entry numbers, a name with a backslash.
    const PreviewBatch bases{"odd\\dev", PreviewAxis::Index, 0, 0, {}};
    QCOMPARE(QString::fromStdString(importworker::format(Line::previewed(bases))), QString("preview odd\\\\dev index 0 0\n"));
    QVERIFY(importworker::parse(importworker::format(Line::previewed(bases)))->preview == bases);

    QCOMPARE(QString::fromStdString(importworker::format(Line::previewRestarts())), QString("preview-restart\n"));
    QCOMPARE(importworker::parse("preview-restart\n")->kind, Line::Kind::PreviewRestart);
    // Error messages keep their old escaping (a space stays a space).
    QCOMPARE(importworker::parse(importworker::format(Line::failed("a b\\c\nd")))->message, std::string("a b\\c\nd"));
}

void TestImportPreview::protocolRejectsBadLines() {
    for (const char* bad :
         {"preview", "preview cuda:0", "preview cuda:0 seconds 0 0", "preview cuda:0 time_us 0", "preview cuda:0 time_us x 0",
          "preview cuda:0 time_us 0 0 1 2", "preview cuda:0 time_us 0 0 1 2 3 4", "preview cuda:0 time_us 0 0 1 2 z",
          "preview cuda:0 index 0 0 1  2 3", "preview cuda:0 index 0 0 99999999999999999999 0 0", "preview-restart now"})
        QVERIFY2(!importworker::parse(bad), bad);
}

QTEST_GUILESS_MAIN(TestImportPreview)
#include "tst_import_preview.moc"

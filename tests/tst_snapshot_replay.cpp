// SPDX-License-Identifier: MIT
// The snapshot replay fed in pieces (ReplayPass) and beside a reader on another thread
// (ReplayFollower, issue 33): a small trace whose figures are worked out by hand below; random
// traces (reallocs over live blocks, double frees, frees of blocks from before the trace,
// segment entries, blocks alive at the end) give the one-call replay's figures exactly, for
// any cut into pieces and with a vector that grows (and moves) while the follower reads it; a
// pass whose byte counts overflow is dropped, not handed on. The follower backs the reader's
// next entries with memory (populateNow), as mincore() sees it, and no further.
#include <QtTest>
#include <random>
#include <sys/mman.h>
#include <unistd.h>

#include "core/Errors.h"
#include "core/HugePages.h"
#include "formats/snapshot/ReplayFollower.h"
#include "formats/snapshot/SnapshotReplay.h"

using namespace memviz;
using namespace memviz::snapshot;

namespace {

bool same(const DeviceReplay& a, const DeviceReplay& b) {
    if (a.allocations.size() != b.allocations.size()) return false;
    for (std::size_t i = 0; i < a.allocations.size(); ++i) {
        const Allocation &x = a.allocations[i], &y = b.allocations[i];
        if (x.address != y.address || x.requestedSize != y.requestedSize || x.blockSize != y.blockSize ||
            x.allocSeq != y.allocSeq || x.freeSeq != y.freeSeq || x.stack != y.stack || x.freeStack != y.freeStack ||
            x.origin != y.origin)
            return false;
    }
    if (!std::equal(a.frees.begin(), a.frees.end(), b.frees.begin(), b.frees.end())) return false;
    return a.implicitFrees == b.implicitFrees && a.actionCounts == b.actionCounts &&
           a.unknownActionCounts == b.unknownActionCounts && a.baselineBytes == b.baselineBytes &&
           a.baselineBlocks == b.baselineBlocks && a.baselineFreedBlocks == b.baselineFreedBlocks &&
           a.peakSeq == b.peakSeq && a.peakBytes == b.peakBytes && a.finalReplayed == b.finalReplayed &&
           a.finalActiveRequested == b.finalActiveRequested && a.finalPendingRequested == b.finalPendingRequested &&
           a.finalActiveBytes == b.finalActiveBytes && a.unmatchedLive == b.unmatchedLive &&
           a.sizeMismatches == b.sizeMismatches && a.doubleFrees == b.doubleFrees && a.allocsOverLive == b.allocsOverLive &&
           a.endBlocksFreedInTrace == b.endBlocksFreedInTrace && a.reservedInitial == b.reservedInitial &&
           a.reservedFinal == b.reservedFinal && a.segments == b.segments;
}

Entry entry(Action action, std::int64_t addr, std::int64_t size, std::int32_t stack = kNoName) {
    Entry e;
    e.action = action;
    e.addr = addr;
    e.size = size;
    e.stack = stack;
    e.hasAddr = true;
    return e;
}

struct RandomTrace {
    std::vector<Entry> entries;
    Segment segment;
};

// Addresses from a pool of 64, so that every case of the replay comes up many times.
RandomTrace randomTrace(unsigned seed, std::size_t n) {
    std::mt19937_64 rng(seed);
    RandomTrace t;
    const Action actions[] = {Action::Alloc,        Action::Alloc,      Action::Alloc,        Action::FreeCompleted,
                              Action::FreeCompleted, Action::Free,       Action::FreeRequested, Action::SegmentAlloc,
                              Action::SegmentFree,   Action::Oom,        Action::Snapshot};
    for (std::size_t i = 0; i < n; ++i)
        t.entries.push_back(entry(actions[rng() % std::size(actions)], static_cast<std::int64_t>(4096 * (rng() % 64)),
                                  static_cast<std::int64_t>(rng() % 100000), static_cast<std::int32_t>(rng() % 7) - 1));
    t.segment.address = 0;
    t.segment.totalSize = 64 * 4096;
    for (std::int64_t a = 0; a < 64; a += 3) {
        Block b;
        b.address = a * 4096;
        b.size = 4096;
        b.requestedSize = static_cast<std::int64_t>(rng() % 100000);
        b.state = a % 2 ? BlockState::ActiveAllocated : BlockState::ActivePendingFree;
        t.segment.blocks.push_back(b);
    }
    return t;
}

// How many of the pages of [p, p + bytes) are resident, by mincore(2).
std::size_t residentPages(const void* p, std::size_t bytes) {
    const auto page = static_cast<std::uintptr_t>(::sysconf(_SC_PAGESIZE));
    const std::uintptr_t from = reinterpret_cast<std::uintptr_t>(p) & ~(page - 1);
    const std::uintptr_t to = (reinterpret_cast<std::uintptr_t>(p) + bytes + page - 1) & ~(page - 1);
    std::vector<unsigned char> in((to - from) / page);
    if (::mincore(reinterpret_cast<void*>(from), to - from, in.data()) != 0) return 0;
    std::size_t n = 0;
    for (unsigned char c : in) n += c & 1;
    return n;
}

} // namespace

class TestSnapshotReplay : public QObject {
    Q_OBJECT
private slots:
    void smallTraceByHand();
    void piecesGiveTheSameReplay();
    void followerGivesTheSameReplay();
    void overflowingPassIsDropped();
    void populateKeepsContents();
    void followerBacksTheNextEntries();
};

void TestSnapshotReplay::smallTraceByHand() {
    // alloc A 100, alloc B 50, free A, free C 30 (from before the trace), free A again, alloc B 70
    // over the live B, segment_alloc 1000; the end shows B allocated (70 requested, block 512).
    const std::vector<Entry> entries{entry(Action::Alloc, 0xA, 100),        entry(Action::Alloc, 0xB, 50),
                                     entry(Action::FreeCompleted, 0xA, 100), entry(Action::FreeCompleted, 0xC, 30),
                                     entry(Action::FreeCompleted, 0xA, 100), entry(Action::Alloc, 0xB, 70),
                                     entry(Action::SegmentAlloc, 0x1000, 1000)};
    Segment s;
    s.totalSize = 4000;
    Block b;
    b.address = 0xB;
    b.size = 512;
    b.requestedSize = 70;
    b.state = BlockState::ActiveAllocated;
    s.blocks.push_back(b);
    const Segment* segments[] = {&s};
    ReplayPass pass;
    pass.feed(std::span(entries).first(3));
    QCOMPARE(pass.replayed(), std::size_t{3});
    pass.feed(std::span(entries).subspan(3));
    const DeviceReplay r = std::move(pass).finish({}, segments, 0);
    // Relative to the baseline (C's 30 bytes): 100, 150, 50, 20, 20, 40 (B's 50 freed, 70 added), 40.
    QCOMPARE(r.baselineBytes, std::int64_t{30});
    QCOMPARE(r.baselineFreedBlocks, std::int64_t{1});
    QCOMPARE(r.peakBytes, std::int64_t{180});
    QCOMPARE(r.peakSeq, std::int64_t{1});
    QCOMPARE(r.finalReplayed, std::int64_t{70});
    QCOMPARE(r.finalActiveRequested, std::int64_t{70});
    QVERIFY(r.consistent());
    QCOMPARE(r.doubleFrees, std::int64_t{1});
    QCOMPARE(r.allocsOverLive, std::int64_t{1});
    QCOMPARE(r.implicitFrees.size(), std::size_t{1});
    QCOMPARE(r.implicitFrees[0], (std::pair<std::int64_t, std::int32_t>{5, 1}));
    QCOMPARE(r.reservedFinal, std::int64_t{4000});
    QCOMPARE(r.reservedInitial, std::int64_t{3000});
    QCOMPARE(r.allocations.size(), std::size_t{4}); // A, B, C, the second B
    QCOMPARE(r.allocations[0].freeSeq, std::int64_t{2});
    QCOMPARE(r.allocations[2].origin, Origin::BeforeTraceFreed);
    QCOMPARE(r.allocations[3].blockSize, std::int64_t{512});
    // The three frees close A, C (made at its free) and nothing (A again).
    QCOMPARE(std::vector<std::int32_t>(r.frees.begin(), r.frees.end()), (std::vector<std::int32_t>{0, 2, -1}));
    QVERIFY(same(r, replayDevice(entries, {}, segments, 0)));
}

void TestSnapshotReplay::piecesGiveTheSameReplay() {
    for (unsigned seed = 1; seed <= 20; ++seed) {
        const RandomTrace t = randomTrace(seed, 5000);
        const Segment* segments[] = {&t.segment};
        const DeviceReplay whole = replayDevice(t.entries, {}, segments, 0);
        QVERIFY(whole.allocsOverLive > 0 && whole.doubleFrees > 0 && whole.baselineFreedBlocks > 0);
        std::mt19937 rng(seed);
        ReplayPass pass;
        for (std::size_t at = 0; at < t.entries.size();) {
            const std::size_t n = std::min<std::size_t>(rng() % 300, t.entries.size() - at);
            pass.feed(std::span(t.entries).subspan(at, n));
            at += n;
        }
        QVERIFY2(same(std::move(pass).finish({}, segments, 0), whole), qPrintable(QString("seed %1").arg(seed)));
    }
}

void TestSnapshotReplay::followerGivesTheSameReplay() {
    for (unsigned seed = 1; seed <= 10; ++seed) {
        const RandomTrace a = randomTrace(seed, 200000), b = randomTrace(seed + 100, 30000);
        const Segment* segmentsA[] = {&a.segment};
        const Segment* segmentsB[] = {&b.segment};
        // Two lists appended in batches, as the pickle reader does; no reservation, so both
        // vectors move many times while the follower reads them.
        std::vector<Entry> va, vb;
        ReplayFollower follower;
        const std::size_t slotA = follower.follow(0), slotB = follower.follow(0);
        std::mt19937 rng(seed);
        std::size_t atA = 0, atB = 0;
        while (atA < a.entries.size() || atB < b.entries.size()) {
            const bool toA = atB == b.entries.size() || (atA < a.entries.size() && rng() % 4 != 0);
            const RandomTrace& t = toA ? a : b;
            std::vector<Entry>& v = toA ? va : vb;
            std::size_t& at = toA ? atA : atB;
            const std::size_t n = std::min<std::size_t>(1 + rng() % 2000, t.entries.size() - at);
            if (v.capacity() - v.size() < n)
                follower.regrow(toA ? slotA : slotB, [&] {
                    v.reserve(std::max(v.capacity() * 2, v.size() + n));
                    return v.data();
                });
            v.insert(v.end(), t.entries.begin() + static_cast<std::ptrdiff_t>(at),
                     t.entries.begin() + static_cast<std::ptrdiff_t>(at + n));
            at += n;
            follower.published(toA ? slotA : slotB, v.data(), v.size(), v.capacity());
        }
        std::vector<ReplayedEntries> done = follower.finish();
        QCOMPARE(done.size(), std::size_t{2});
        QVERIFY(done[0].entries == va.data() && done[0].count == va.size());
        QVERIFY(done[1].entries == vb.data() && done[1].count == vb.size());
        QVERIFY(same(std::move(done[0].pass).finish({}, segmentsA, 0), replayDevice(a.entries, {}, segmentsA, 0)));
        QVERIFY(same(std::move(done[1].pass).finish({}, segmentsB, 0), replayDevice(b.entries, {}, segmentsB, 0)));
    }
}

void TestSnapshotReplay::overflowingPassIsDropped() {
    std::vector<Entry> bad{entry(Action::Alloc, 1, std::int64_t{1} << 62), entry(Action::Alloc, 2, std::int64_t{1} << 62)};
    std::vector<Entry> good{entry(Action::Alloc, 1, 10)};
    QVERIFY_THROWS_EXCEPTION(ImportError, replayDevice(bad, {}, {}, 0));
    ReplayFollower follower;
    const std::size_t slotBad = follower.follow(2), slotGood = follower.follow(1);
    follower.published(slotBad, bad.data(), bad.size(), bad.capacity());
    follower.published(slotGood, good.data(), good.size(), good.capacity());
    const std::vector<ReplayedEntries> done = follower.finish();
    QCOMPARE(done.size(), std::size_t{1});
    QVERIFY(done[0].entries == good.data());
}

void TestSnapshotReplay::populateKeepsContents() {
    constexpr std::size_t kBytes = 4 << 20, kPage = 4096;
    void* map = ::mmap(nullptr, kBytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    QVERIFY(map != MAP_FAILED);
    auto* bytes = static_cast<unsigned char*>(map);
    ::madvise(map, kBytes, MADV_NOHUGEPAGE); // count 4 KiB pages
    bytes[10] = 0x5a;
    bytes[kPage + 20] = 0xa5;
    QCOMPARE(residentPages(map, kBytes), std::size_t{2});
    if (!populateNow(bytes + 100, kBytes - 200)) { // from inside the first page to inside the last
        ::munmap(map, kBytes);
        QSKIP("this kernel has no MADV_POPULATE_WRITE (Linux 5.14)");
    }
    QCOMPARE(residentPages(map, kBytes), kBytes / kPage);
    QCOMPARE(int(bytes[10]), 0x5a);
    QCOMPARE(int(bytes[kPage + 20]), 0xa5);
    std::size_t nonzero = 0;
    for (std::size_t i = 0; i < kBytes; ++i) nonzero += bytes[i] != 0;
    QCOMPARE(nonzero, std::size_t{2});
    ::munmap(map, kBytes);
}

// Room for 4M entries (128 MiB, untouched); 300,000 published: after the follower's one feed,
// the feed's worth after them (262,144 entries, 8 MiB) has memory, the rest of the room not.
void TestSnapshotReplay::followerBacksTheNextEntries() {
    constexpr std::size_t kRoom = 4u << 20, kPublished = 300000, kFeed = 262144;
    Entry* entries = static_cast<Entry*>(::mmap(nullptr, kRoom * sizeof(Entry), PROT_READ | PROT_WRITE,
                                                MAP_PRIVATE | MAP_ANONYMOUS, -1, 0));
    QVERIFY(entries != MAP_FAILED);
    ::madvise(entries, kRoom * sizeof(Entry), MADV_NOHUGEPAGE);
    for (std::size_t i = 0; i < kPublished; ++i) entries[i] = entry(i % 2 ? Action::FreeCompleted : Action::Alloc, i / 2 * 64, 64);
    const std::size_t page = static_cast<std::size_t>(::sysconf(_SC_PAGESIZE));
    const std::size_t before = residentPages(entries, kRoom * sizeof(Entry));
    QCOMPARE(before, (kPublished * sizeof(Entry) + page - 1) / page);
    const bool canPopulate = populateNow(entries + kRoom - 1, sizeof(Entry)); // the last page alone
    {
        ReplayFollower follower;
        const std::size_t slot = follower.follow(kPublished);
        follower.published(slot, entries, kPublished, kRoom);
        const std::vector<ReplayedEntries> done = follower.finish();
        QCOMPARE(done.size(), std::size_t{1});
        QCOMPARE(done[0].count, kPublished);
    }
    if (!canPopulate) {
        ::munmap(entries, kRoom * sizeof(Entry));
        QSKIP("this kernel has no MADV_POPULATE_WRITE (Linux 5.14)");
    }
    // Published, then a feed's worth ahead, then the last page populated above.
    const std::size_t ahead = residentPages(entries + kPublished, kFeed * sizeof(Entry));
    QVERIFY2(ahead >= kFeed * sizeof(Entry) / page, qPrintable(QString::number(ahead)));
    QCOMPARE(residentPages(entries + kPublished + kFeed + page / sizeof(Entry),
                           (kRoom - kPublished - kFeed) * sizeof(Entry) - 2 * page),
             std::size_t{0});
    ::munmap(entries, kRoom * sizeof(Entry));
}

QTEST_GUILESS_MAIN(TestSnapshotReplay)
#include "tst_snapshot_replay.moc"

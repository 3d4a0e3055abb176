// SPDX-License-Identifier: MIT
// The stacked active-memory layout of a snapshot (model/trace/ActiveMemoryLayout): a case
// worked by hand, and random allocation sequences checked against a brute-force recount of
// what lies below each band at every entry.
#include <QRandomGenerator>
#include <QtTest>

#include "trace/ActiveMemoryLayout.h"

using namespace memviz;

namespace {

// The step function of a band's lower edge at x (the last point at or before x).
std::int64_t offsetAt(const ActiveBand& b, std::int64_t x) {
    std::int64_t v = b.bottom.front().second;
    for (const auto& [px, offset] : b.bottom)
        if (px <= x) v = offset;
    return v;
}

ActiveSpan span(std::int64_t allocSeq, std::optional<std::int64_t> freeSeq, std::int64_t size, std::int64_t end) {
    ActiveSpan s;
    s.allocSeq = allocSeq;
    s.freeSeq = freeSeq;
    s.xAlloc = allocSeq < 0 ? 0 : allocSeq * 10;
    s.xFree = freeSeq ? *freeSeq * 10 : end;
    s.size = size;
    return s;
}

} // namespace

class TestActiveMemory : public QObject {
    Q_OBJECT
private slots:
    void byHand();
    void randomSequencesMatchARecount();
};

void TestActiveMemory::byHand() {
    // A (100 B) at entry 0, B (50 B) at 1, C (10 B) at 2, A freed at 3; two bands: C is summarised.
    const std::vector<ActiveSpan> spans = {span(0, 3, 100, 50), span(1, std::nullopt, 50, 50), span(2, std::nullopt, 10, 50)};
    const ActiveLayout l = layoutActiveMemory(spans, 2);
    QCOMPARE(l.bands.size(), std::size_t(2));
    QCOMPARE(l.summarisedCount, std::size_t(1));
    QCOMPARE(l.smallestBand, std::int64_t(50));
    QCOMPARE(l.maxTotal, std::int64_t(160));
    // A: from x 0 at the bottom to its free at x 30.
    using P = std::vector<std::pair<std::int64_t, std::int64_t>>;
    QCOMPARE(l.bands[0].bottom, (P{{0, 0}, {30, 0}}));
    // B: on top of A, drops to the bottom when A goes, runs to the end (x 50).
    QCOMPARE(l.bands[1].bottom, (P{{10, 100}, {30, 0}, {50, 0}}));
    // The summary (C) sits on the bands: 150 B below it at x 20, 50 B after A's free.
    QCOMPARE(l.summary.back().x, std::int64_t(30));
    QCOMPARE(l.summary.back().base, std::int64_t(50));
    QCOMPARE(l.summary.back().bytes, std::int64_t(10));
    QCOMPARE(l.summary[2].base, std::int64_t(150));
    QCOMPARE(l.summary[2].bytes, std::int64_t(10));
    // What lies under the pointer: B sits at 100..150 until A goes, then at 0..50.
    QCOMPARE(bandAt(l, 15, 120).value_or(99), std::size_t(1));
    QCOMPARE(bandAt(l, 15, 20).value_or(99), std::size_t(0));
    QCOMPARE(bandAt(l, 35, 20).value_or(99), std::size_t(1));
    QVERIFY(!bandAt(l, 35, 120)); // above the bands: nothing
    QVERIFY(!bandAt(l, 5, 120));  // B not yet allocated
}

void TestActiveMemory::randomSequencesMatchARecount() {
    QRandomGenerator rng(29112026);
    for (int round = 0; round < 40; ++round) {
        // Some allocations alive before the trace, then allocations and frees at random.
        std::vector<ActiveSpan> spans;
        std::vector<std::size_t> live;
        const std::int64_t entries = rng.bounded(20, 300);
        const std::int64_t end = entries * 10 + 5;
        const int before = rng.bounded(0, 4);
        for (int i = 0; i < before; ++i) {
            spans.push_back(span(-1, std::nullopt, rng.bounded(1, 1000), end));
            live.push_back(spans.size() - 1);
        }
        for (std::int64_t seq = 0; seq < entries; ++seq) {
            if (!live.empty() && rng.bounded(2) == 0) {
                const std::size_t k = rng.bounded(int(live.size()));
                spans[live[k]].freeSeq = seq;
                spans[live[k]].xFree = seq * 10;
                live.erase(live.begin() + static_cast<std::ptrdiff_t>(k));
            } else {
                spans.push_back(span(seq, std::nullopt, rng.bounded(1, 1000), end));
                live.push_back(spans.size() - 1);
            }
        }
        const std::size_t maxBands = rng.bounded(1, 40);
        const ActiveLayout l = layoutActiveMemory(spans, maxBands);
        QCOMPARE(l.bands.size(), std::min(maxBands, spans.size()));
        std::vector<bool> banded(spans.size(), false);
        for (const ActiveBand& b : l.bands) banded[b.span] = true;
        // Every unbanded allocation is no larger than every banded one.
        for (std::size_t i = 0; i < spans.size(); ++i)
            if (!banded[i]) QVERIFY(spans[i].size <= l.smallestBand);
        // Alive just after entry `seq`: allocated at or before it, not freed at or before it.
        const auto alive = [&](std::size_t i, std::int64_t seq) {
            return spans[i].allocSeq <= seq && (!spans[i].freeSeq || *spans[i].freeSeq > seq);
        };
        // Stack order: allocation order (those from before the trace first, in their order).
        const auto below = [&](std::size_t j, std::size_t i) {
            return spans[j].allocSeq != spans[i].allocSeq ? spans[j].allocSeq < spans[i].allocSeq : j < i;
        };
        for (std::int64_t seq = 0; seq < entries; ++seq) {
            const std::int64_t x = seq * 10;
            std::int64_t bandBytes = 0, small = 0;
            for (std::size_t i = 0; i < spans.size(); ++i)
                if (alive(i, seq)) (banded[i] ? bandBytes : small) += spans[i].size;
            for (const ActiveBand& b : l.bands) {
                if (!alive(b.span, seq)) continue;
                std::int64_t expected = 0;
                for (std::size_t j = 0; j < spans.size(); ++j)
                    if (banded[j] && alive(j, seq) && below(j, b.span)) expected += spans[j].size;
                QCOMPARE(offsetAt(b, x), expected);
                QCOMPARE(bandOffsetAt(b, x), expected);
            }
            // The summary's step at x.
            const auto point = std::find_if(l.summary.rbegin(), l.summary.rend(),
                                            [&](const ActiveSummaryPoint& p) { return p.x <= x; });
            QVERIFY(point != l.summary.rend());
            QCOMPARE(point->base, bandBytes);
            QCOMPARE(point->bytes, small);
        }
        // Each band starts at its allocation and ends at its free (or the end).
        for (const ActiveBand& b : l.bands) {
            QCOMPARE(b.bottom.front().first, spans[b.span].xAlloc);
            QCOMPARE(b.bottom.back().first, spans[b.span].xFree);
        }
    }
}

QTEST_GUILESS_MAIN(TestActiveMemory)
#include "tst_active_memory.moc"

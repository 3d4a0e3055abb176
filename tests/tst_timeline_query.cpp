// SPDX-License-Identifier: MIT
// The level-of-detail query behind the timeline: few points per pixel column for any
// window, exact extremes, only real points, raw points when zoomed in.
#include <QtTest>
#include <algorithm>
#include <map>
#include <random>

#include "TestSupport.h"
#include "store/Database.h"
#include "store/SeriesQuery.h"
#include "store/TraceWriter.h"

using namespace memviz;

class TestTimelineQuery : public QObject {
    Q_OBJECT
private slots:
    void initTestCase();
    void wholeRangeKeepsExtremes();
    void windowsHaveFewPointsPerColumn_data();
    void windowsHaveFewPointsPerColumn();
    void everyPointIsReal();
    void valueAtIsExact();
    void rangeAfterTheEnd();

private:
    QTemporaryDir dir_;
    std::unique_ptr<Database> db_;
    std::int64_t series_ = 0;
    std::vector<SeriesPoint> points_; // the series as written
};

void TestTimelineQuery::initTestCase() {
    db_ = std::make_unique<Database>(dir_.filePath("lod.memviz").toStdString());
    TraceInfo info;
    info.sourcePath = "generated";
    info.format = "test";
    TraceWriter w(*db_, info);
    const auto d = w.device("cpu");
    series_ = w.createSeries(d, "allocated", "bytes", true);
    // 1M points of a random walk with bursts: irregular time steps, spikes and dips.
    std::mt19937_64 rng(7);
    std::int64_t t = 0, v = 1 << 20;
    for (int i = 0; i < 1000000; ++i) {
        t += static_cast<std::int64_t>(rng() % 100) + (i % 50000 == 0 ? 1000000 : 0);
        v += static_cast<std::int64_t>(rng() % 2001) - 1000;
        if (rng() % 100000 == 0) v += 50000000; // rare spike
        if (v < 0) v = 0;
        points_.push_back({t, v});
        w.addPoint(series_, t, v);
    }
    w.commit();
}

void TestTimelineQuery::wholeRangeKeepsExtremes() {
    const auto maxIt = std::max_element(points_.begin(), points_.end(), [](auto a, auto b) { return a.v < b.v; });
    const auto minIt = std::min_element(points_.begin(), points_.end(), [](auto a, auto b) { return a.v < b.v; });
    const SeriesWindow w = querySeries(*db_, series_, {0, points_.back().t}, 1000);
    QVERIFY(w.level > 0);
    QVERIFY2(w.points.size() <= 4 * 1000 + 2, qPrintable(QString::number(w.points.size())));
    const auto gotMax = std::max_element(w.points.begin(), w.points.end(), [](auto a, auto b) { return a.v < b.v; });
    const auto gotMin = std::min_element(w.points.begin(), w.points.end(), [](auto a, auto b) { return a.v < b.v; });
    QCOMPARE(gotMax->v, maxIt->v);
    QCOMPARE(gotMax->t, maxIt->t);
    QCOMPARE(gotMin->v, minIt->v);
    QCOMPARE(w.points.front(), points_.front());
    QCOMPARE(w.points.back(), points_.back());
}

void TestTimelineQuery::windowsHaveFewPointsPerColumn_data() {
    QTest::addColumn<double>("from");
    QTest::addColumn<double>("to");
    QTest::addColumn<int>("columns");
    QTest::newRow("whole, 400 px") << 0.0 << 1.0 << 400;
    QTest::newRow("half, 1900 px") << 0.25 << 0.75 << 1900;
    QTest::newRow("1 percent") << 0.5 << 0.51 << 1000;
    QTest::newRow("0.01 percent") << 0.3 << 0.3001 << 1000;
    QTest::newRow("tiny plot") << 0.0 << 1.0 << 3;
}

void TestTimelineQuery::windowsHaveFewPointsPerColumn() {
    QFETCH(double, from);
    QFETCH(double, to);
    QFETCH(int, columns);
    const auto end = static_cast<double>(points_.back().t);
    const TimeRange r{static_cast<std::int64_t>(from * end), static_cast<std::int64_t>(to * end)};
    const SeriesWindow w = querySeries(*db_, series_, r, columns);
    const auto inRange = std::count_if(points_.begin(), points_.end(), [&](auto p) { return r.contains(p.t); });
    // At most 4 points per column, plus one point on either side of the window.
    QVERIFY2(static_cast<qsizetype>(w.points.size()) <= 4 * columns + 2,
             qPrintable(QStringLiteral("%1 points for %2 columns").arg(w.points.size()).arg(columns)));
    if (inRange <= columns) QCOMPARE(w.level, 0); // zoomed in: raw points
    if (w.level == 0) {
        // From raw points, every pixel column keeps its exact lowest and highest value.
        const double span = static_cast<double>(r.end - r.begin);
        auto column = [&](std::int64_t t) { return std::min(columns - 1, int(double(t - r.begin) / span * columns)); };
        std::map<int, std::pair<std::int64_t, std::int64_t>> truth, got;
        auto note = [](auto& m, int c, std::int64_t v) {
            auto [it, fresh] = m.try_emplace(c, v, v);
            if (!fresh) it->second = {std::min(it->second.first, v), std::max(it->second.second, v)};
        };
        for (const auto& p : points_)
            if (r.contains(p.t)) note(truth, column(p.t), p.v);
        for (const auto& p : w.points)
            if (r.contains(p.t)) note(got, column(p.t), p.v);
        QVERIFY(truth == got);
    }
    // Time order.
    QVERIFY(std::is_sorted(w.points.begin(), w.points.end(), [](auto a, auto b) { return a.t < b.t; }));
    // The step line starts at or before the window and ends at or after it.
    QVERIFY(w.points.front().t <= r.begin || w.points.front() == points_.front());
    QVERIFY(w.points.back().t >= r.end || w.points.back() == points_.back());
}

void TestTimelineQuery::everyPointIsReal() {
    std::vector<SeriesPoint> sorted = points_;
    auto byTime = [](auto a, auto b) { return a.t != b.t ? a.t < b.t : a.v < b.v; };
    std::sort(sorted.begin(), sorted.end(), byTime);
    const auto end = points_.back().t;
    for (const TimeRange r : {TimeRange{0, end}, TimeRange{end / 3, end / 2}, TimeRange{end / 7, end / 7 + end / 1000}}) {
        for (const SeriesPoint& p : querySeries(*db_, series_, r, 777).points)
            QVERIFY2(std::binary_search(sorted.begin(), sorted.end(), p, byTime),
                     qPrintable(QStringLiteral("(%1, %2) is not a point of the series").arg(p.t).arg(p.v)));
    }
}

void TestTimelineQuery::valueAtIsExact() {
    std::mt19937_64 rng(3);
    for (int i = 0; i < 200; ++i) {
        const std::size_t k = rng() % (points_.size() - 1);
        // Between two points the value is the earlier one's (a step line).
        const std::int64_t t = points_[k].t;
        std::size_t last = k;
        while (last + 1 < points_.size() && points_[last + 1].t == t) ++last;
        QCOMPARE(seriesValueAt(*db_, series_, t).value(), points_[last].v);
    }
    QVERIFY(!seriesValueAt(*db_, series_, points_.front().t - 1).has_value());
    QCOMPARE(seriesValueAt(*db_, series_, points_.back().t + 1000).value(), points_.back().v);
}

void TestTimelineQuery::rangeAfterTheEnd() {
    const auto end = points_.back().t;
    const SeriesWindow w = querySeries(*db_, series_, {end + 10, end + 20}, 100);
    QCOMPARE(w.points.size(), std::size_t{1});
    QCOMPARE(w.points.front(), points_.back());
}

QTEST_GUILESS_MAIN(TestTimelineQuery)
#include "tst_timeline_query.moc"

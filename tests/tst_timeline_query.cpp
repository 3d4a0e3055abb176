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
#include "store/SeriesWriter.h"
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
    void pyramidStartsAtLevel2AndOldStoresReadLevel1();
    void shortSeriesHaveABucket();

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

// Since schema version 9 the pyramid is stored from level 2 (64 points per bucket). A window
// with between 16 and 64 points per column, which level 1 served, is now drawn from the raw
// points with every column's extremes exact. A store written before keeps its level 1 rows:
// with them added here as such a store holds them (buckets of 16 consecutive points, numbered
// from 0, never across a 65,536-point chunk), the same window is drawn from level 1.
void TestTimelineQuery::pyramidStartsAtLevel2AndOldStoresReadLevel1() {
    QCOMPARE(queryInt(*db_, "SELECT min(level) FROM series_lod WHERE series_id = " + std::to_string(series_)).value(), 2);
    QCOMPARE(queryInt(*db_, "SELECT count(*) FROM series_lod WHERE series_id = " + std::to_string(series_) + " AND level = 2")
                 .value(),
             static_cast<std::int64_t>((points_.size() + 63) / 64));

    const int columns = 500;
    const std::size_t first = 300000, count = 30 * columns; // 30 points per column
    const TimeRange r{points_[first].t, points_[first + count - 1].t};
    const auto extremes = [&](const std::vector<SeriesPoint>& pts) {
        std::int64_t lo = std::numeric_limits<std::int64_t>::max(), hi = std::numeric_limits<std::int64_t>::min();
        for (const SeriesPoint& p : pts)
            if (r.contains(p.t)) {
                lo = std::min(lo, p.v);
                hi = std::max(hi, p.v);
            }
        return std::make_pair(lo, hi);
    };
    const SeriesWindow fresh = querySeries(*db_, series_, r, columns);
    QCOMPARE(fresh.level, 0);
    QCOMPARE(extremes(fresh.points), extremes(points_));

    QTemporaryDir dir;
    const std::string old = dir.filePath("before-9.memviz").toStdString();
    db_->exec("VACUUM INTO '" + old + "'");
    Database db(old);
    db.exec("BEGIN");
    Statement insert(db, "INSERT INTO series_lod(series_id, level, t_last, bucket, t_first, v_first, v_last, v_min, "
                         "t_min, v_max, t_max) VALUES (?, 1, ?, ?, ?, ?, ?, ?, ?, ?, ?)");
    for (std::size_t b = 0; b * 16 < points_.size(); ++b) {
        const std::size_t from = b * 16, to = std::min(points_.size(), from + 16);
        SeriesPoint lo = points_[from], hi = points_[from];
        for (std::size_t i = from; i < to; ++i) {
            if (points_[i].v < lo.v) lo = points_[i];
            if (points_[i].v > hi.v) hi = points_[i];
        }
        insert.bind(1, series_).bind(2, points_[to - 1].t).bind(3, static_cast<std::int64_t>(b)).bind(4, points_[from].t);
        insert.bind(5, points_[from].v).bind(6, points_[to - 1].v).bind(7, lo.v).bind(8, lo.t).bind(9, hi.v).bind(10, hi.t);
        insert.run();
    }
    db.exec("COMMIT");
    const SeriesWindow before9 = querySeries(db, series_, r, columns);
    QCOMPARE(before9.level, 1);
    QVERIFY(before9.points.size() <= 4 * columns + 2);
    QCOMPARE(extremes(before9.points), extremes(points_));
    const SeriesWindow whole = querySeries(db, series_, {0, points_.back().t}, 1000);
    QCOMPARE(whole.points.front(), points_.front());
    QCOMPARE(whole.points.back(), points_.back());
}

// A series shorter than one bucket of the first stored level still has one (written when the
// series ends), so every window finds its points.
void TestTimelineQuery::shortSeriesHaveABucket() {
    QTemporaryDir dir;
    Database db(dir.filePath("short.memviz").toStdString());
    TraceInfo info;
    info.sourcePath = "generated";
    info.format = "test";
    TraceWriter w(db, info);
    const auto d = w.device("cpu");
    const std::int64_t five = w.createSeries(d, "five", "bytes", true);
    const std::int64_t seventy = w.createSeries(d, "seventy", "bytes", false);
    for (int i = 0; i < 5; ++i) w.addPoint(five, 10 * i, 100 + i);
    for (int i = 0; i < 70; ++i) w.addPoint(seventy, i, i % 7);
    w.commit();
    for (const std::int64_t s : {five, seventy}) {
        QCOMPARE(queryInt(db, "SELECT min(level) FROM series_lod WHERE series_id = " + std::to_string(s)).value(),
                 kLodFirstStoredLevel);
        QCOMPARE(queryInt(db, "SELECT count(*) FROM series_lod WHERE series_id = " + std::to_string(s) + " AND level = 1").value(),
                 0);
    }
    const SeriesWindow w5 = querySeries(db, five, {0, 40}, 100);
    QCOMPARE(w5.points.size(), std::size_t{5});
    QCOMPARE(w5.points.back(), (SeriesPoint{40, 104}));
    const SeriesWindow w70 = querySeries(db, seventy, {0, 69}, 2);
    QCOMPARE(w70.points.front(), (SeriesPoint{0, 0}));
    QCOMPARE(w70.points.back(), (SeriesPoint{69, 69 % 7}));
    QCOMPARE(seriesValueAt(db, seventy, 68).value(), 68 % 7);
}

QTEST_GUILESS_MAIN(TestTimelineQuery)
#include "tst_timeline_query.moc"

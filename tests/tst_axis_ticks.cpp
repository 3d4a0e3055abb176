// SPDX-License-Identifier: MIT
// One tick rule for the window's timeline and the report's SVG (issue 52): for the same range,
// the window's axis ticker (QCustomPlot's own tick generation over widgets/AxisTickers) and the
// report's timeline SVG give the same tick values and numbers, and the unit in the axis title;
// a few ranges are worked by hand (1, 2, 2.5 or 5 times a power of ten of the unit).
#include <QRegularExpression>
#include <QtTest>

#include "plot/AxisTicks.h"
#include "report/SvgTimeline.h"
#include "widgets/AxisTickers.h"

using namespace memviz;

namespace {

struct Ticks {
    QList<double> values;
    QStringList labels;
};

// What the window's axis draws over `range`.
Ticks windowTicks(ScaledAxisTicker::Quantity q, double lower, double upper, int count) {
    QSharedPointer<ScaledAxisTicker> ticker(new ScaledAxisTicker(q));
    ticker->setTickCount(count);
    const QCPRange range(lower, upper);
    ticker->updateUnit(range);
    QVector<double> ticks;
    QVector<QString> labels;
    ticker->generate(range, QLocale::c(), QLatin1Char('g'), 6, ticks, nullptr, &labels);
    return {QList<double>(ticks.begin(), ticks.end()), QStringList(labels.begin(), labels.end())};
}

// The ticks the SVG draws on one axis ("xtick" or "ytick"), with the axis title.
Ticks svgTicks(const QString& svg, const QString& cls) {
    static const QRegularExpression re(QStringLiteral("<text class=\"(\\w+)\" data-v=\"([-0-9.]+)\"[^>]*>([^<]*)</text>"));
    Ticks t;
    for (auto it = re.globalMatch(svg); it.hasNext();) {
        const auto m = it.next();
        if (m.captured(1) != cls) continue;
        t.values << m.captured(2).toDouble();
        t.labels << m.captured(3);
    }
    return t;
}

QString svgTitle(const QString& svg, const QString& cls) {
    const QRegularExpression re(QStringLiteral("class=\"%1\"[^>]*>([^<]*)</text>").arg(cls));
    return re.match(svg).captured(1);
}

void compareTicks(const Ticks& a, const Ticks& b, double tolerance) {
    QCOMPARE(a.labels, b.labels);
    QCOMPARE(a.values.size(), b.values.size());
    for (qsizetype i = 0; i < a.values.size(); ++i)
        QVERIFY2(std::fabs(a.values[i] - b.values[i]) <= tolerance, qPrintable(QStringLiteral("%1 vs %2").arg(a.values[i]).arg(b.values[i])));
}

} // namespace

class TestAxisTicks : public QObject {
    Q_OBJECT
private slots:
    void handWorked_data();
    void handWorked();
    void windowAndRuleAgree_data();
    void windowAndRuleAgree();
    void reportSvgHasTheWindowsTicks_data();
    void reportSvgHasTheWindowsTicks();
};

void TestAxisTicks::handWorked_data() {
    QTest::addColumn<int>("quantity");
    QTest::addColumn<double>("lower");
    QTest::addColumn<double>("upper");
    QTest::addColumn<int>("count");
    QTest::addColumn<QString>("unit");
    QTest::addColumn<QStringList>("labels");
    const double GiB = 1024.0 * 1024 * 1024;
    // 1.6 GiB / 6 = 0.267 GiB -> 0.5 GiB steps.
    QTest::newRow("bytes 0..1.6 GiB") << int(TickQuantity::Bytes) << 0.0 << 1.6 * GiB << 6 << "GiB"
                                      << QStringList{"0", "0.5", "1", "1.5"};
    // 1000 B / 6 = 166.7 -> 200 B steps.
    QTest::newRow("bytes 0..1000 B") << int(TickQuantity::Bytes) << 0.0 << 1000.0 << 6 << "B"
                                     << QStringList{"0", "200", "400", "600", "800", "1000"};
    // 25.38 ms / 8 = 3.17 ms -> 5 ms steps.
    QTest::newRow("time 0..25.38 ms") << int(TickQuantity::Time) << 0.0 << 25.38e6 << 8 << "ms"
                                      << QStringList{"0", "5", "10", "15", "20", "25"};
    // A 2 ms window 1 s into a trace: labelled by the span, 0.25 ms steps (2 / 8).
    QTest::newRow("time 1 s + 2 ms") << int(TickQuantity::Time) << 1e9 << 1.002e9 << 8 << "ms"
                                     << QStringList{"1000", "1000.25", "1000.5", "1000.75", "1001", "1001.25", "1001.5", "1001.75", "1002"};
    // 7.2 million instructions / 8 = 0.9 million -> 1 million steps.
    QTest::newRow("instructions 0..7.2M") << int(TickQuantity::Count) << 0.0 << 7.2e6 << 8 << "millions"
                                          << QStringList{"0", "1", "2", "3", "4", "5", "6", "7"};
}

void TestAxisTicks::handWorked() {
    QFETCH(int, quantity);
    QFETCH(double, lower);
    QFETCH(double, upper);
    QFETCH(int, count);
    QFETCH(QString, unit);
    QFETCH(QStringList, labels);
    const AxisTicks t = axisTicks(static_cast<TickQuantity>(quantity), lower, upper, count);
    QCOMPARE(QString::fromUtf8(t.unit.suffix), unit);
    QStringList got;
    for (const std::string& l : t.labels) got << QString::fromStdString(l);
    QCOMPARE(got, labels);
}

void TestAxisTicks::windowAndRuleAgree_data() {
    QTest::addColumn<int>("quantity");
    QTest::addColumn<double>("lower");
    QTest::addColumn<double>("upper");
    QTest::addColumn<int>("count");
    QTest::newRow("bytes 0..1.6 GiB") << int(ScaledAxisTicker::Quantity::Bytes) << 0.0 << 1.6 * 1024 * 1024 * 1024 << 6;
    QTest::newRow("bytes 0..18.09 MiB") << int(ScaledAxisTicker::Quantity::Bytes) << 0.0 << 18.09 * 1024 * 1024 << 6;
    QTest::newRow("bytes 0..80 B") << int(ScaledAxisTicker::Quantity::Bytes) << 0.0 << 80.0 << 6;
    QTest::newRow("time -0.25..25.9 ms") << int(ScaledAxisTicker::Quantity::Time) << -0.25e6 << 25.9e6 << 8;
    QTest::newRow("time 1 s + 2 ms") << int(ScaledAxisTicker::Quantity::Time) << 1e9 << 1.002e9 << 8;
    QTest::newRow("time 0..3.7 h") << int(ScaledAxisTicker::Quantity::Time) << 0.0 << 3.7 * 3600e9 << 8;
    QTest::newRow("events -12..1234") << int(ScaledAxisTicker::Quantity::Count) << -12.0 << 1234.0 << 8;
    QTest::newRow("instructions 0..7.2M") << int(ScaledAxisTicker::Quantity::Count) << 0.0 << 7.2e6 << 8;
}

void TestAxisTicks::windowAndRuleAgree() {
    QFETCH(int, quantity);
    QFETCH(double, lower);
    QFETCH(double, upper);
    QFETCH(int, count);
    const auto q = static_cast<ScaledAxisTicker::Quantity>(quantity);
    const Ticks window = windowTicks(q, lower, upper, count);
    const AxisTicks rule = axisTicks(q == ScaledAxisTicker::Quantity::Bytes  ? TickQuantity::Bytes
                                     : q == ScaledAxisTicker::Quantity::Time ? TickQuantity::Time
                                                                            : TickQuantity::Count,
                                     lower, upper, count);
    Ticks ours;
    for (std::size_t i = 0; i < rule.values.size(); ++i) {
        ours.values << rule.values[i];
        ours.labels << QString::fromStdString(rule.labels[i]);
    }
    QVERIFY(window.values.size() >= 3);
    compareTicks(window, ours, 1e-6 * (upper - lower));
}

void TestAxisTicks::reportSvgHasTheWindowsTicks_data() {
    QTest::addColumn<QString>("timeKind");
    QTest::addColumn<qint64>("end");
    QTest::addColumn<qint64>("peak");
    QTest::addColumn<QString>("xTitle");
    QTest::newRow("time, 25.38 ms, 1.6 GiB") << "time" << qint64(25380000) << qint64(1717986918) << "Time since trace start (ms)";
    QTest::newRow("instructions, 7.2M, 1.5 MiB") << "instructions" << qint64(7188368) << qint64(1572880)
                                                 << "Instructions executed (millions)";
    QTest::newRow("events, 1234, 80 B") << "index" << qint64(1234) << qint64(80) << "Event number (thousands)";
}

void TestAxisTicks::reportSvgHasTheWindowsTicks() {
    QFETCH(QString, timeKind);
    QFETCH(qint64, end);
    QFETCH(qint64, peak);
    QFETCH(QString, xTitle);
    const std::vector<SeriesPoint> points{{0, 0}, {end / 3, peak}, {end / 2, peak / 4}, {end, peak / 2}};
    SvgPeak p;
    p.t = end / 3;
    p.bytes = peak;
    p.label = "peak";
    const QString svg = QString::fromStdString(
        timelineSvg({SvgCurve{"memory", "#000", 0, false, &points}}, p, timeKind.toStdString(), "t", end));
    // The SVG's axes run over [0, end] and [0, peak * its headroom]: the window's ticker over the same.
    const auto xq = timeKind == "time" ? ScaledAxisTicker::Quantity::Time : ScaledAxisTicker::Quantity::Count;
    compareTicks(svgTicks(svg, "xtick"), windowTicks(xq, 0, static_cast<double>(end), kTimeAxisTicks), 0.051);
    const double yTop = static_cast<double>(peak) * kSvgValueHeadroom;
    compareTicks(svgTicks(svg, "ytick"), windowTicks(ScaledAxisTicker::Quantity::Bytes, 0, yTop, kValueAxisTicks), 0.051);
    QCOMPARE(svgTitle(svg, "xtitle"), xTitle);
    QSharedPointer<ScaledAxisTicker> bytes(new ScaledAxisTicker(ScaledAxisTicker::Quantity::Bytes));
    bytes->updateUnit(QCPRange(0, yTop));
    QCOMPARE(svgTitle(svg, "ytitle"), QStringLiteral("Memory (%1)").arg(bytes->unitSuffix()));
}

QTEST_MAIN(TestAxisTicks)
#include "tst_axis_ticks.moc"

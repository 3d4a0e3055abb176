// SPDX-License-Identifier: MIT
// ColumnGraph (widgets/ColumnGraph.h): the per-column fill that replaced QCPGraph's polygon fill
// on the timeline (issue 12). Expectations are worked out by hand from the step data and the
// axes' own pixel mapping: a step line holds each value until the next key, and a column's top
// is the highest value the line reaches in it.
#include <QtTest>
#include <cmath>
#include <qcustomplot.h>

#include "widgets/ColumnGraph.h"

using namespace memviz;

namespace {

// A 400×300 plot with both axes 0..100, laid out so the pixel mapping is final.
struct Plot {
    QCustomPlot plot;
    Plot() {
        plot.resize(400, 300);
        plot.xAxis->setRange(0, 100);
        plot.yAxis->setRange(0, 100);
        plot.replot();
    }
    double px(double key) const { return plot.xAxis->coordToPixel(key); }
    double py(double value) const { return plot.yAxis->coordToPixel(value); }
    int column(double key) const { return static_cast<int>(std::floor(px(key))) - plot.axisRect()->rect().left(); }
    bool tinted(double key, double value) const {
        const QImage image = const_cast<QCustomPlot&>(plot).toPixmap(400, 300).toImage();
        const QColor c = image.pixelColor(static_cast<int>(px(key)), static_cast<int>(py(value)));
        return c != QColor(Qt::white);
    }
};

ColumnGraph* stepGraph(Plot& p, const QVector<double>& keys, const QVector<double>& values) {
    auto* g = new ColumnGraph(p.plot.xAxis, p.plot.yAxis);
    g->setLineStyle(QCPGraph::lsStepLeft);
    g->setData(keys, values, true);
    return g;
}

} // namespace

class TestColumnGraph : public QObject {
    Q_OBJECT
private slots:
    void topsFollowAStepLine() {
        Plot p;
        ColumnGraph* g = stepGraph(p, {0, 50, 100}, {20, 80, 80});
        const std::vector<double> tops = g->columnTops();
        QCOMPARE(static_cast<int>(tops.size()), p.plot.axisRect()->width());
        // Left of the step the line is at 20, right of it at 80; the step's own column reaches 80.
        for (double key : {1.0, 25.0, 48.0}) QCOMPARE(tops[static_cast<std::size_t>(p.column(key))], p.py(20));
        for (double key : {50.0, 52.0, 75.0, 99.0}) QCOMPARE(tops[static_cast<std::size_t>(p.column(key))], p.py(80));
    }

    void aDenseColumnReachesItsHighestPoint() {
        Plot p;
        // Eight points per column alternating 10 and 90: the envelope is 90 wherever there is data.
        QVector<double> keys, values;
        const double perColumn = 100.0 / p.plot.axisRect()->width();
        for (int i = 0; i < p.plot.axisRect()->width() * 8; ++i) {
            keys << i * perColumn / 8;
            values << (i % 2 ? 90 : 10);
        }
        ColumnGraph* g = stepGraph(p, keys, values);
        g->setAdaptiveSampling(false);
        const std::vector<double> tops = g->columnTops();
        for (int c = 0; c + 1 < static_cast<int>(tops.size()); ++c)
            QVERIFY2(tops[static_cast<std::size_t>(c)] == p.py(90), qPrintable(QString("column %1").arg(c)));
    }

    void fillsBelowTheLineAndNotAbove() {
        Plot p;
        ColumnGraph* g = stepGraph(p, {0, 50, 100}, {20, 80, 80});
        g->setPen(Qt::NoPen);
        g->setBrush(QColor(0, 0, 200, 120));
        p.plot.replot();
        QVERIFY(p.tinted(25, 10));  // under 20
        QVERIFY(!p.tinted(25, 50)); // above 20
        QVERIFY(p.tinted(75, 50));  // under 80
        QVERIFY(!p.tinted(75, 90)); // above 80
    }

    void aStackedBandFillsBetweenTheTwoLines() {
        Plot p;
        ColumnGraph* lower = stepGraph(p, {0, 100}, {30, 30});
        ColumnGraph* upper = stepGraph(p, {0, 100}, {70, 70});
        lower->setPen(Qt::NoPen);
        upper->setPen(Qt::NoPen);
        upper->setBrush(QColor(200, 0, 0, 160));
        upper->setChannelFillGraph(lower); // lower has no brush: only the band 30..70 is filled
        p.plot.replot();
        QVERIFY(!p.tinted(50, 15));
        QVERIFY(p.tinted(50, 50));
        QVERIFY(!p.tinted(50, 85));
    }

    void aDenseCurveGetsAOnePixelPen() {
        const QPen wide(Qt::red, 1.6, Qt::DashLine);
        QCOMPARE(densityPen(wide, 100, 400).widthF(), 1.6); // a point per 4 columns: kept
        const QPen thin = densityPen(wide, 1000, 400);
        QCOMPARE(thin.widthF(), 1.0);
        QCOMPARE(thin.style(), Qt::DashLine);
        QCOMPARE(thin.color(), QColor(Qt::red));
    }
};

QTEST_MAIN(TestColumnGraph)
#include "tst_column_graph.moc"

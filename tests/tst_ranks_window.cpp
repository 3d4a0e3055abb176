// SPDX-License-Identifier: MIT
// The Ranks window (issue 13): a folder of three ranks' allocation logs (tests/RankLogs.h, the
// figures worked out by hand there): one lane per rank with that rank's curve, the table and
// the imbalance in the status line; zooming one lane zooms all; a Shift+drag selection shows in
// every lane and the table gives each rank's peak inside it (worked out by hand below); a folder
// without rank files says so.
#include <QDir>
#include <QLabel>
#include <QStandardItemModel>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QtTest>
#include <qcustomplot.h>

#include "RankLogs.h"
#include "TestSupport.h"
#include "widgets/ranks/RanksPlot.h"
#include "widgets/ranks/RanksWindow.h"

using namespace memviz;
using namespace memviz::test;

namespace {

constexpr int kSortRole = Qt::UserRole + 1;

double sortValue(QStandardItemModel* m, int row, int column) { return m->item(row, column)->data(kSortRole).toDouble(); }

} // namespace

class TestRanksWindow : public QObject {
    Q_OBJECT
private slots:
    void initTestCase();
    void lanesTableAndImbalance();
    void folderWithoutRanks();

private:
    QTemporaryDir dir_;
};

void TestRanksWindow::initTestCase() {
    QStandardPaths::setTestModeEnabled(true); // the import cache apart from the user's
    QDir(QStandardPaths::writableLocation(QStandardPaths::CacheLocation)).removeRecursively();
    QDir().mkpath(dir_.filePath("job"));
    writeFile(dir_, "job/rank0.csv", kRank0);
    writeFile(dir_, "job/rank1.csv", kRank1);
    writeFile(dir_, "job/rank2.csv", kRank2);
}

void TestRanksWindow::lanesTableAndImbalance() {
    RanksWindow w;
    w.open({dir_.filePath("job")});
    w.waitForResult();
    QVERIFY2(w.rankSet().has_value(), qPrintable(w.status()->text()));
    RanksPlot* plot = w.plot();
    QCOMPARE(plot->laneCount(), 3);
    // Each lane's curve peaks at its rank's peak (1500, 3000, 1800) at its time (10, 15, 12 ns).
    const double peaks[] = {1500, 3000, 1800}, peakAt[] = {10, 15, 12};
    for (int i = 0; i < 3; ++i) {
        double best = 0, at = -1;
        for (auto it = plot->graph(i)->data()->constBegin(); it != plot->graph(i)->data()->constEnd(); ++it)
            if (it->value > best) best = it->value, at = it->key;
        QCOMPARE(best, peaks[i]);
        QCOMPARE(at, peakAt[i]);
        QCOMPARE(plot->graph(i)->keyAxis()->axisRect(), plot->lane(i));
    }
    // The table: rank, peak, time of peak, final, top operator.
    QStandardItemModel* t = w.table();
    QCOMPARE(t->rowCount(), 3);
    const double finals[] = {1100, 1100, 1300};
    const char* top[] = {"weights", "activations", "weights"};
    for (int i = 0; i < 3; ++i) {
        QCOMPARE(t->item(i, 0)->text(), QStringLiteral("rank %1").arg(i));
        QCOMPARE(sortValue(t, i, 2), peaks[i]);
        QCOMPARE(sortValue(t, i, 3), peakAt[i]);
        QCOMPARE(sortValue(t, i, 4), finals[i]);
        QVERIFY2(t->item(i, 5)->text().startsWith(QString::fromLatin1(top[i])), qPrintable(t->item(i, 5)->text()));
    }
    const QString status = w.status()->text();
    QVERIFY2(status.contains("rank 1 peaks at") && status.contains("max/min 2.00×") && status.contains("activations"),
             qPrintable(status));
    // The logs' own clock starts at 0 in each: lined up by it, they all start together.
    QVERIFY2(status.contains("lined up by the clock they recorded"), qPrintable(status));
    for (const RankRow& r : w.rankSet()->rows) QCOMPARE(r.startOffsetNs, std::int64_t(0));

    // Zoom one lane: every lane follows.
    plot->lane(1)->axis(QCPAxis::atBottom)->setRange(5, 20);
    for (int i = 0; i < 3; ++i) {
        QCOMPARE(plot->lane(i)->axis(QCPAxis::atBottom)->range().lower, 5.0);
        QCOMPARE(plot->lane(i)->axis(QCPAxis::atBottom)->range().upper, 20.0);
    }

    // Shift+drag from 11 ns to 13 ns in the first lane. Live bytes in that window, by hand:
    // rank 0 holds 1500 throughout (10..20); rank 1 1000 (its 3000 come at 15); rank 2 1000,
    // then 1800 from 12: the peaks in the selection are 1500, 1000, 1800.
    w.resize(1100, 800);
    w.show();
    QVERIFY(QTest::qWaitForWindowExposed(&w));
    plot->plot()->replot();
    QCPAxis* x = plot->lane(0)->axis(QCPAxis::atBottom);
    const int y = plot->lane(0)->rect().center().y();
    const QPoint from(qRound(x->coordToPixel(11)), y), to(qRound(x->coordToPixel(13)), y);
    QTest::mousePress(plot->plot(), Qt::LeftButton, Qt::ShiftModifier, from);
    QTest::mouseMove(plot->plot(), QPoint((from.x() + to.x()) / 2, y));
    QTest::mouseMove(plot->plot(), to);
    QTest::mouseRelease(plot->plot(), Qt::LeftButton, Qt::ShiftModifier, to);
    const auto sel = plot->selection();
    QVERIFY(sel.has_value());
    const double perPixel = 15.0 / plot->lane(0)->width();
    QVERIFY2(std::abs(sel->first - 11) <= 2 * perPixel && std::abs(sel->second - 13) <= 2 * perPixel,
             qPrintable(QStringLiteral("%1..%2").arg(sel->first).arg(sel->second)));
    const double inSelection[] = {1500, 1000, 1800};
    for (int i = 0; i < 3; ++i) QCOMPARE(sortValue(t, i, 6), inSelection[i]);
    QVERIFY2(w.status()->text().contains("selected"), qPrintable(w.status()->text()));
    // Esc clears it, in every lane.
    QTest::keyClick(plot, Qt::Key_Escape);
    QVERIFY(!plot->selection().has_value());
    QCOMPARE(t->item(0, 6)->text(), QStringLiteral("—"));
}

void TestRanksWindow::folderWithoutRanks() {
    QDir().mkpath(dir_.filePath("empty"));
    writeFile(dir_, "empty/notes.txt", "nothing\n");
    RanksWindow w;
    w.open({dir_.filePath("empty")});
    w.waitForResult();
    QVERIFY(!w.rankSet().has_value());
    QVERIFY2(w.status()->text().contains("no rank files"), qPrintable(w.status()->text()));
}

QTEST_MAIN(TestRanksWindow)
#include "tst_ranks_window.moc"

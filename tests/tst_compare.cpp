// SPDX-License-Identifier: MIT
// The Compare window (issue 13): two allocation logs whose curves, difference and per-operator
// changes are worked out by hand below, lined up at the starts and at the peaks; the filter;
// B given as a raw file (imported by the import child).
#include <QJsonDocument>
#include <QLineEdit>
#include <QSortFilterProxyModel>
#include <QStandardItemModel>
#include <QTemporaryDir>
#include <QtTest>
#include <qcustomplot.h>

#include "TestSupport.h"
#include "core/Progress.h"
#include "formats/FormatRegistry.h"
#include "store/Database.h"
#include "widgets/compare/ComparePlot.h"
#include "widgets/compare/CompareWindow.h"

using namespace memviz;

namespace {

// A: live bytes 100 at 0, 400 at 10, 100 at 20, 150 at 30 (peak 400 at 10).
const QByteArray kLogA = "time_ns,action,address,size,op\n"
                         "0,alloc,0x10,100,a\n"
                         "10,alloc,0x20,300,b\n"
                         "20,free,0x20,,\n"
                         "30,alloc,0x30,50,c\n";
// B: live bytes 100 at 0, 600 at 10, 670 at 15, 170 at 20 (peak 670 at 15).
const QByteArray kLogB = "time_ns,action,address,size,op\n"
                         "0,alloc,0x10,100,a\n"
                         "10,alloc,0x20,500,b\n"
                         "15,alloc,0x40,70,d\n"
                         "20,free,0x20,,\n";

QList<QPair<double, double>> points(QCPGraph* g) {
    QList<QPair<double, double>> out;
    for (auto it = g->data()->constBegin(); it != g->data()->constEnd(); ++it) out.append({it->key, it->value});
    return out;
}

double maxValue(QCPGraph* g) {
    bool ok = false;
    return g->getValueRange(ok).upper;
}

} // namespace

class TestCompare : public QObject {
    Q_OBJECT
private slots:
    void initTestCase();
    void curvesDifferenceAndRows();
    void bFromARawFile();

private:
    QTemporaryDir dir_;
    QString store_;
};

void TestCompare::initTestCase() {
    store_ = dir_.filePath("both.memviz");
    Database db(store_.toStdString());
    QCOMPARE(importFile(db, test::writeFile(dir_, "a.csv", kLogA).toStdString(), Progress{}), 1);
    QCOMPARE(importFile(db, test::writeFile(dir_, "b.csv", kLogB).toStdString(), Progress{}), 2);
}

void TestCompare::curvesDifferenceAndRows() {
    CompareWindow w;
    w.compare(store_, 1, "a.csv", store_, 2, "b.csv");
    w.waitForResult();
    QVERIFY(w.comparison().has_value());
    ComparePlot* plot = w.plot();
    QCOMPARE(maxValue(plot->graphA()), 400.0);
    QCOMPARE(maxValue(plot->graphB()), 670.0);
    // Lined up at the starts: B - A at 0, 10, 15, 20, 30.
    const QList<QPair<double, double>> atStart{{0, 0}, {10, 200}, {15, 270}, {20, 70}, {30, 20}};
    QCOMPARE(points(plot->graphDifference()), atStart);
    // Lined up at the peaks: B moves by 10 - 15 = -5 ns (B's 0, 10, 15, 20 at -5, 5, 10, 15).
    w.setAlignment(CompareAlign::Peak);
    const QList<QPair<double, double>> atPeak{{-5, 100}, {0, 0}, {5, 500}, {10, 270}, {15, -230}, {20, 70}, {30, 20}};
    QCOMPARE(points(plot->graphDifference()), atPeak);
    QCOMPARE(points(plot->graphB()).first().first, -5.0);

    // Devices: peaks 400 and 670 bytes. Operators, most changed first: b +200, d +70, c -50.
    QStandardItemModel* devices = w.devicesModel();
    QCOMPARE(devices->rowCount(), 1);
    QCOMPARE(devices->item(0, 1)->text(), QStringLiteral("400 B"));
    QCOMPARE(devices->item(0, 2)->text(), QStringLiteral("670 B"));
    QCOMPARE(devices->item(0, 3)->text(), QStringLiteral("+270 B"));
    QSortFilterProxyModel* rows = w.rowsProxy();
    QVERIFY(rows->rowCount() >= 3);
    QCOMPARE(rows->index(0, 0).data().toString(), QStringLiteral("b"));
    QCOMPARE(rows->index(0, 3).data().toString(), QStringLiteral("+200 B"));
    QCOMPARE(rows->index(1, 0).data().toString(), QStringLiteral("d"));
    QCOMPARE(rows->index(2, 0).data().toString(), QStringLiteral("c"));
    QCOMPARE(rows->index(2, 3).data().toString(), QStringLiteral("-50 B"));
    // The filter keeps the matching operators only.
    w.filter()->setText("d");
    QCOMPARE(rows->rowCount(), 1);
    QCOMPARE(rows->index(0, 0).data().toString(), QStringLiteral("d"));
}

void TestCompare::bFromARawFile() {
    CompareWindow w;
    QTemporaryDir cache;
    w.compareWithFile(store_, 1, "a.csv", test::writeFile(cache, "b-again.csv", kLogB), cache.filePath("import.memviz"));
    w.waitForResult();
    QVERIFY2(w.comparison().has_value(), qPrintable(w.status()->text()));
    QCOMPARE(maxValue(w.plot()->graphB()), 670.0);
    QCOMPARE(w.devicesModel()->item(0, 3)->text(), QStringLiteral("+270 B"));
}

QTEST_MAIN(TestCompare)
#include "tst_compare.moc"

// SPDX-License-Identifier: MIT
// The Compare window (issue 13): two allocation logs whose curves, difference and per-operator
// changes are worked out by hand below, lined up at the starts and at the peaks; the filter;
// B given as a raw file (imported by the import child).
#include <QApplication>
#include <QComboBox>
#include <QInputDialog>
#include <QTimer>
#include <QJsonDocument>
#include <QHeaderView>
#include <QLabel>
#include <QTableView>
#include <QLineEdit>
#include <QSortFilterProxyModel>
#include <QStandardItemModel>
#include <QTemporaryDir>
#include <QtTest>
#include <qcustomplot.h>

#include "DiffLogs.h"
#include "TestSupport.h"
#include "core/Progress.h"
#include "formats/FormatRegistry.h"
#include "store/Database.h"
#include "widgets/compare/ComparePlot.h"
#include "widgets/compare/CompareWindow.h"
#include "widgets/compare/TraceChooser.h"

using namespace memviz;

namespace {

using memviz::test::kDiffLogA;
using memviz::test::kDiffLogB;

QList<QPair<double, double>> points(QCPGraph* g) {
    QList<QPair<double, double>> out;
    for (auto it = g->data()->constBegin(); it != g->data()->constEnd(); ++it) out.append({it->key, it->value});
    return out;
}

QString text(const QAbstractItemModel* m, int row, int column) { return m->index(row, column).data().toString(); }
qlonglong sortValue(const QAbstractItemModel* m, int row, int column) {
    return m->index(row, column).data(CompareRowsModel::kSortRole).toLongLong();
}
QString header(const QAbstractItemModel* m, int column) { return m->headerData(column, Qt::Horizontal).toString(); }

// Makes the row named `name` the current one, as a click does, and waits for its curves;
// false when no row is so named or the row has no curve.
bool choose(CompareWindow& w, const QString& name) {
    QAbstractItemModel* rows = w.rowsProxy();
    for (int r = 0; r < rows->rowCount(); ++r)
        if (rows->index(r, 0).data().toString() == name) {
            w.rowsView()->selectionModel()->setCurrentIndex(rows->index(r, 0),
                                                            QItemSelectionModel::ClearAndSelect | QItemSelectionModel::Rows);
            w.waitForRowCurves();
            return !w.markedRow().isEmpty();
        }
    return false;
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
    void memoryTimelineCategories();
    void linedUpAtTheFirstCommonStep();
    void shiftDragMovesB();
    void aLongNameLeavesTheFiguresInSight();
    void snapshotTablesToChooseFrom();
    void choosingARowDrawsItInBoth();
    void aStoreOfSeveralTracesAsksWhich();

private:
    QTemporaryDir dir_;
    QString store_;
};

void TestCompare::initTestCase() {
    store_ = dir_.filePath("both.memviz");
    Database db(store_.toStdString());
    QCOMPARE(importFile(db, test::writeFile(dir_, "a.csv", kDiffLogA).toStdString(), Progress{}), 1);
    QCOMPARE(importFile(db, test::writeFile(dir_, "b.csv", kDiffLogB).toStdString(), Progress{}), 2);
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
    w.compareWithFile(store_, 1, "a.csv", test::writeFile(cache, "b-again.csv", kDiffLogB), cache.filePath("import.memviz"));
    w.waitForResult();
    QVERIFY2(w.comparison().has_value(), qPrintable(w.status()->text()));
    QCOMPARE(maxValue(w.plot()->graphB()), 670.0);
    QCOMPARE(w.devicesModel()->item(0, 3)->text(), QStringLiteral("+270 B"));
}

// Memory-timeline exports list their eight categories; the same export twice changes nothing.
void TestCompare::memoryTimelineCategories() {
    MEMVIZ_REQUIRE_FIXTURE(file, "pytorch-memory-timeline/hta_memory_timeline.raw.json.gz");
    QTemporaryDir dir;
    const QString store = dir.filePath("timeline.memviz");
    {
        Database db(store.toStdString());
        QCOMPARE(importFile(db, file.toStdString(), Progress{}), 1);
    }
    CompareWindow w;
    w.compare(store, 1, "A", store, 1, "B");
    w.waitForResult();
    const CompareRowsModel* rows = w.rowsModel();
    QCOMPARE(header(rows, 0), QStringLiteral("Memory category"));
    QCOMPARE(rows->rowCount(), 8);
    for (int r = 0; r < rows->rowCount(); ++r) {
        QCOMPARE(text(rows, r, 2), text(rows, r, 3));
        QCOMPARE(text(rows, r, 4), QStringLiteral("0 B"));
    }
}

// Two profiler traces that both mark steps are lined up at the first one by default; the
// status line says so. B's curve starts 50 µs after its step 0, as written in DiffLogs.h.
void TestCompare::linedUpAtTheFirstCommonStep() {
    QTemporaryDir dir;
    const QString store = dir.filePath("steps.memviz");
    {
        Database db(store.toStdString());
        QCOMPARE(importFile(db, test::writeFile(dir, "a.pt.trace.json", test::diffProfilerTrace(1'000'000, 100, 150, 20, 120, 300)).toStdString(), Progress{}), 1);
        QCOMPARE(importFile(db, test::writeFile(dir, "b.pt.trace.json", test::diffProfilerTrace(5'000'000, 300, 330, 50, 350, 350)).toStdString(), Progress{}), 2);
    }
    CompareWindow w;
    w.compare(store, 1, "a", store, 2, "b");
    w.waitForResult();
    QVERIFY2(w.status()->text().contains("lined up at step 0"), qPrintable(w.status()->text()));
    QCOMPARE(maxValue(w.plot()->graphB()), 350.0);
    // Lined up at the peaks instead: B moves by 120 - 350 µs, so its peak is drawn at A's.
    w.setAlignment(CompareAlign::Peak);
    QVERIFY2(w.status()->text().contains("B shifted by"), qPrintable(w.status()->text()));
    QVERIFY(!w.status()->text().contains("lined up at step"));
    // At the marker "my_label": A's at 150 µs, B's at 330 µs, so B moves by -180 µs.
    w.alignAtMarker("my_label");
    w.waitForResult();
    QVERIFY2(w.status()->text().contains("lined up at marker “my_label”"), qPrintable(w.status()->text()));
    QVERIFY2(w.status()->text().contains("B shifted by −180"), qPrintable(w.status()->text()));
    w.alignAtMarker("no_such_label");
    w.waitForResult();
    QVERIFY2(w.status()->text().contains("cannot line up at “no_such_label”"), qPrintable(w.status()->text()));
    QVERIFY(!w.status()->text().contains("B shifted by"));

    // key_averages, by hand from DiffLogs.h (cuda:0; an event at an op's start is inside it):
    // A's step 1 holds +200 and my_label's -300, so its self memory is +200 and my_label's
    // -300; B's my_label holds nothing and its step 1 +250 - 350 = -100 of its own. Step 0
    // (+100 in both) did not change and is not listed.
    QComboBox* choice = w.rowsChoice();
    choice->setCurrentIndex(choice->findData(static_cast<int>(CompareRows::KeyAverages)));
    const CompareRowsModel* rows = w.rowsModel();
    QCOMPARE(rows->rowCount(), 2);
    auto value = [&](int row, int column) { return sortValue(rows, row, column); };
    QCOMPARE(text(rows, 0, 0), QStringLiteral("ProfilerStep#1"));
    QCOMPARE(text(rows, 0, 1), QStringLiteral("cuda:0"));
    QCOMPARE(value(0, 5), 200);
    QCOMPARE(value(0, 6), -100);
    QCOMPARE(value(0, 8), 0); // inclusive: -100 in both
    QCOMPARE(text(rows, 1, 0), QStringLiteral("my_label"));
    QCOMPARE(value(1, 7), 300);
}

// Shift+drag moves B by the time under the pointer's path (the axis's own pixel-to-time), the
// difference is recomputed for the new shift, the view does not pan, and choosing an alignment
// starts again from it.
void TestCompare::shiftDragMovesB() {
    CompareWindow w;
    w.resize(1100, 760);
    w.show();
    QVERIFY(QTest::qWaitForWindowExposed(&w));
    w.compare(store_, 1, "a.csv", store_, 2, "b.csv");
    w.waitForResult();
    w.setAlignment(CompareAlign::Start);
    QCustomPlot* plot = w.plot()->plot();
    plot->replot();
    const QCPRange view = plot->xAxis->range();
    const QRect r = plot->axisRect()->rect();
    const QPoint from(r.left() + r.width() / 4, r.center().y()), to(r.left() + r.width() / 2, r.center().y());
    const auto expected = std::llround(plot->xAxis->pixelToCoord(to.x()) - plot->xAxis->pixelToCoord(from.x()));
    QVERIFY(expected > 0);
    QTest::mousePress(plot, Qt::LeftButton, Qt::ShiftModifier, from);
    QTest::mouseMove(plot, to);
    QTest::mouseRelease(plot, Qt::LeftButton, Qt::ShiftModifier, to);
    QCOMPARE(w.plot()->shiftB(), static_cast<std::int64_t>(expected));
    QCOMPARE(points(w.plot()->graphB()).first().first, static_cast<double>(expected)); // B's first point (t = 0)
    // kDiffLogA holds 100 B from 0; B has not started yet there: B - A = -100 until B's start.
    QCOMPARE(points(w.plot()->graphDifference()).first(), qMakePair(0.0, -100.0));
    QCOMPARE(plot->xAxis->range().lower, view.lower);
    QCOMPARE(plot->xAxis->range().upper, view.upper);
    QVERIFY2(w.status()->text().contains("by Shift+drag"), qPrintable(w.status()->text()));
    w.setAlignment(CompareAlign::Peak);
    QVERIFY(!w.status()->text().contains("Shift+drag"));
    QCOMPARE(w.plot()->shiftB(), static_cast<std::int64_t>(-5)); // the peaks again: 10 - 15
}

void TestCompare::aLongNameLeavesTheFiguresInSight() {
    // A C++ operator or site name can be far wider than the window (heaptrack's demangled
    // templates): the figures and every header must still be in sight, the name elided.
    const QByteArray name = "std::vector<" + QByteArray(400, 'x') + ">::_M_realloc_insert";
    const QString store = dir_.filePath("long.memviz");
    {
        Database db(store.toStdString());
        const QByteArray a = "time_ns,action,address,size,op\n0,alloc,0x10,100," + name + "\n";
        const QByteArray b = "time_ns,action,address,size,op\n0,alloc,0x10,300," + name + "\n";
        QCOMPARE(importFile(db, test::writeFile(dir_, "long-a.csv", a).toStdString(), Progress{}), 1);
        QCOMPARE(importFile(db, test::writeFile(dir_, "long-b.csv", b).toStdString(), Progress{}), 2);
    }
    CompareWindow w;
    w.resize(900, 700);
    w.show();
    w.compare(store, 1, "long-a.csv", store, 2, "long-b.csv");
    w.waitForResult();
    QTableView* rows = nullptr;
    for (QTableView* v : w.findChildren<QTableView*>())
        if (qobject_cast<QSortFilterProxyModel*>(v->model())) rows = v;
    QVERIFY(rows);
    QTRY_VERIFY(rows->model()->rowCount() == 1);
    const QHeaderView* header = rows->horizontalHeader();
    const int width = rows->viewport()->width();
    // Every column starts inside the view, and the name column leaves room for the others.
    QTRY_VERIFY2(header->sectionViewportPosition(header->count() - 1) < width,
                 qPrintable(QString("last column at %1 of %2").arg(header->sectionViewportPosition(header->count() - 1)).arg(width)));
    QVERIFY(header->sectionSize(0) < width);
}

// Two CUDA snapshots offer four tables. The pair is tests/oracles/make_snapshot_pair.py's
// (its docstring): alive at each peak, f3's 1 MiB is gone in B and f4's 3000 bytes are new;
// seven blocks differ (worked out in tst_diff_cli); segments S2 (A only), S3 (B only), S1.
void TestCompare::snapshotTablesToChooseFrom() {
    QTemporaryDir dir;
    const test::ProcessResult made = test::runProcess(test::python(), {test::oracle("make_snapshot_pair.py"), dir.path()});
    QVERIFY2(made.exitCode == 0, made.err.constData());
    const QString store = dir.filePath("pair.memviz");
    {
        Database db(store.toStdString());
        QCOMPARE(importFile(db, dir.filePath("pair_a.pickle").toStdString(), Progress{}), 1);
        QCOMPARE(importFile(db, dir.filePath("pair_b.pickle").toStdString(), Progress{}), 2);
    }
    CompareWindow w;
    w.resize(1100, 760);
    w.show();
    w.compare(store, 1, "A", store, 2, "B");
    w.waitForResult();
    QComboBox* choice = w.rowsChoice();
    QCOMPARE(choice->count(), 4);
    QCOMPARE(header(w.rowsModel(), 0), QStringLiteral("Operator")); // the first, as before
    auto show = [&](CompareRows rows) { choice->setCurrentIndex(choice->findData(static_cast<int>(rows))); };

    show(CompareRows::AliveAtPeak);
    QCOMPARE(header(w.rowsModel(), 0), QStringLiteral("Call site"));
    QCOMPARE(w.rowsModel()->rowCount(), 4);
    QCOMPARE(text(w.rowsModel(), 0, 0), QStringLiteral("f3 (model.py:30)"));
    QCOMPARE(sortValue(w.rowsModel(), 0, 4), -(1LL << 20));
    QCOMPARE(text(w.rowsModel(), 1, 0), QStringLiteral("f4 (model.py:40)"));
    QCOMPARE(sortValue(w.rowsModel(), 1, 4), 3000);

    show(CompareRows::Blocks);
    QCOMPARE(w.rowsModel()->rowCount(), 7);
    // Nine columns, and every one of them whole in sight (no sideways scrolling).
    QTableView* rows = nullptr;
    for (QTableView* v : w.findChildren<QTableView*>())
        if (qobject_cast<QSortFilterProxyModel*>(v->model())) rows = v;
    QVERIFY(rows);
    const QHeaderView* header = rows->horizontalHeader();
    auto end = [&] { return header->sectionViewportPosition(header->count() - 1) + header->sectionSize(header->count() - 1); };
    QTRY_VERIFY2(end() <= rows->viewport()->width(), qPrintable(QString("last column ends at %1 of %2").arg(end()).arg(rows->viewport()->width())));
    show(CompareRows::Segments);
    QCOMPARE(w.rowsModel()->rowCount(), 3);
    w.filter()->setText("0x400000");
    QCOMPARE(w.rowsProxy()->rowCount(), 1);
    w.filter()->clear();

    // f2's allocations over time, from the script's entries (ns from each trace's first entry):
    // A holds 1000 from 20 µs on; B holds 2000 from 20 µs, its temporary 1000 from 26 to 27 µs.
    show(CompareRows::AliveAtPeak);
    QVERIFY(choose(w, "f2 (model.py:20)"));
    QCOMPARE(points(w.plot()->graphRowA()), (QList<QPair<double, double>>{{20'000, 1000}}));
    QCOMPARE(points(w.plot()->graphRowB()), (QList<QPair<double, double>>{{20'000, 2000}, {26'000, 3000}, {27'000, 2000}}));
    // Segments have no curve: nothing is drawn and the status line says why.
    show(CompareRows::Segments);
    QVERIFY(w.plot()->graphRowA()->dataCount() == 0 && w.plot()->graphRowB()->dataCount() == 0);
    QVERIFY(!choose(w, "0x400000"));
    QVERIFY2(w.status()->text().contains("no curve"), qPrintable(w.status()->text()));
}

// Choosing an operator draws, in each trace, the bytes its allocations hold over time (DiffLogs.h):
// b holds 300 in A and 500 in B from 10 to 20 ns; d exists in B only (70 from 15 ns on).
void TestCompare::choosingARowDrawsItInBoth() {
    CompareWindow w;
    w.resize(1100, 760);
    w.show();
    w.compare(store_, 1, "a.csv", store_, 2, "b.csv");
    w.waitForResult();
    w.setAlignment(CompareAlign::Start);
    QVERIFY(choose(w, "b"));
    QCOMPARE(w.markedRow(), QStringLiteral("b"));
    QCOMPARE(points(w.plot()->graphRowA()), (QList<QPair<double, double>>{{10, 300}, {20, 0}}));
    QCOMPARE(points(w.plot()->graphRowB()), (QList<QPair<double, double>>{{10, 500}, {20, 0}}));
    QVERIFY(w.plot()->plot()->legend->hasItemWithPlottable(w.plot()->graphRowA()));
    QVERIFY2(w.status()->text().contains("dotted: b"), qPrintable(w.status()->text()));
    // B's row curve moves with B: lined up at the peaks, by 10 - 15 = -5 ns.
    w.setAlignment(CompareAlign::Peak);
    QCOMPARE(points(w.plot()->graphRowB()), (QList<QPair<double, double>>{{5, 500}, {15, 0}}));
    QVERIFY(choose(w, "d"));
    QCOMPARE(w.plot()->graphRowA()->dataCount(), 0);
    QVERIFY(!w.plot()->plot()->legend->hasItemWithPlottable(w.plot()->graphRowA()));
    QCOMPARE(points(w.plot()->graphRowB()), (QList<QPair<double, double>>{{10, 70}}));
    QVERIFY(choose(w, "c"));
    QCOMPARE(points(w.plot()->graphRowA()), (QList<QPair<double, double>>{{30, 50}}));
    QCOMPARE(w.plot()->graphRowB()->dataCount(), 0);
}

// Comparing with a store of several traces asks which one: every trace is offered, and the
// newest other than the open one comes first (store_ holds a.csv as #1 and b.csv as #2).
void TestCompare::aStoreOfSeveralTracesAsksWhich() {
    QStringList offered;
    QString preselected;
    QTimer::singleShot(0, [&] {
        auto* dialog = qobject_cast<QInputDialog*>(QApplication::activeModalWidget());
        QVERIFY(dialog);
        offered = dialog->comboBoxItems();
        preselected = dialog->textValue();
        dialog->accept();
    });
    const std::optional<ChosenTrace> chosen = chooseTraceOf(nullptr, store_, 2);
    QCOMPARE(offered.size(), 2);
    QVERIFY2(offered[0].startsWith("#1  a.csv") && offered[1].startsWith("#2  b.csv"), qPrintable(offered.join(" | ")));
    QVERIFY2(preselected.startsWith("#1"), qPrintable(preselected));
    QVERIFY(chosen.has_value());
    QCOMPARE(chosen->id, 1);
    QCOMPARE(chosen->label, QStringLiteral("both.memviz#1"));
    // A store of one trace is not asked about.
    QTemporaryDir dir;
    const QString one = dir.filePath("one.memviz");
    {
        Database db(one.toStdString());
        QCOMPARE(importFile(db, test::writeFile(dir, "a.csv", kDiffLogA).toStdString(), Progress{}), 1);
    }
    const std::optional<ChosenTrace> only = chooseTraceOf(nullptr, one, 0);
    QVERIFY(only.has_value());
    QCOMPARE(only->id, 1);
}

QTEST_MAIN(TestCompare)
#include "tst_compare.moc"


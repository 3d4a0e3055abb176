// SPDX-License-Identifier: MIT
// The Ranks window (issue 13): a folder of three ranks' allocation logs (tests/RankLogs.h, the
// figures worked out by hand there): one lane per rank with that rank's curve, the table and
// the imbalance in the status line; zooming one lane zooms all; a Shift+drag selection shows in
// every lane and the table gives each rank's peak inside it (worked out by hand below); a folder
// without rank files says so. The window imports rank files in the reader child: a folder with
// a damaged rank file and one that crashes the reader shows the other ranks and names both;
// the good folder gives the same figures as `memviz ranks --json` on it.
#include <QDir>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QLabel>
#include <QStandardItemModel>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QtTest>
#include <csignal>
#include <map>
#include <qcustomplot.h>

#include "RankLogs.h"
#include "TestSupport.h"
#include "widgets/ranks/RanksPlot.h"
#include "formats/ImportWorkerProtocol.h"
#include "widgets/ImportTask.h"
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
    void sameFiguresAsTheCommandLine();
    void damagedAndCrashingRankFiles();
    void cancelEndsTheReader();
    void exactPeakInSelection();

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
    w.waitForSelectionPeaks();
    for (int i = 0; i < 3; ++i) QCOMPARE(sortValue(t, i, 6), inSelection[i]);
    QVERIFY2(!t->item(0, 6)->text().startsWith(QStringLiteral("≈")), qPrintable(t->item(0, 6)->text()));
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

// The window's figures for the good folder against `memviz ranks --json` on it (which imports
// in its own process, in-process).
void TestRanksWindow::sameFiguresAsTheCommandLine() {
    RanksWindow w;
    w.open({dir_.filePath("job")});
    w.waitForResult();
    QVERIFY2(w.rankSet().has_value(), qPrintable(w.status()->text()));
    const auto cli = runMemviz({"ranks", dir_.filePath("job"), "--json"});
    QVERIFY2(cli.exitCode == 0, cli.err.constData());
    const QJsonObject o = QJsonDocument::fromJson(cli.out).object();
    const QJsonArray ranks = o["ranks"].toArray();
    const RankSet& set = *w.rankSet();
    QCOMPARE(QString::fromStdString(set.device), o["device"].toString());
    QCOMPARE(qsizetype(set.rows.size()), ranks.size());
    for (qsizetype i = 0; i < ranks.size(); ++i) {
        const QJsonObject r = ranks[i].toObject();
        const RankRow& row = set.rows[static_cast<std::size_t>(i)];
        QCOMPARE(QString::fromStdString(row.name), r["name"].toString());
        QCOMPARE(qint64(row.peakBytes), r["peak_bytes"].toInteger());
        QCOMPARE(qint64(row.peakTimeNs), r["peak_time_ns"].toInteger());
        QCOMPARE(qint64(row.finalBytes), r["final_bytes"].toInteger());
        QCOMPARE(QString::fromStdString(row.topOp), r["top_op"].toString());
        QCOMPARE(qint64(row.topOpBytes), r["top_op_bytes"].toInteger());
    }
    const QJsonObject im = o["imbalance"].toObject();
    QCOMPARE(QString::fromStdString(set.rows[set.imbalance.maxRow].name), im["max_rank"].toString());
    QCOMPARE(QString::fromStdString(set.rows[set.imbalance.minRow].name), im["min_rank"].toString());
    QCOMPARE(*set.imbalance.ratio, im["ratio"].toDouble());
    QCOMPARE(QString::fromStdString(set.imbalance.op), im["op"].toString());
    QCOMPARE(qint64(set.imbalance.opDeltaBytes), im["op_delta_bytes"].toInteger());
}

namespace {

// An allocation log long enough that the reader reports progress before its end (where the
// test-only crash switch fires).
QByteArray longLog(int allocations) {
    QByteArray out = "time_ns,action,address,size,op\n";
    for (int i = 0; i < allocations; ++i) out += QByteArray::number(i) + ",alloc,0x" + QByteArray::number(0x1000 + i, 16) + ",16,op\n";
    return out;
}

// Points MEMVIZ_IMPORT_WORKER at a script that runs the real reader with the crash switch
// (importworker::kCrashVariable) set for the files whose path ends in `crashFor` only.
struct CrashOneFile {
    QByteArray realWorker = qgetenv("MEMVIZ_IMPORT_WORKER");
    CrashOneFile(const QTemporaryDir& dir, const QString& crashFor, const QString& how) {
        const QString script = dir.filePath("crash-one-worker.sh");
        writeFile(dir, "crash-one-worker.sh",
                  ("#!/bin/sh\ncase \"$2\" in *" + crashFor + ") " + importworker::kCrashVariable + "=" + how + "; export " +
                   importworker::kCrashVariable + ";; esac\nexec '" + QString::fromUtf8(realWorker) + "' \"$@\"\n")
                      .toUtf8());
        QFile::setPermissions(script, QFile::permissions(script) | QFileDevice::ExeOwner);
        qputenv("MEMVIZ_IMPORT_WORKER", script.toUtf8());
    }
    ~CrashOneFile() { qputenv("MEMVIZ_IMPORT_WORKER", realWorker); }
};

} // namespace

void TestRanksWindow::damagedAndCrashingRankFiles() {
    QDir().mkpath(dir_.filePath("bad"));
    writeFile(dir_, "bad/rank0.csv", kRank0);
    writeFile(dir_, "bad/rank1.csv", longLog(200000)); // the reader crashes on it (below)
    writeFile(dir_, "bad/rank2.csv", kRank2);
    // rank3: a gzip cut in half.
    QProcess gzip;
    gzip.start(QStringLiteral("gzip"), {QStringLiteral("-c")});
    gzip.write(longLog(5000));
    gzip.closeWriteChannel();
    QVERIFY(gzip.waitForFinished(10000));
    const QByteArray zipped = gzip.readAllStandardOutput();
    QVERIFY(zipped.size() > 100);
    writeFile(dir_, "bad/rank3.csv.gz", zipped.left(zipped.size() / 2));

    CrashOneFile crash(dir_, QStringLiteral("/rank1.csv"), QStringLiteral("segv"));
    RanksWindow w;
    w.open({dir_.filePath("bad")});
    w.waitForResult();
    // The other two ranks, with their hand-worked peaks (RankLogs.h).
    QVERIFY2(w.rankSet().has_value(), qPrintable(w.status()->text()));
    const RankSet& set = *w.rankSet();
    QCOMPARE(set.rows.size(), std::size_t(2));
    QCOMPARE(QString::fromStdString(set.rows[0].name), QStringLiteral("rank 0"));
    QCOMPARE(set.rows[0].peakBytes, std::int64_t(1500));
    QCOMPARE(QString::fromStdString(set.rows[1].name), QStringLiteral("rank 2"));
    QCOMPARE(set.rows[1].peakBytes, std::int64_t(1800));
    // Both failures named, each with its file; the crash as a crash of the reader.
    QCOMPARE(w.failures().size(), 2);
    QVERIFY2(w.failures()[0].contains("rank1.csv") && w.failures()[0].contains("SIGSEGV"), qPrintable(w.failures()[0]));
    QVERIFY2(w.failures()[1].contains("rank3.csv.gz"), qPrintable(w.failures()[1]));
    const QString status = w.status()->text();
    qInfo().noquote() << status;
    QVERIFY2(status.contains("rank1.csv") && status.contains("rank3.csv.gz") && status.contains("left out"), qPrintable(status));
    QCOMPARE(w.plot()->laneCount(), 2);
}

// Cancel while the reader child imports: the child is gone, the window says so.
void TestRanksWindow::cancelEndsTheReader() {
    QDir().mkpath(dir_.filePath("slow"));
    writeFile(dir_, "slow/rank0.csv", longLog(200000));
    writeFile(dir_, "slow/rank1.csv", kRank1);
    CrashOneFile hang(dir_, QStringLiteral("/rank0.csv"), QStringLiteral("hang")); // the reader waits forever
    RanksWindow w;
    w.open({dir_.filePath("slow")});
    ImportTask* task = w.importTask();
    QTRY_VERIFY_WITH_TIMEOUT(task->workerPid() > 0, 10000);
    const qint64 pid = task->workerPid();
    QTRY_VERIFY_WITH_TIMEOUT(w.status()->text().contains("rank0.csv"), 10000);
    w.cancel();
    QVERIFY(!w.isBusy());
    QVERIFY(!w.rankSet().has_value());
    QVERIFY2(w.status()->text().contains("Cancelled"), qPrintable(w.status()->text()));
    QTRY_VERIFY_WITH_TIMEOUT(::kill(static_cast<pid_t>(pid), 0) != 0, 10000); // the child is gone
}

// A rank whose log has far more events than the lane's ~2000 curve points: a 100000-byte spike
// just before the selection and a 50000-byte spike just inside it, one nanosecond apart, share
// a curve column, so the curve cannot tell them apart. The exact peak inside the selection,
// worked out here from the test's own events (the bytes held when the window begins, and the
// most held at any event inside it), comes from the store.
void TestRanksWindow::exactPeakInSelection() {
    struct Event {
        qint64 t;
        bool alloc;
        qint64 address, size;
    };
    std::vector<Event> events;
    const int cycles = 40000, bigAt = 25000; // cycle i: alloc at 2i, free at 2i+1
    events.push_back({0, true, 0x1, 1000}); // held throughout
    for (int i = 1; i < cycles; ++i) {
        const qint64 size = i == bigAt ? 100000 : i == bigAt + 1 ? 50000 : 100 + (i * 37) % 50;
        events.push_back({2 * i, true, 0x100 + i, size});
        events.push_back({2 * i + 1, false, 0x100 + i, 0});
    }
    QByteArray log = "time_ns,action,address,size,op\n";
    for (const Event& e : events)
        log += QByteArray::number(e.t) + (e.alloc ? ",alloc,0x" : ",free,0x") + QByteArray::number(e.address, 16) + "," +
               (e.alloc ? QByteArray::number(e.size) : QByteArray()) + "," + (e.alloc ? "op" : "") + "\n";
    QDir().mkpath(dir_.filePath("big"));
    writeFile(dir_, "big/rank0.csv", log);
    writeFile(dir_, "big/rank1.csv", kRank1);
    // The selection: from half a nanosecond before the 50000-byte spike to 1000 ns later.
    const double from = 2.0 * (bigAt + 1) - 0.5, to = from + 1000;
    qint64 expected = 0;
    {
        std::map<qint64, qint64> live;
        qint64 bytes = 0;
        for (const Event& e : events) {
            if (e.alloc) bytes += (live[e.address] = e.size);
            else bytes -= live[e.address];
            if (static_cast<double>(e.t) <= from) expected = bytes; // held when the window begins
            else if (static_cast<double>(e.t) <= to) expected = std::max(expected, bytes);
        }
    }
    QCOMPARE(expected, qint64(1000 + 50000)); // and not the 100000 just before the window

    RanksWindow w;
    w.open({dir_.filePath("big")});
    w.waitForResult();
    QVERIFY2(w.rankSet().has_value(), qPrintable(w.status()->text()));
    const RankRow& row = w.rankSet()->rows[0];
    QCOMPARE(row.startOffsetNs, std::int64_t(0));
    QVERIFY2(row.curve.size() < events.size() / 10, qPrintable(QString::number(row.curve.size())));
    w.plot()->setSelection(std::pair{from, to});
    // Meanwhile: the curve's value, marked as such; it is not the exact one here.
    bool exact = true;
    const auto fromCurve = w.selectionPeak(0, &exact);
    QVERIFY(!exact);
    QVERIFY(fromCurve.has_value());
    QVERIFY2(*fromCurve != expected, qPrintable(QString::number(*fromCurve)));
    QVERIFY2(w.table()->item(0, 6)->text().startsWith(QStringLiteral("≈")), qPrintable(w.table()->item(0, 6)->text()));
    w.waitForSelectionPeaks();
    QCOMPARE(w.selectionPeak(0, &exact).value_or(-1), expected);
    QVERIFY(exact);
    QCOMPARE(sortValue(w.table(), 0, 6), double(expected));
    // Rank 1 (RankLogs.h): its last event is at 30 ns; it holds its final 1100 B throughout.
    QCOMPARE(w.selectionPeak(1).value_or(-1), qint64(1100));
    // A window inside the big spike alone, between two whole nanoseconds: the spike's value.
    w.plot()->setSelection(std::pair{2.0 * bigAt + 0.2, 2.0 * bigAt + 0.7});
    w.waitForSelectionPeaks();
    QCOMPARE(w.selectionPeak(0).value_or(-1), qint64(1000 + 100000));
}

QTEST_MAIN(TestRanksWindow)
#include "tst_ranks_window.moc"

// SPDX-License-Identifier: MIT
// A massif recording whose curve goes above massif's detailed peak (issue 52), made at test time
// with the real valgrind: a program (data/native/later_maximum.c) grows its heap after its last
// free(), and massif takes its peak snapshot only just before a deallocation. ms_print's table
// of the same file is the oracle: its largest total is the peak that `memviz summary` (text and
// --json), the report and the chart's peaks give, at its time; the snapshot ms_print marks
// "(peak)" is named beside it as massif's detailed peak, with its number, bytes and time; the
// report's categories at the peak are ms_print's useful-heap / extra-heap columns of that row.
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QRegularExpression>
#include <QTemporaryDir>
#include <QtTest>

#include "NativeToolOutput.h"
#include "TestSupport.h"
#include "core/Progress.h"
#include "formats/FormatRegistry.h"
#include "plot/PlotPeaks.h"
#include "store/Database.h"
#include "store/TraceQueries.h"
#include "words/Units.h"

using namespace memviz;
using namespace memviz::test;

class TestMassifPeaks : public QObject {
    Q_OBJECT
private slots:
    void initTestCase();
    void chartPeaksAreMsPrintsMaximumAndPeak();
    void summaryJsonNamesBoth();
    void summaryTextNamesBoth();
    void reportNamesBoth();

private:
    QTemporaryDir dir_;
    QString file_;
    MsPrintRow maxRow_, peakRow_;
    qint64 peakSnapshot_ = -1;
};

void TestMassifPeaks::initTestCase() {
    const QString valgrind = findTool("valgrind");
    const QString msPrint = findTool("ms_print");
    if (valgrind.isEmpty() || msPrint.isEmpty()) MEMVIZ_SKIP_OR_FAIL("valgrind is not installed (apt install valgrind)");
    file_ = recordWithMassif(valgrind, dir_, QStringLiteral(MEMVIZ_NATIVE_LATER_MAXIMUM), {"--time-unit=i"});
    QVERIFY(QFileInfo::exists(file_));
    const MsPrintReport report = parseMsPrint(runOutput(msPrint, {file_}));
    QVERIFY(report.rows.size() >= 3);
    peakSnapshot_ = report.peak;
    for (const MsPrintRow& r : report.rows) {
        if (r.total > maxRow_.total) maxRow_ = r; // the first row at the largest total
        if (r.n == report.peak) peakRow_ = r;
    }
    QCOMPARE(peakRow_.n, report.peak);
    // What the program is for: the heap's maximum (1 MiB + 512 KiB and massif's extra bytes)
    // comes after massif's peak (1 MiB + 4 KiB, before the free()).
    QVERIFY2(maxRow_.total > peakRow_.total, qPrintable(QStringLiteral("max %1, peak %2").arg(maxRow_.total).arg(peakRow_.total)));
    QVERIFY(maxRow_.time.toLongLong() > peakRow_.time.toLongLong());
}

void TestMassifPeaks::chartPeaksAreMsPrintsMaximumAndPeak() {
    Database db(dir_.filePath("peaks.memviz").toStdString());
    const std::int64_t id = importFile(db, file_.toStdString(), Progress{});
    const TraceSummary summary = loadSummary(db, id);
    // The canonical summary keeps massif's own peak (what `memviz check` and the diff compare).
    QCOMPARE(summary.devices.at(0).peakBytes, peakRow_.total);
    const std::vector<PlotPeak> peaks = plotPeaks(db, id, summary, listSeries(db, id));
    QCOMPARE(peaks.size(), std::size_t(1));
    QCOMPARE(peaks[0].bytes, maxRow_.total);
    QCOMPARE(peaks[0].t, maxRow_.time.toLongLong());
    QVERIFY(peaks[0].named.has_value());
    QCOMPARE(peaks[0].named->bytes, peakRow_.total);
    QCOMPARE(peaks[0].named->t, peakRow_.time.toLongLong());
    QCOMPARE(peaks[0].named->snapshot, peakSnapshot_);
}

void TestMassifPeaks::summaryJsonNamesBoth() {
    const ProcessResult r = runMemviz({"summary", file_, "--json"});
    QCOMPARE(r.exitCode, 0);
    const QJsonObject d = QJsonDocument::fromJson(r.out).object()["devices"].toArray().at(0).toObject();
    QCOMPARE(d["peak_bytes"].toInteger(), maxRow_.total);
    QCOMPARE(d["peak_time_ns"].toInteger(), maxRow_.time.toLongLong()); // instructions on this axis
    const QJsonObject file = d["file_peak"].toObject();
    QCOMPARE(file["snapshot"].toInteger(), peakSnapshot_);
    QCOMPARE(file["bytes"].toInteger(), peakRow_.total);
    QCOMPARE(file["time_ns"].toInteger(), peakRow_.time.toLongLong());
    QCOMPARE(file["what"].toString(), QStringLiteral("massif's detailed peak (snapshot %1)").arg(peakSnapshot_));
}

void TestMassifPeaks::summaryTextNamesBoth() {
    const ProcessResult r = runMemviz({"summary", file_});
    QCOMPARE(r.exitCode, 0);
    const QString text = QString::fromUtf8(r.out);
    const auto bytes = [](qint64 b) { return QString::fromStdString(formatBytes(static_cast<double>(b))); };
    // The device's row: its peak and where, then the note naming massif's.
    const QRegularExpression row(QStringLiteral("^memory\\s+.*\\s%1\\s+%2 instr\\s").arg(QRegularExpression::escape(bytes(maxRow_.total)), maxRow_.time),
                                 QRegularExpression::MultilineOption);
    QVERIFY2(row.match(text).hasMatch(), qPrintable(text));
    QVERIFY2(text.contains(QStringLiteral("note: memory's peak is the curve's maximum; massif's detailed peak (snapshot %1): %2 at %3 instr")
                               .arg(peakSnapshot_)
                               .arg(bytes(peakRow_.total), peakRow_.time)),
             qPrintable(text));
}

void TestMassifPeaks::reportNamesBoth() {
    const QString out = dir_.filePath("report.html");
    const ProcessResult r = runMemviz({"report", file_, "-o", out});
    QCOMPARE(r.exitCode, 0);
    const QString html = QString::fromUtf8(readFile(out));
    QVERIFY(html.contains(QStringLiteral("class=\"peak-bytes\" data-device=\"memory\" data-bytes=\"%1\"").arg(maxRow_.total)));
    QVERIFY(html.contains(QStringLiteral("data-peak-bytes=\"%1\"").arg(maxRow_.total))); // the timeline
    QVERIFY(html.contains(QStringLiteral("<p class=\"file-peak\" data-device=\"memory\" data-bytes=\"%1\">").arg(peakRow_.total)));
    QVERIFY(html.contains(QStringLiteral("detailed peak (snapshot %1)").arg(peakSnapshot_)));
    // The categories at the peak are the maximum's row of ms_print's table.
    const QRegularExpression category(QStringLiteral("<td>memory</td><td>([^<]+)</td><td class=\"n\" data-v=\"(\\d+)\">"));
    QHash<QString, qint64> categories;
    for (auto it = category.globalMatch(html); it.hasNext();) {
        const auto m = it.next();
        categories.insert(m.captured(1), m.captured(2).toLongLong());
    }
    QCOMPARE(categories.value(QStringLiteral("useful heap"), -1), maxRow_.heap);
    QCOMPARE(categories.value(QStringLiteral("extra heap"), -1), maxRow_.extra);
}

QTEST_GUILESS_MAIN(TestMassifPeaks)
#include "tst_massif_peaks.moc"

// SPDX-License-Identifier: MIT
// Issue 11: nothing is lost when memviz is killed. Real processes, SIGKILL without warning:
// in the middle of a large import into a store that already holds a trace, and in the middle
// of a live recording into such a store. On reopen `PRAGMA integrity_check` says ok, the
// earlier trace is as it was, the interrupted import is absent, and the recording keeps
// every sample it had committed.
#include <QProcess>
#include <QtTest>
#include <csignal>

#include "TestSupport.h"
#include "formats/live/LiveQueries.h"
#include "store/Database.h"
#include "store/TraceQueries.h"
#include "formats/ImportWorkerProtocol.h"

using namespace memviz;

namespace {

// The small trace imported first: 3 allocations on cpu, 100 + 300 + 50 bytes, 100 freed;
// peak 400 bytes (by hand).
const QByteArray kFirst = "time_ns,action,address,size,op\n"
                          "0,alloc,0x10,100,a\n"
                          "10,alloc,0x20,300,b\n"
                          "20,free,0x10,,\n"
                          "30,alloc,0x30,50,c\n";

// A large allocation log: `pairs` allocations, each freed again, written in pieces.
QString writeBigLog(const QTemporaryDir& dir, int pairs) {
    const QString path = dir.filePath("big.csv");
    QFile f(path);
    if (!f.open(QIODevice::WriteOnly)) qFatal("cannot write %s", qPrintable(path));
    f.write("time_ns,action,address,size,op\n");
    QByteArray block;
    for (int i = 0; i < pairs; ++i) {
        const QByteArray a = QByteArray::number(0x100000 + qint64(i) * 64, 16);
        block += QByteArray::number(qint64(i) * 20) + ",alloc,0x" + a + "," + QByteArray::number(64 + i % 4000) + ",op" +
                 QByteArray::number(i % 9) + "\n";
        block += QByteArray::number(qint64(i) * 20 + 7) + ",free,0x" + a + ",,\n";
        if (block.size() > (1 << 20)) {
            f.write(block);
            block.clear();
        }
    }
    f.write(block);
    return path;
}

QString integrity(const QString& store) {
    Database db(store.toStdString(), Database::Mode::ReadOnly);
    Statement s(db, "PRAGMA integrity_check");
    QStringList lines;
    while (s.step()) lines << QString::fromStdString(s.text(0));
    return lines.join('\n');
}

std::int64_t chunkCount(const QString& store) {
    Database db(store.toStdString(), Database::Mode::ReadOnly);
    Statement s(db, "SELECT (SELECT count(*) FROM event_chunks) + (SELECT count(*) FROM series_chunks)");
    return s.step() ? s.int64(0) : -1;
}

QByteArray summaryJson(const QString& store, qint64 traceId) {
    const auto r = test::runMemviz({"summary", store, "--json", "--trace", QString::number(traceId)});
    return r.exitCode == 0 ? r.out : "failed: " + r.err;
}

// A store holding kFirst, imported by `memviz import`; returns its trace id.
qint64 storeWithOneTrace(const QTemporaryDir& dir, const QString& store) {
    const auto r = test::runMemviz({"import", test::writeFile(dir, "first.csv", kFirst), "--db", store});
    if (r.exitCode != 0) qFatal("import failed: %s", r.err.constData());
    Database db(store.toStdString(), Database::Mode::ReadOnly);
    const auto traces = listTraces(db);
    return traces.size() == 1 ? traces.front().id : 0;
}

} // namespace

class TestNothingLost : public QObject {
    Q_OBJECT
private slots:
    void killedImport_data();
    void killedImport();
    void killedRecording();
};

void TestNothingLost::killedImport_data() {
    QTest::addColumn<QString>("when"); // the worker's progress line after which it is killed
    QTest::newRow("half read") << "reading";
    QTest::newRow("writing") << "writing";
}

// memviz imports (the window's worker, `memviz --import-worker`, which writes chunks as it
// reads) and is killed once it has read half the file, or once it writes the store's last part.
void TestNothingLost::killedImport() {
    QFETCH(QString, when);
    QTemporaryDir dir;
    const QString store = dir.filePath("s.memviz");
    const qint64 first = storeWithOneTrace(dir, store);
    QVERIFY(first > 0);
    const QByteArray before = summaryJson(store, first);
    QVERIFY2(before.contains("\"peak_bytes\": 400") || before.contains("\"peak_bytes\":400"), before.constData());
    const std::int64_t chunksBefore = chunkCount(store);

    // 1.5 million pairs: 3 million events, about 46 chunks of 65,536 events on top of the
    // series chunks and the level-of-detail rows.
    const QString big = writeBigLog(dir, 1500000);
    QProcess memviz;
    memviz.start(QStringLiteral(MEMVIZ_BINARY), {QString::fromLatin1(importworker::kSwitch), big, "--db", store});
    QVERIFY(memviz.waitForStarted(10000));
    QByteArray out, pending;
    bool reached = false;
    ProgressPhase phase = ProgressPhase::Reading;
    while (!reached && memviz.waitForReadyRead(60000)) {
        const QByteArray more = memviz.readAllStandardOutput();
        out += more;
        pending += more;
        qsizetype newline;
        while (!reached && (newline = pending.indexOf('\n')) >= 0) {
            const QByteArray line = pending.left(newline);
            pending.remove(0, newline + 1);
            const auto l = importworker::parse(std::string_view(line.constData(), static_cast<std::size_t>(line.size())));
            if (!l) continue;
            if (l->kind == importworker::Line::Kind::Phase) phase = l->phase;
            if (when == "reading" && l->kind == importworker::Line::Kind::Progress && phase == ProgressPhase::Reading &&
                l->total > 0 && l->done * 2 >= l->total)
                reached = true;
            if (when == "writing" && phase == ProgressPhase::Writing) reached = true;
        }
    }
    QVERIFY2(reached, out.constData());
    QVERIFY2(!out.contains("done "), out.constData()); // still in its transaction
    ::kill(static_cast<pid_t>(memviz.processId()), SIGKILL);
    QVERIFY(memviz.waitForFinished(10000));
    QCOMPARE(memviz.exitStatus(), QProcess::CrashExit);
    QVERIFY(QFileInfo::exists(store + "-wal")); // it died with the write-ahead log in use

    QCOMPARE(integrity(store), QStringLiteral("ok"));
    {
        Database db(store.toStdString(), Database::Mode::ReadOnly);
        const auto traces = listTraces(db);
        QCOMPARE(traces.size(), std::size_t{1}); // the interrupted import is absent
        QCOMPARE(traces.front().id, first);
    }
    QCOMPARE(chunkCount(store), chunksBefore);
    QCOMPARE(summaryJson(store, first), before);

    // The store takes the same import afterwards, whole.
    const auto again = test::runMemviz({"import", big, "--db", store, "--json"});
    QVERIFY2(again.exitCode == 0, again.err.constData());
    QCOMPARE(integrity(store), QStringLiteral("ok"));
    Database db(store.toStdString(), Database::Mode::ReadOnly);
    const auto traces = listTraces(db);
    QCOMPARE(traces.size(), std::size_t{2});
    QCOMPARE(traces.back().eventCount, 3000000);
    QVERIFY(chunkCount(store) > chunksBefore + 45);
}

// `memviz record` into a store that holds a trace, killed after a few commits.
void TestNothingLost::killedRecording() {
    QTemporaryDir dir;
    const QString store = dir.filePath("r.memviz");
    const qint64 first = storeWithOneTrace(dir, store);
    QVERIFY(first > 0);
    const QByteArray before = summaryJson(store, first);
    QProcess memviz;
    memviz.setReadChannel(QProcess::StandardError);
    memviz.start(QStringLiteral(MEMVIZ_BINARY),
                 {"record", "--out", store, "--interval-ms", "20", "--progress", "--", "sleep", "30"});
    QByteArray err;
    while (err.count("samples committed") < 4 && memviz.waitForReadyRead(10000)) err += memviz.readAllStandardError();
    QVERIFY2(err.count("samples committed") >= 4, err.constData());
    ::kill(static_cast<pid_t>(memviz.processId()), SIGKILL);
    QVERIFY(memviz.waitForFinished(10000));
    err += memviz.readAllStandardError();
    // The last commit the recorder reported before it died ("memviz record: N samples committed").
    std::int64_t reported = 0;
    for (const QByteArray& l : err.trimmed().split('\n'))
        if (l.contains("samples committed")) reported = l.split(' ').at(2).toLongLong();
    QVERIFY(reported > 0);

    QCOMPARE(integrity(store), QStringLiteral("ok"));
    int target = 0;
    {
        Database db(store.toStdString(), Database::Mode::ReadOnly);
        const auto traces = listTraces(db);
        QCOMPARE(traces.size(), std::size_t{2});
        QCOMPARE(traces.front().id, first);
        const std::int64_t recording = traces.back().id;
        const auto info = findLiveRecording(db, recording);
        QVERIFY(info);
        target = info->targetPid.value_or(0);
        const std::int64_t moments = liveSampleMoments(db, recording);
        QVERIFY2(moments >= reported, qPrintable(QStringLiteral("%1 moments stored, %2 reported").arg(moments).arg(reported)));
    }
    if (target > 0) ::kill(target, SIGKILL); // the orphaned program
    QCOMPARE(summaryJson(store, first), before);
}

QTEST_MAIN(TestNothingLost)
#include "tst_nothing_lost.moc"

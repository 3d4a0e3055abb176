// SPDX-License-Identifier: MIT
// The memviz allocation log importer: good inputs with hand-calculated summaries, bad
// inputs with the error they must produce, and nothing stored after a failure.
#include <QtTest>

#include "Compression.h"
#include "TestSupport.h"
#include "core/Errors.h"
#include "core/Progress.h"
#include "formats/FormatRegistry.h"
#include "store/Database.h"
#include "store/OpsQuery.h"
#include "store/TraceQueries.h"

using namespace memviz;

namespace {

const QByteArray kBasicCsv = "time_ns,action,address,size\n"
                             "0,alloc,0x100,1000\n"
                             "10,alloc,0x200,500\n"
                             "20,free,0x100,\n"
                             "30,alloc,0x300,2000\n"
                             "40,free,0x200,\n";

struct Expected {
    QString device;
    qint64 events, allocs, frees, unmatched, peak, peakTime, finalBytes;
};

QString deviceLine(const DeviceSummary& d) {
    return QStringLiteral("%1 events=%2 allocs=%3 frees=%4 unmatched=%5 peak=%6@%7 final=%8")
        .arg(QString::fromStdString(d.name))
        .arg(d.events)
        .arg(d.allocs)
        .arg(d.frees)
        .arg(d.unmatchedFrees)
        .arg(d.peakBytes)
        .arg(d.peakTimeNs)
        .arg(d.finalBytes);
}

QString expectedLine(const Expected& e) {
    return QStringLiteral("%1 events=%2 allocs=%3 frees=%4 unmatched=%5 peak=%6@%7 final=%8")
        .arg(e.device)
        .arg(e.events)
        .arg(e.allocs)
        .arg(e.frees)
        .arg(e.unmatched)
        .arg(e.peak)
        .arg(e.peakTime)
        .arg(e.finalBytes);
}

} // namespace

Q_DECLARE_METATYPE(QList<Expected>)

class TestAllocLog : public QObject {
    Q_OBJECT
private slots:
    void goodInput_data();
    void goodInput();
    void badInput_data();
    void badInput();
    void sniffing();
    void freeAttribution();
    void oracleAgreesOnSample();
};

void TestAllocLog::goodInput_data() {
    QTest::addColumn<QByteArray>("content");
    QTest::addColumn<QString>("name");
    QTest::addColumn<qint64>("duration");
    QTest::addColumn<QList<Expected>>("devices");
    QTest::addColumn<QStringList>("warnings");

    // Live bytes: 1000, 1500, 500, 2500, 2000.
    const QList<Expected> basic{{"cpu", 5, 3, 2, 0, 2500, 30, 2000}};
    QTest::newRow("csv") << kBasicCsv << "a.csv" << qint64(40) << basic << QStringList{};
    QTest::newRow("csv gzip") << test::gzipped(kBasicCsv) << "a.csv.gz" << qint64(40) << basic << QStringList{};
    QTest::newRow("csv zstd") << test::zstded(kBasicCsv) << "a.csv.zst" << qint64(40) << basic << QStringList{};
    QTest::newRow("csv without trailing newline") << kBasicCsv.chopped(1) << "a.csv" << qint64(40) << basic << QStringList{};
    QTest::newRow("jsonl in microseconds")
        << QByteArray("{\"memviz_alloc_log\": 1, \"time_unit\": \"us\"}\n"
                      "{\"time\": 0, \"action\": \"alloc\", \"address\": \"0x100\", \"size\": 1000}\n"
                      "{\"time\": 10, \"action\": \"alloc\", \"address\": 512, \"size\": 500}\n"
                      "{\"time\": 20, \"action\": \"free\", \"address\": \"0x100\"}\n"
                      "\n"
                      "{\"time\": 30, \"action\": \"alloc\", \"address\": \"0x300\", \"size\": 2000, \"op\": \"aten::mm\"}\n"
                      "{\"action\": \"free\", \"address\": \"0x200\", \"time\": 40, \"device\": \"cpu\"}\n")
        << "a.jsonl" << qint64(40000) << QList<Expected>{{"cpu", 5, 3, 2, 0, 2500, 30000, 2000}} << QStringList{};
    // 0.5 ms is the origin; 1.25 ms is 750000 ns later.
    QTest::newRow("decimal milliseconds") << QByteArray("time_ms,action,address,size\n0.5,alloc,0x1,10\n1.25,alloc,0x2,20\n")
                                          << "a.csv" << qint64(750000) << QList<Expected>{{"cpu", 2, 2, 0, 0, 30, 750000, 30}}
                                          << QStringList{};
    QTest::newRow("comments, blank lines, CRLF, quoting")
        << QByteArray("# recorded by a test\r\n"
                      "time_s,action,address,size,op,stack\r\n"
                      "\r\n"
                      "1,alloc,0x10,64,\"aten::cat, with comma\",\"a;\"\"b\"\";c\"\r\n"
                      "# a comment between records\r\n"
                      "2,free,0x10,,\"\",\r\n")
        << "a.csv" << qint64(1000000000) << QList<Expected>{{"cpu", 2, 1, 1, 0, 64, 0, 0}} << QStringList{};
    QTest::newRow("columns in any order, several devices")
        << QByteArray("device,size,address,action,time_ns\n"
                      "cuda:0,100,0x1,alloc,0\n"
                      "cpu,7,0x1,alloc,1\n"
                      "cuda:1,300,0x1,alloc,2\n"
                      "cuda:0,,0x1,free,3\n"
                      "cuda:0,50,0x2,alloc,4\n")
        << "a.csv" << qint64(4)
        << QList<Expected>{{"cuda:0", 3, 2, 1, 0, 100, 0, 50}, {"cpu", 1, 1, 0, 0, 7, 1, 7}, {"cuda:1", 1, 1, 0, 0, 300, 2, 300}}
        << QStringList{};
    QTest::newRow("decimal and hex addresses are the same address")
        << QByteArray("time_ns,action,address,size\n0,alloc,4096,10\n1,free,0x1000,\n") << "a.csv" << qint64(1)
        << QList<Expected>{{"cpu", 2, 1, 1, 0, 10, 0, 0}} << QStringList{};
    QTest::newRow("duplicate alloc at a live address")
        << QByteArray("time_ns,action,address,size\n0,alloc,0x10,100\n1,alloc,0x10,300\n") << "a.csv" << qint64(1)
        << QList<Expected>{{"cpu", 2, 2, 0, 0, 300, 1, 300}} << QStringList{"duplicate_alloc"};
    QTest::newRow("unmatched free never goes negative")
        << QByteArray("time_ns,action,address,size\n0,free,0x99,\n1,alloc,0x10,5\n2,free,0x98,8\n") << "a.csv" << qint64(2)
        << QList<Expected>{{"cpu", 3, 1, 2, 2, 5, 1, 5}} << QStringList{"unmatched_free"};
    QTest::newRow("out-of-order time is clamped")
        << QByteArray("time_ns,action,address,size\n10,alloc,0x1,1\n5,alloc,0x2,2\n20,alloc,0x3,4\n") << "a.csv" << qint64(10)
        << QList<Expected>{{"cpu", 3, 3, 0, 0, 7, 10, 7}} << QStringList{"out_of_order_time"};
    QTest::newRow("free with a different size")
        << QByteArray("time_ns,action,address,size\n0,alloc,0x10,100\n1,free,0x10,50\n") << "a.csv" << qint64(1)
        << QList<Expected>{{"cpu", 2, 1, 1, 0, 100, 0, 0}} << QStringList{"free_size_mismatch"};
    QTest::newRow("header only") << QByteArray("time_ns,action,address,size\n") << "a.csv" << qint64(0) << QList<Expected>{}
                                 << QStringList{};
}

void TestAllocLog::goodInput() {
    QFETCH(QByteArray, content);
    QFETCH(QString, name);
    QFETCH(qint64, duration);
    QFETCH(QList<Expected>, devices);
    QFETCH(QStringList, warnings);
    QTemporaryDir dir;
    const QString path = test::writeFile(dir, name, content);
    Database db(dir.filePath("s.memviz").toStdString());
    const auto id = importFile(db, path.toStdString(), Progress{});
    const TraceSummary s = loadSummary(db, id);
    QCOMPARE(QString::fromStdString(s.trace.format), QStringLiteral("memviz-alloc-log"));
    QCOMPARE(s.trace.durationNs, duration);
    QCOMPARE(s.devices.size(), static_cast<std::size_t>(devices.size()));
    for (qsizetype i = 0; i < devices.size(); ++i)
        QCOMPARE(deviceLine(s.devices[static_cast<std::size_t>(i)]), expectedLine(devices[i]));
    QStringList kinds;
    for (const auto& w : s.warnings) kinds << QString::fromStdString(w.kind);
    QCOMPARE(kinds, warnings);
}

void TestAllocLog::badInput_data() {
    QTest::addColumn<QByteArray>("content");
    QTest::addColumn<QString>("name");
    QTest::addColumn<QStringList>("mustSay");
    const QByteArray h = "time_ns,action,address,size\n";
    const QByteArray jh = "{\"memviz_alloc_log\": 1, \"time_unit\": \"ns\"}\n";
    QTest::newRow("truncated record") << h + "0,alloc,0x10,64\n5,alloc,0x2"
                                      << "t.csv" << QStringList{"line 3", "expected 4 fields", "found 3", "truncated"};
    QTest::newRow("missing column") << QByteArray("time_ns,action,size\n0,alloc,5\n") << "t.csv"
                                    << QStringList{"line 1", "no \"address\" column"};
    QTest::newRow("unknown column") << QByteArray("time_ns,action,address,size,colour\n") << "t.csv"
                                    << QStringList{"unknown column \"colour\""};
    QTest::newRow("time without unit") << QByteArray("time,action,address,size\n") << "t.csv"
                                       << QStringList{"must name its unit"};
    QTest::newRow("unknown time unit") << QByteArray("time_fortnights,action,address,size\n") << "t.csv"
                                       << QStringList{"unknown time unit"};
    QTest::newRow("duplicate column") << QByteArray("time_ns,action,address,size,size\n") << "t.csv"
                                      << QStringList{"appears twice"};
    QTest::newRow("too many fields") << h + "0,alloc,0x10,64,extra\n"
                                     << "t.csv" << QStringList{"line 2", "expected 4 fields", "found 5"};
    QTest::newRow("negative size") << h + "0,alloc,0x10,64\n1,alloc,0x20,-5\n"
                                   << "t.csv" << QStringList{"line 3", "negative size -5"};
    QTest::newRow("unknown action") << h + "0,realloc,0x10,64\n"
                                    << "t.csv" << QStringList{"line 2", "unknown action \"realloc\""};
    QTest::newRow("time not a number") << h + "abc,alloc,0x10,64\n"
                                       << "t.csv" << QStringList{"line 2", "time \"abc\""};
    QTest::newRow("time overflows") << QByteArray("time_s,action,address,size\n99999999999999,alloc,0x1,1\n") << "t.csv"
                                    << QStringList{"line 2", "does not fit"};
    QTest::newRow("bad address") << h + "0,alloc,0xZZ,64\n"
                                 << "t.csv" << QStringList{"line 2", "address \"0xZZ\""};
    QTest::newRow("alloc without size") << h + "0,alloc,0x10,\n"
                                        << "t.csv" << QStringList{"line 2", "needs a size"};
    QTest::newRow("size not a number") << h + "0,alloc,0x10,12kb\n"
                                       << "t.csv" << QStringList{"size \"12kb\""};
    QTest::newRow("unterminated quote") << QByteArray("time_ns,action,address,size,op\n0,alloc,0x1,1,\"aten::mm\n") << "t.csv"
                                        << QStringList{"line 2", "malformed quoting"};
    QTest::newRow("empty file") << QByteArray() << "t.csv" << QStringList{"empty"};
    QTest::newRow("not a trace") << QByteArray("hello world\nthis is prose\n") << "t.csv"
                                 << QStringList{"unrecognised file format"};
    QTest::newRow("jsonl without header") << QByteArray("{\"memviz_alloc_log\": 2, \"time_unit\": \"ns\"}\n") << "t.jsonl"
                                          << QStringList{"line 1", "unsupported memviz_alloc_log version"};
    QTest::newRow("jsonl header without unit")
        << QByteArray("{\"memviz_alloc_log\": 1}\n") << "t.jsonl" << QStringList{"must state \"time_unit\""};
    QTest::newRow("jsonl unknown field")
        << jh + "{\"time\": 0, \"action\": \"alloc\", \"address\": 1, \"size\": 1, \"colour\": \"red\"}\n"
        << "t.jsonl" << QStringList{"line 2", "unknown field \"colour\""};
    QTest::newRow("jsonl syntax error")
        << jh + "{\"time\": 0, \"action\": \"alloc\", \"address\": 1, \"size\": 1}\n{\"time\": 1,, \"action\": \"alloc\"}\n"
        << "t.jsonl" << QStringList{"line 3", "invalid JSON"};
    QTest::newRow("jsonl trailing text") << jh + "{\"time\": 0, \"action\": \"alloc\", \"address\": 1, \"size\": 1} {\"x\": 1}\n"
                                         << "t.jsonl" << QStringList{"line 2", "unexpected text"};
    QTest::newRow("jsonl missing address") << jh + "{\"time\": 0, \"action\": \"alloc\", \"size\": 1}\n"
                                           << "t.jsonl" << QStringList{"line 2", "missing \"address\""};
    QTest::newRow("jsonl size is a string") << jh + "{\"time\": 0, \"action\": \"alloc\", \"address\": 1, \"size\": true}\n"
                                            << "t.jsonl" << QStringList{"line 2", "\"size\" must be a number"};
    QTest::newRow("jsonl truncated object") << jh + "{\"time\": 0, \"action\": \"al"
                                            << "t.jsonl" << QStringList{"line 2", "invalid JSON", "truncated"};
    QByteArray gz = test::gzipped(h + QByteArray("0,alloc,0x10,64\n").repeated(5000));
    gz.chop(gz.size() / 3);
    QTest::newRow("truncated gzip") << gz << "t.csv.gz" << QStringList{"truncated gzip stream"};
}

void TestAllocLog::badInput() {
    QFETCH(QByteArray, content);
    QFETCH(QString, name);
    QFETCH(QStringList, mustSay);
    QTemporaryDir dir;
    const QString path = test::writeFile(dir, name, content);
    Database db(dir.filePath("s.memviz").toStdString());
    try {
        importFile(db, path.toStdString(), Progress{});
        QFAIL("bad input was accepted");
    } catch (const ImportError& e) {
        const QString message = QString::fromUtf8(e.what());
        QVERIFY2(message.startsWith(path), qPrintable("the error does not name the file: " + message));
        for (const QString& part : mustSay) QVERIFY2(message.contains(part), qPrintable(message));
    }
    QCOMPARE(listTraces(db).size(), std::size_t{0});
    QCOMPARE(*queryInt(db, "SELECT count(*) FROM event_chunks"), 0);
}

void TestAllocLog::sniffing() {
    QTemporaryDir dir;
    // Sniffed by content: a .txt name does not matter, a .csv name does not make prose a log.
    const QString log = test::writeFile(dir, "whatever.txt", kBasicCsv);
    QCOMPARE(QString::fromStdString(detectImporter(log.toStdString()).id()), QStringLiteral("memviz-alloc-log"));
    const QString prose = test::writeFile(dir, "log.csv", "name,age\nbob,3\n");
    QVERIFY_THROWS_EXCEPTION(ImportError, detectImporter(prose.toStdString()));
    QVERIFY_THROWS_EXCEPTION(ImportError, detectImporter(dir.filePath("missing.csv").toStdString()));
    try {
        detectImporter(dir.path().toStdString());
        QFAIL("a directory was accepted");
    } catch (const ImportError& e) {
        QVERIFY2(QString(e.what()).contains("directory"), e.what());
    }
}

void TestAllocLog::freeAttribution() {
    // A free counts for the op named on its record, else for the op that allocated it.
    QTemporaryDir dir;
    const QString path = test::writeFile(dir, "a.csv",
                                         "time_ns,action,address,size,op\n"
                                         "0,alloc,0x1,100,aten::empty\n"
                                         "1,alloc,0x2,40,aten::mm\n"
                                         "2,free,0x1,,aten::add\n"
                                         "3,free,0x2,,\n"
                                         "4,alloc,0x3,8,\n");
    Database db(dir.filePath("s.memviz").toStdString());
    const auto id = importFile(db, path.toStdString(), Progress{});
    QStringList rows;
    for (const OpRow& r : queryOps(db, id, {}))
        rows << QStringLiteral("%1 a%2 f%3 +%4 -%5 max%6")
                    .arg(QString::fromStdString(r.name))
                    .arg(r.allocs)
                    .arg(r.frees)
                    .arg(r.bytesAllocated)
                    .arg(r.bytesFreed)
                    .arg(r.largestAlloc);
    QCOMPARE(rows, (QStringList{"aten::empty a1 f0 +100 -0 max100", "aten::mm a1 f1 +40 -40 max40",
                                "(no operator) a1 f0 +8 -0 max8", "aten::add a0 f1 +0 -100 max0"}));
    // A window holds only the events inside it.
    OpsFilter window;
    window.range = TimeRange{1, 3};
    QStringList inWindow;
    for (const OpRow& r : queryOps(db, id, window))
        inWindow << QStringLiteral("%1 +%2 -%3").arg(QString::fromStdString(r.name)).arg(r.bytesAllocated).arg(r.bytesFreed);
    QCOMPARE(inWindow, (QStringList{"aten::mm +40 -40", "aten::add +0 -100"}));
}

void TestAllocLog::oracleAgreesOnSample() {
    // The bundled sample (a real PyTorch run) against the standard-library oracle.
    const QString py = test::python();
    if (py.isEmpty()) MEMVIZ_SKIP_OR_FAIL("no python3 for the oracle");
    const QString sample = QStringLiteral(MEMVIZ_SOURCE_DIR) + "/resources/sample/sample_training_step.csv.gz";
    const auto oracle = test::runProcess(py, {test::oracle("alloclog_summary.py"), sample});
    QVERIFY2(oracle.exitCode == 0, oracle.err.constData());
    const QJsonObject expected = QJsonDocument::fromJson(oracle.out).object();
    QTemporaryDir dir;
    Database db(dir.filePath("s.memviz").toStdString());
    const auto id = importFile(db, sample.toStdString(), Progress{});
    const TraceSummary s = loadSummary(db, id);
    const QJsonArray devices = expected["devices"].toArray();
    QCOMPARE(s.devices.size(), static_cast<std::size_t>(devices.size()));
    for (std::size_t i = 0; i < s.devices.size(); ++i) {
        const QJsonObject e = devices[static_cast<qsizetype>(i)].toObject();
        const DeviceSummary& d = s.devices[i];
        QCOMPARE(QString::fromStdString(d.name), e["device"].toString());
        QCOMPARE(d.events, e["events"].toInteger());
        QCOMPARE(d.allocs, e["allocs"].toInteger());
        QCOMPARE(d.frees, e["frees"].toInteger());
        QCOMPARE(d.peakBytes, e["peak_bytes"].toInteger());
        QCOMPARE(d.peakTimeNs, e["peak_time_ns"].toInteger());
        QCOMPARE(d.finalBytes, e["final_bytes"].toInteger());
    }
    QVERIFY(s.devices.at(0).peakBytes > 10 * 1024 * 1024); // a real training step, not a toy
    const QJsonObject ops = expected["ops"].toObject();
    const auto rows = queryOps(db, id, {});
    QCOMPARE(rows.size(), static_cast<std::size_t>(ops.size()));
    for (const OpRow& r : rows) {
        const QJsonObject e = ops[QString::fromStdString(r.name)].toObject();
        QCOMPARE(r.allocs, e["allocs"].toInteger());
        QCOMPARE(r.bytesAllocated, e["allocated"].toInteger());
        QCOMPARE(r.bytesFreed, e["freed"].toInteger());
        QCOMPARE(r.largestAlloc, e["largest"].toInteger());
    }
}

QTEST_GUILESS_MAIN(TestAllocLog)
#include "tst_alloclog.moc"

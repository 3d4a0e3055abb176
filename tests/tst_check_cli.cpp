// SPDX-License-Identifier: MIT
// `memviz check` end to end (issue 32): for every format a budget just above the peak that an
// independent oracle computes passes (status 0) and one just below fails (status 1): the
// allocation log worked out by hand, the bundled sample against alloclog_summary.py, profiler
// traces against profiler_key_averages.py, the memory timeline (and its categories) against
// memory_timeline.py, CUDA snapshots against snapshot_oracle.py, heaptrack against
// heaptrack_print and massif against ms_print. Each budget kind fails when exceeded; JUnit output
// is read back with QXmlStreamReader; bad input exits 2.
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTemporaryDir>
#include <QXmlStreamReader>
#include <QtTest>
#include <cmath>

#include "DiffLogs.h"
#include "NativeToolOutput.h"
#include "TestSupport.h"

using namespace memviz::test;

namespace {

int check(const QStringList& args, QByteArray* err = nullptr) {
    const ProcessResult r = runMemviz(QStringList{"check"} + args);
    if (err) *err = r.err;
    if (r.exitCode == 2 && !err) qWarning("memviz check: %s", r.err.constData());
    return r.exitCode;
}

QJsonObject oracleJson(const QString& script, const QString& file) {
    const ProcessResult r = runProcess(python(), {oracle(script), file});
    if (r.exitCode != 0) qWarning("oracle %s failed: %s", qPrintable(script), r.err.constData());
    return QJsonDocument::fromJson(r.out).object();
}

// A peak budget at `peak` passes and at `peak - 1` fails, for one device.
void peakBracket(const QString& file, const QString& device, qint64 peak) {
    const QString at = device + "=" + QString::number(peak), below = device + "=" + QString::number(peak - 1);
    QCOMPARE(check({file, "--max-peak", at}), 0);
    QCOMPARE(check({file, "--max-peak", below}), 1);
}

// heaptrack_print's rounded figure ("127.80K") as the range of bytes it stands for.
std::pair<qint64, qint64> heaptrackRange(const QString& printed) {
    static const QString units = "BKMGT";
    QString number = printed;
    qint64 scale = 1;
    const int unit = units.indexOf(printed.back());
    number.chop(1);
    for (int i = 0; i < unit; ++i) scale *= 1000;
    if (unit == 0) return {number.toLongLong(), number.toLongLong()};
    const double v = number.toDouble();
    return {static_cast<qint64>(std::ceil((v - 0.005) * scale)), static_cast<qint64>(std::floor((v + 0.005) * scale))};
}

struct JUnitCase {
    QString name;
    bool failed = false;
};

QList<JUnitCase> readJUnit(const QString& path, int* tests, int* failures) {
    QFile f(path);
    if (!f.open(QIODevice::ReadOnly)) return {};
    QXmlStreamReader r(&f);
    QList<JUnitCase> cases;
    while (!r.atEnd()) {
        r.readNext();
        if (!r.isStartElement()) continue;
        if (r.name() == QLatin1String("testsuite")) {
            *tests = r.attributes().value("tests").toInt();
            *failures = r.attributes().value("failures").toInt();
        } else if (r.name() == QLatin1String("testcase")) {
            cases.append({r.attributes().value("name").toString(), false});
        } else if (r.name() == QLatin1String("failure") && !cases.isEmpty()) {
            cases.back().failed = true;
        }
    }
    if (r.hasError()) qWarning("JUnit: %s", qPrintable(r.errorString()));
    return r.hasError() ? QList<JUnitCase>{} : cases;
}

} // namespace

class TestCheckCli : public QObject {
    Q_OBJECT
private slots:
    void allocationLogByHand_data();
    void allocationLogByHand();
    void growthAgainstBaseline();
    void budgetsFileAndJUnit();
    void allocLogSampleMatchesOracle();
    void profilerTracesMatchOracle_data();
    void profilerTracesMatchOracle();
    void memoryTimelineAndCategories();
    void snapshotsMatchOracle_data();
    void snapshotsMatchOracle();
    void heaptrackMatchesHeaptrackPrint();
    void massifMatchesMsPrint();
    void badInput_data();
    void badInput();
};

void TestCheckCli::allocationLogByHand_data() {
    QTest::addColumn<bool>("throughStore");
    QTest::newRow("file") << false;
    QTest::newRow("STORE#ID") << true;
}

// kDiffLogA: peak 400 B, final 150 B; operators a 100, b 300, c 50 bytes allocated.
void TestCheckCli::allocationLogByHand() {
    QFETCH(bool, throughStore);
    QTemporaryDir dir;
    QString a = writeFile(dir, "a.csv", kDiffLogA);
    if (throughStore) {
        const QString store = dir.filePath("s.memviz");
        QCOMPARE(runMemviz({"import", writeFile(dir, "b.csv", kDiffLogB), "--db", store}).exitCode, 0);
        QCOMPARE(runMemviz({"import", a, "--db", store}).exitCode, 0);
        QCOMPARE(runMemviz({"import", writeFile(dir, "c.csv", kDiffLogB), "--db", store}).exitCode, 0);
        a = store + "#2"; // A is the second trace; the latest is B
    }
    QCOMPARE(check({a, "--max-peak", "400"}), 0);
    QCOMPARE(check({a, "--max-peak", "399"}), 1);
    QCOMPARE(check({a, "--max", "op=b:300"}), 0);
    QCOMPARE(check({a, "--max", "op=b:299"}), 1);
    QCOMPARE(check({a, "--max-leaked", "150"}), 0);
    QCOMPARE(check({a, "--max-leaked", "149"}), 1);
    QCOMPARE(check({a, "--max-leaked", "0"}), 1);
    // Every budget must hold: one over is enough to fail.
    QCOMPARE(check({a, "--max-peak", "1GiB", "--max", "op=c:49"}), 1);
    // Text and JSON say which.
    const ProcessResult text = runMemviz({"check", a, "--max-peak", "399"});
    QVERIFY2(text.out.contains("FAIL") && text.out.contains("400 B") && text.out.contains("OVER BUDGET"), text.out.constData());
    const ProcessResult json = runMemviz({"check", a, "--max-peak", "1KiB", "--max", "op=b:299", "--json"});
    QCOMPARE(json.exitCode, 1);
    const QJsonObject o = QJsonDocument::fromJson(json.out).object();
    QCOMPARE(o["passed"].toBool(true), false);
    const QJsonArray budgets = o["budgets"].toArray();
    QCOMPARE(budgets.size(), 2);
    QVERIFY(budgets[0].toObject()["passed"].toBool());
    QCOMPARE(budgets[0].toObject()["measures"].toArray()[0].toObject()["value_bytes"].toInteger(), 400);
    QVERIFY(!budgets[1].toObject()["passed"].toBool());
    QCOMPARE(budgets[1].toObject()["measures"].toArray()[0].toObject()["value_bytes"].toInteger(), 300);
}

// B's peak 670 B against A's 400 B: +67.5 %.
void TestCheckCli::growthAgainstBaseline() {
    QTemporaryDir dir;
    const QString a = writeFile(dir, "a.csv", kDiffLogA), b = writeFile(dir, "b.csv", kDiffLogB);
    QCOMPARE(check({b, "--baseline", a, "--max-growth", "68%"}), 0);
    QCOMPARE(check({b, "--baseline", a, "--max-growth", "67%"}), 1);
    QCOMPARE(check({b, "--baseline", a, "--max-growth", "67.5%"}), 0);
    QCOMPARE(check({a, "--baseline", b, "--max-growth", "0%"}), 0); // a shrink
    QCOMPARE(check({b, "--baseline", b, "--max-growth", "0%"}), 0);
}

void TestCheckCli::budgetsFileAndJUnit() {
    QTemporaryDir dir;
    const QString a = writeFile(dir, "a.csv", kDiffLogA);
    const QString budgets = writeFile(dir, "memviz-budgets.json",
                                      R"({"max-peak": "400", "max": ["op=b:299", "op=a:100"], "max-leaked": 200})");
    const QString junit = dir.filePath("check.xml");
    QCOMPARE(check({a, "--budgets", budgets, "--junit", junit}), 1);
    int tests = -1, failures = -1;
    const QList<JUnitCase> cases = readJUnit(junit, &tests, &failures);
    QCOMPARE(cases.size(), 4);
    QCOMPARE(tests, 4);
    QCOMPARE(failures, 1);
    QCOMPARE(cases[0].name, QStringLiteral("peak"));
    QVERIFY(!cases[0].failed);
    QCOMPARE(cases[1].name, QStringLiteral("op b"));
    QVERIFY(cases[1].failed);
    QVERIFY(!cases[2].failed && !cases[3].failed);
    // Python's own XML parser reads it too (the parser CI systems' JUnit readers build on).
    if (python().isEmpty()) MEMVIZ_SKIP_OR_FAIL("no python3");
    const ProcessResult py = runProcess(python(), {"-c", "import sys, xml.etree.ElementTree as E; r = E.parse(sys.argv[1]).getroot();"
                                                         "print(sum(1 for c in r.iter('testcase') if c.find('failure') is not None))",
                                                   junit});
    QCOMPARE(py.exitCode, 0);
    QCOMPARE(py.out.trimmed(), QByteArray("1"));
}

void TestCheckCli::allocLogSampleMatchesOracle() {
    if (python().isEmpty()) MEMVIZ_SKIP_OR_FAIL("no python3 for the oracle");
    const QString sample = QStringLiteral(MEMVIZ_SOURCE_DIR) + "/resources/sample/sample_training_step.csv.gz";
    const QJsonObject e = oracleJson("alloclog_summary.py", sample);
    const QJsonArray devices = e["devices"].toArray();
    QVERIFY(!devices.isEmpty());
    for (const QJsonValue& v : devices)
        peakBracket(sample, v.toObject()["device"].toString(), v.toObject()["peak_bytes"].toInteger());
    // The largest operator by bytes allocated, from the oracle.
    QString op;
    qint64 most = -1;
    const QJsonObject ops = e["ops"].toObject();
    for (auto it = ops.begin(); it != ops.end(); ++it)
        if (it.value().toObject()["allocated"].toInteger() > most) {
            most = it.value().toObject()["allocated"].toInteger();
            op = it.key();
        }
    QCOMPARE(check({sample, "--max", "op=" + op + ":" + QString::number(most)}), 0);
    QCOMPARE(check({sample, "--max", "op=" + op + ":" + QString::number(most - 1)}), 1);
}

void TestCheckCli::profilerTracesMatchOracle_data() {
    QTest::addColumn<QString>("fixture");
    QTest::newRow("kineto resnet50") << "pytorch-profiler/kineto_resnet50_v100_2021.pt.trace.json.gz";
    QTest::newRow("HTA 2xV100") << "pytorch-profiler/hta_2xv100_2022.pt.trace.json.gz";
}

void TestCheckCli::profilerTracesMatchOracle() {
    QFETCH(QString, fixture);
    MEMVIZ_REQUIRE_FIXTURE(path, fixture);
    if (python().isEmpty()) MEMVIZ_SKIP_OR_FAIL("no python3 for the oracle");
    QTemporaryDir dir;
    const QString store = dir.filePath("p.memviz");
    QCOMPARE(runMemviz({"import", path, "--db", store}).exitCode, 0);
    const QJsonObject devices = oracleJson("profiler_key_averages.py", path)["devices"].toObject();
    QVERIFY(!devices.isEmpty());
    for (auto it = devices.begin(); it != devices.end(); ++it) peakBracket(store, it.key(), it.value().toObject()["peak_bytes"].toInteger());
    // A profiler trace has no categories and no allocation sites: exit 2, not a pass.
    QCOMPARE(check({store, "--max", "category=activation:1TiB"}), 2);
    QCOMPARE(check({store, "--max", "site=*:1TiB"}), 2);
}

void TestCheckCli::memoryTimelineAndCategories() {
    MEMVIZ_REQUIRE_FIXTURE(path, "pytorch-memory-timeline/hta_memory_timeline.raw.json.gz");
    if (python().isEmpty()) MEMVIZ_SKIP_OR_FAIL("no python3 for the oracle");
    const QJsonObject e = oracleJson("memory_timeline.py", path);
    QTemporaryDir dir;
    const QString store = dir.filePath("t.memviz");
    QCOMPARE(runMemviz({"import", path, "--db", store}).exitCode, 0);
    const qint64 peak = e["peak_bytes"].toInteger();
    QVERIFY(peak > 0);
    QCOMPARE(check({store, "--max-peak", QString::number(peak)}), 0);
    QCOMPARE(check({store, "--max-peak", QString::number(peak - 1)}), 1);
    const QJsonObject breakdown = e["breakdown"].toObject();
    int checked = 0;
    for (auto it = breakdown.begin(); it != breakdown.end(); ++it) {
        const qint64 bytes = it.value().toInteger();
        if (bytes <= 0) continue;
        QCOMPARE(check({store, "--max", "category=" + it.key() + ":" + QString::number(bytes)}), 0);
        QCOMPARE(check({store, "--max", "category=" + it.key() + ":" + QString::number(bytes - 1)}), 1);
        ++checked;
    }
    QVERIFY(checked >= 2);
    QByteArray err;
    QCOMPARE(check({store, "--max", "category=weights:1GiB"}, &err), 2);
    QVERIFY2(err.contains("no category \"weights\"") && err.contains("activation"), err.constData());
}

void TestCheckCli::snapshotsMatchOracle_data() {
    QTest::addColumn<QString>("fixture");
    QTest::newRow("magma27_2026") << "pytorch-snapshot/magma27_2026.pickle";
    QTest::newRow("bcrafton_2025") << "pytorch-snapshot/bcrafton_2025.pickle";
}

void TestCheckCli::snapshotsMatchOracle() {
    QFETCH(QString, fixture);
    MEMVIZ_REQUIRE_FIXTURE(path, fixture);
    if (python().isEmpty()) MEMVIZ_SKIP_OR_FAIL("no python3 for the oracle");
    const QJsonObject d = oracleJson("snapshot_oracle.py", path)["devices"].toObject()["cuda:0"].toObject();
    QVERIFY(d["peak_bytes"].toInteger() > 0);
    QTemporaryDir dir;
    const QString store = dir.filePath("s.memviz");
    QCOMPARE(runMemviz({"import", path, "--db", store}).exitCode, 0);
    peakBracket(store, "cuda:0", d["peak_bytes"].toInteger());
    const qint64 final = d["final_bytes"].toInteger();
    QCOMPARE(check({store, "--max-leaked", "cuda:0=" + QString::number(final)}), 0);
    if (final > 0) QCOMPARE(check({store, "--max-leaked", "cuda:0=" + QString::number(final - 1)}), 1);
    QByteArray err;
    QCOMPARE(check({store, "--max", "category=activation:1GiB"}, &err), 2);
    QVERIFY2(err.contains("no memory categories"), err.constData());
}

void TestCheckCli::heaptrackMatchesHeaptrackPrint() {
    const QString heaptrack = findTool("heaptrack");
    const QString print = findTool("heaptrack_print");
    if (heaptrack.isEmpty() || print.isEmpty()) MEMVIZ_SKIP_OR_FAIL("heaptrack is not installed (apt install heaptrack)");
    QTemporaryDir dir;
    const QString rec = recordWithHeaptrack(heaptrack, dir, "rec", QStringLiteral(MEMVIZ_NATIVE_C));
    QVERIFY(!rec.isEmpty());
    const HeaptrackPrintReport report = parseHeaptrackPrint(runOutput(print, {"--shorten-templates=0", rec}));
    QVERIFY(!report.peak.isEmpty() && !report.byPeak.isEmpty());
    const QString store = dir.filePath("h.memviz");
    QCOMPARE(runMemviz({"import", rec, "--db", store}).exitCode, 0);
    const auto [low, high] = heaptrackRange(report.peak);
    QCOMPARE(check({store, "--max-peak", QString::number(high)}), 0);
    QCOMPARE(check({store, "--max-peak", QString::number(low - 1)}), 1);
    const auto [leakLow, leakHigh] = heaptrackRange(report.leaked);
    QVERIFY(leakLow > 0); // the program leaks on purpose
    QCOMPARE(check({store, "--max-leaked", QString::number(leakHigh)}), 0);
    QCOMPARE(check({store, "--max-leaked", QString::number(leakLow - 1)}), 1);
    QCOMPARE(check({store, "--max-leaked", "0"}), 1);
    // The largest peak consumer, by its function name as heaptrack_print writes it.
    const HeaptrackPrintEntry& top = report.byPeak.first();
    const auto [siteLow, siteHigh] = heaptrackRange(top.bytes);
    QCOMPARE(check({store, "--max", "site=" + top.function + ":" + QString::number(siteHigh)}), 0);
    QCOMPARE(check({store, "--max", "site=" + top.function + ":" + QString::number(siteLow - 1)}), 1);
    QCOMPARE(check({store, "--max", "site=no_such_function_*:1GiB"}), 2);
}

void TestCheckCli::massifMatchesMsPrint() {
    const QString valgrind = findTool("valgrind");
    const QString msPrint = findTool("ms_print");
    if (valgrind.isEmpty() || msPrint.isEmpty()) MEMVIZ_SKIP_OR_FAIL("valgrind is not installed (apt install valgrind)");
    QTemporaryDir dir;
    const QString out = recordWithMassif(valgrind, dir, QStringLiteral(MEMVIZ_NATIVE_C), {"--time-unit=B"});
    const MsPrintReport report = parseMsPrint(runOutput(msPrint, {out}));
    QVERIFY(!report.rows.isEmpty());
    MsPrintRow top;
    for (const MsPrintRow& r : report.rows)
        if (r.total > top.total) top = r;
    const QString store = dir.filePath("m.memviz");
    QCOMPARE(runMemviz({"import", out, "--db", store}).exitCode, 0);
    QCOMPARE(check({store, "--max-peak", QString::number(top.total)}), 0);
    QCOMPARE(check({store, "--max-peak", QString::number(top.total - 1)}), 1);
    // massif's categories: the useful heap at the peak.
    QCOMPARE(check({store, "--max", "category=useful heap:" + QString::number(top.heap)}), 0);
    QCOMPARE(check({store, "--max", "category=useful heap:" + QString::number(top.heap - 1)}), 1);
    // The peak snapshot's largest allocation site, as ms_print lists it.
    QVERIFY(report.peak >= 0 && !report.trees.value(report.peak).isEmpty());
    // The tree's first entry is its root (all heap allocation functions); the second, the
    // root's largest child: an allocation site.
    QVERIFY(report.trees.value(report.peak).size() >= 2);
    const MsPrintTreeEntry site = report.trees.value(report.peak).at(1);
    const QString function = site.label.section(": ", 1).section(" (", 0, 0); // "0x...: main (file.c:12)" -> main
    QVERIFY2(!function.isEmpty(), qPrintable(site.label));
    QCOMPARE(check({store, "--max", "site=" + function + ":" + QString::number(site.bytes)}), 0);
    QCOMPARE(check({store, "--max", "site=" + function + ":" + QString::number(site.bytes - 1)}), 1);
}

void TestCheckCli::badInput_data() {
    QTest::addColumn<QStringList>("args");
    QTest::addColumn<QString>("message");
    QTest::newRow("no budgets") << QStringList{"%A"} << "no budgets";
    QTest::newRow("unknown unit") << QStringList{"%A", "--max-peak", "12 GiBs"} << "unknown size unit";
    QTest::newRow("growth without baseline") << QStringList{"%A", "--max-growth", "5%"} << "needs --baseline";
    QTest::newRow("missing baseline file") << QStringList{"%A", "--baseline", "/nonexistent/base.csv", "--max-growth", "5%"}
                                           << "/nonexistent/base.csv";
    QTest::newRow("missing trace") << QStringList{"/nonexistent/run.csv", "--max-peak", "1GiB"} << "/nonexistent/run.csv";
    QTest::newRow("bad #id") << QStringList{"%A#x", "--max-peak", "1GiB"} << "positive trace id";
    QTest::newRow("mismatched devices") << QStringList{"%A", "--baseline", "%CUDA", "--max-growth", "5%"} << "different devices";
    QTest::newRow("unknown device") << QStringList{"%A", "--max-peak", "cuda:3=1GiB"} << "no device \"cuda:3\"";
    QTest::newRow("unknown operator") << QStringList{"%A", "--max", "op=aten::mm:1GiB"} << "no operator \"aten::mm\"";
    QTest::newRow("category on an allocation log") << QStringList{"%A", "--max", "category=activation:1GiB"} << "no memory categories";
    QTest::newRow("empty trace") << QStringList{"%EMPTY", "--max-peak", "1GiB"} << "no memory events";
    QTest::newRow("bad budgets file") << QStringList{"%A", "--budgets", "%BADJSON"} << "not valid JSON";
    QTest::newRow("unknown option") << QStringList{"%A", "--max-peek", "1GiB"} << "max-peek";
}

void TestCheckCli::badInput() {
    QFETCH(QStringList, args);
    QFETCH(QString, message);
    QTemporaryDir dir;
    const QString a = writeFile(dir, "a.csv", kDiffLogA);
    const QString cuda = writeFile(dir, "cuda.csv", "time_ns,action,address,size,device\n0,alloc,0x10,100,cuda:0\n");
    const QString empty = writeFile(dir, "empty.csv", "time_ns,action,address,size,op\n");
    const QString bad = writeFile(dir, "bad.json", "{\"max-peak\": ");
    for (QString& arg : args) {
        arg.replace("%CUDA", cuda).replace("%EMPTY", empty).replace("%BADJSON", bad).replace("%A", a);
    }
    const ProcessResult r = runMemviz(QStringList{"check"} + args);
    QCOMPARE(r.exitCode, 2);
    QVERIFY2(QString::fromUtf8(r.err).contains(message), r.err.constData());
}

QTEST_GUILESS_MAIN(TestCheckCli)
#include "tst_check_cli.moc"

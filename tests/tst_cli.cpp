// SPDX-License-Identifier: MIT
// The command line end to end: the real memviz binary, its output and exit statuses.
#include <QImage>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QtTest>

#include "TestSupport.h"

using namespace memviz::test;

namespace {

// Live bytes on cpu: 100, 400, 300 (peak 400 at 1500 ns); cuda:0 holds 50 from 4000 ns.
const QByteArray kLog = "time_us,action,address,size,device,op\n"
                        "0,alloc,0x10,100,cpu,aten::empty\n"
                        "1.5,alloc,0x20,300,cpu,aten::mm\n"
                        "2,free,0x10,,cpu,\n"
                        "4,alloc,0x30,50,cuda:0,aten::add\n";

QJsonObject jsonOf(const ProcessResult& r) { return QJsonDocument::fromJson(r.out).object(); }

} // namespace

class TestCli : public QObject {
    Q_OBJECT
private slots:
    void helpAndVersion();
    void summaryJsonOnRawFile();
    void importThenSummaryOfStore();
    void opsTable();
    void errorsNameTheFileAndFail_data();
    void errorsNameTheFileAndFail();
    void screenshotShowsTheTrace();
    void commandLineLoadsNoGuiAndHandsTheWindowOver();
    void mistypedCommandIsAUsageError_data();
    void mistypedCommandIsAUsageError();
};

void TestCli::helpAndVersion() {
    const auto help = runMemviz({"--help"});
    QCOMPARE(help.exitCode, 0);
    for (const char* cmd : {"import", "summary", "ops", "screenshot", "traces"}) QVERIFY(help.out.contains(cmd));
    const auto version = runMemviz({"--version"});
    QCOMPARE(version.exitCode, 0);
    QVERIFY(version.out.startsWith("memviz "));
    const auto formats = runMemviz({"formats"});
    QCOMPARE(formats.exitCode, 0);
    QVERIFY(formats.out.contains("memviz-alloc-log"));
}

void TestCli::summaryJsonOnRawFile() {
    QTemporaryDir dir;
    const QString log = writeFile(dir, "t.csv", kLog);
    const auto r = runMemviz({"summary", log, "--json"});
    QVERIFY2(r.exitCode == 0, r.err.constData());
    const QJsonObject o = jsonOf(r);
    QCOMPARE(o["format"].toString(), QStringLiteral("memviz-alloc-log"));
    QCOMPARE(o["source"].toString(), log);
    QCOMPARE(o["duration_ns"].toInteger(), 4000);
    const QJsonArray devices = o["devices"].toArray();
    QCOMPARE(devices.size(), 2);
    const QJsonObject cpu = devices[0].toObject();
    QCOMPARE(cpu["device"].toString(), QStringLiteral("cpu"));
    QCOMPARE(cpu["events"].toInteger(), 3);
    QCOMPARE(cpu["allocs"].toInteger(), 2);
    QCOMPARE(cpu["frees"].toInteger(), 1);
    QCOMPARE(cpu["peak_bytes"].toInteger(), 400);
    QCOMPARE(cpu["peak_time_ns"].toInteger(), 1500);
    QCOMPARE(cpu["final_bytes"].toInteger(), 300);
    QCOMPARE(cpu["duration_ns"].toInteger(), 4000);
    const QJsonObject gpu = devices[1].toObject();
    QCOMPARE(gpu["device"].toString(), QStringLiteral("cuda:0"));
    QCOMPARE(gpu["peak_bytes"].toInteger(), 50);
    QCOMPARE(gpu["peak_time_ns"].toInteger(), 4000);
    // The raw file was imported into a temporary store, not beside it.
    QCOMPARE(QDir(dir.path()).entryList(QDir::Files), QStringList{"t.csv"});
}

void TestCli::importThenSummaryOfStore() {
    QTemporaryDir dir;
    const QString log = writeFile(dir, "t.csv", kLog);
    const QString gz = writeFile(dir, "u.csv", "time_ns,action,address,size\n0,alloc,0x1,7\n");
    const auto imported = runMemviz({"import", log});
    QVERIFY2(imported.exitCode == 0, imported.err.constData());
    const QString store = dir.filePath("t.memviz");
    QVERIFY(QFileInfo::exists(store));
    QVERIFY(imported.out.contains("as trace 1"));
    const auto second = runMemviz({"import", gz, "--db", store, "--json"});
    QVERIFY2(second.exitCode == 0, second.err.constData());
    QCOMPARE(jsonOf(second)["trace_id"].toInteger(), 2);
    // Default: the latest trace; --trace picks another.
    QCOMPARE(jsonOf(runMemviz({"summary", store, "--json"}))["trace_id"].toInteger(), 2);
    const QJsonObject first = jsonOf(runMemviz({"summary", store, "--json", "--trace", "1"}));
    QCOMPARE(first["devices"].toArray()[0].toObject()["peak_bytes"].toInteger(), 400);
    const auto traces = runMemviz({"traces", store});
    QCOMPARE(traces.exitCode, 0);
    QVERIFY(traces.out.contains("t.csv") && traces.out.contains("u.csv"));
    const auto text = runMemviz({"summary", store, "--trace", "1"});
    QVERIFY(text.out.contains("400 B"));
    QVERIFY(text.out.contains("1.500 \xC2\xB5s"));
}

void TestCli::opsTable() {
    QTemporaryDir dir;
    const QString log = writeFile(dir, "t.csv", kLog);
    const auto r = runMemviz({"ops", log, "--json"});
    QVERIFY2(r.exitCode == 0, r.err.constData());
    const QJsonArray ops = jsonOf(r)["ops"].toArray();
    QCOMPARE(ops.size(), 3);
    // Sorted by bytes allocated: mm 300, empty 100 (freed by a record without op), add 50.
    QCOMPARE(ops[0].toObject()["name"].toString(), QStringLiteral("aten::mm"));
    QCOMPARE(ops[1].toObject()["name"].toString(), QStringLiteral("aten::empty"));
    QCOMPARE(ops[1].toObject()["bytes_freed"].toInteger(), 100);
    QCOMPARE(ops[1].toObject()["net_bytes"].toInteger(), 0);
    QCOMPARE(ops[2].toObject()["largest_alloc"].toInteger(), 50);
    const auto limited = runMemviz({"ops", log, "--json", "--limit", "1", "--device", "cuda:0"});
    QCOMPARE(limited.exitCode, 0);
    QCOMPARE(jsonOf(limited)["ops"].toArray().size(), 1);
    QCOMPARE(jsonOf(limited)["ops"].toArray()[0].toObject()["name"].toString(), QStringLiteral("aten::add"));
    const auto window = runMemviz({"ops", log, "--json", "--range", "1000:2500"});
    const QJsonArray inWindow = jsonOf(window)["ops"].toArray();
    QCOMPARE(inWindow.size(), 2);
    const auto text = runMemviz({"ops", log});
    QVERIFY(text.out.startsWith("operator"));
    QVERIFY(text.out.contains("300 B"));
}

void TestCli::errorsNameTheFileAndFail_data() {
    QTest::addColumn<QStringList>("args");
    QTest::addColumn<int>("status");
    QTest::addColumn<QString>("mustSay");
    QTest::newRow("missing file") << QStringList{"summary", "@DIR/nope.csv"} << 1 << "@DIR/nope.csv: cannot open";
    QTest::newRow("bad log") << QStringList{"summary", "@DIR/bad.csv"} << 1 << "@DIR/bad.csv: line 3";
    QTest::newRow("not a store or trace") << QStringList{"summary", "@DIR/prose.txt"} << 1 << "unrecognised file format";
    QTest::newRow("unknown option") << QStringList{"summary", "@DIR/bad.csv", "--colour"} << 2 << "Unknown option 'colour'";
    QTest::newRow("no file") << QStringList{"ops"} << 2 << "expected 1 file argument";
    QTest::newRow("bad limit") << QStringList{"ops", "@DIR/bad.csv", "--limit", "x"} << 2 << "--limit";
    QTest::newRow("screenshot without --out") << QStringList{"screenshot", "@DIR/bad.csv"} << 2 << "--out PNG is required";
}

void TestCli::errorsNameTheFileAndFail() {
    QFETCH(QStringList, args);
    QFETCH(int, status);
    QFETCH(QString, mustSay);
    QTemporaryDir dir;
    writeFile(dir, "bad.csv", "time_ns,action,address,size\n0,alloc,0x1,1\n1,alloc,0x2,-1\n");
    writeFile(dir, "prose.txt", "dear diary\n");
    for (QString& a : args) a.replace("@DIR", dir.path());
    mustSay.replace("@DIR", dir.path());
    const auto r = runMemviz(args);
    QCOMPARE(r.exitCode, status);
    QVERIFY2(QString::fromUtf8(r.err).contains(mustSay), r.err.constData());
    QVERIFY(r.out.isEmpty());
}

void TestCli::screenshotShowsTheTrace() {
    QTemporaryDir dir;
    const QString log = writeFile(dir, "t.csv", kLog);
    const QString png = dir.filePath("shot.png");
    const auto r = runMemviz({"screenshot", log, "--out", png, "--size", "900x600"});
    QVERIFY2(r.exitCode == 0, r.err.constData());
    QImage image(png);
    QCOMPARE(image.size(), QSize(900, 600));
    // Not blank: the plot's blue series line and the red peak marker are there.
    int blue = 0, red = 0;
    for (int y = 0; y < image.height(); ++y)
        for (int x = 0; x < image.width(); ++x) {
            const QColor c = image.pixelColor(x, y);
            if (c.blue() > 150 && c.red() < 80 && c.green() > 90 && c.green() < 140) ++blue;
            if (c.red() > 180 && c.green() < 60 && c.blue() < 60) ++red;
        }
    QVERIFY2(blue > 200, qPrintable(QString::number(blue)));
    QVERIFY2(red > 10, qPrintable(QString::number(red)));
}

// memviz runs the subcommands with Qt Core only (ldd names no Qt GUI library) and hands the
// window and `screenshot` to memviz-gui beside it (screenshotShowsTheTrace passes through
// that). A memviz without memviz-gui beside it, and none on PATH, says so and fails.
void TestCli::commandLineLoadsNoGuiAndHandsTheWindowOver() {
    const QString memviz = QStringLiteral(MEMVIZ_BINARY);
    const QString libraries = runOutput("ldd", {memviz});
    QVERIFY2(libraries.contains("libQt6Core"), qPrintable(libraries));
    QVERIFY2(!libraries.contains("libQt6Gui") && !libraries.contains("libQt6Widgets"), qPrintable(libraries));
    QVERIFY(QFileInfo(QFileInfo(memviz).dir().filePath("memviz-gui")).isExecutable());

    QTemporaryDir dir;
    const QString alone = dir.filePath("memviz");
    QVERIFY(QFile::copy(memviz, alone));
    QVERIFY(QFile::setPermissions(alone, QFile::permissions(memviz)));
    QProcess p;
    QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
    env.insert("PATH", dir.path());
    p.setProcessEnvironment(env);
    p.start(alone, {"screenshot", "x.csv", "--out", dir.filePath("x.png")});
    QVERIFY(p.waitForFinished(60000));
    QCOMPARE(p.exitCode(), 127);
    const QString err = QString::fromUtf8(p.readAllStandardError());
    QVERIFY2(err.contains("cannot start the window") && err.contains("memviz-gui"), qPrintable(err));
    // The subcommands still run.
    p.start(alone, {"--version"});
    QVERIFY(p.waitForFinished(60000));
    QCOMPARE(p.exitCode(), 0);
}

void TestCli::mistypedCommandIsAUsageError_data() {
    QTest::addColumn<QStringList>("args");
    QTest::newRow("no such command") << QStringList{"compare", "a.memviz", "b.memviz"};
    QTest::newRow("no such file") << QStringList{"@DIR/nope.csv"};
}

// A first word that is neither a subcommand nor an existing file must not open the window
// (issue 19: `memviz diff A B` started the GUI on "diff"): exit status 2 (bad usage, as
// --help says) and a message that lists the subcommands.
void TestCli::mistypedCommandIsAUsageError() {
    QFETCH(QStringList, args);
    QTemporaryDir dir;
    for (QString& a : args) a.replace("@DIR", dir.path());
    // A window would never exit by itself: the short timeout turns that into a failure.
    QProcess p;
    QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
    env.insert("QT_QPA_PLATFORM", "offscreen");
    p.setProcessEnvironment(env);
    p.start(QStringLiteral(MEMVIZ_BINARY), args);
    QVERIFY(p.waitForStarted(10000));
    const bool exited = p.waitForFinished(20000);
    if (!exited) {
        p.kill();
        p.waitForFinished(5000);
    }
    QVERIFY2(exited, "memviz did not exit: it opened the window");
    QCOMPARE(p.exitCode(), 2);
    const QString err = QString::fromUtf8(p.readAllStandardError());
    QVERIFY2(err.contains(args.first()), qPrintable(err));
    for (const char* cmd : {"import", "summary", "ops", "screenshot", "record", "estimate"})
        QVERIFY2(err.contains(QLatin1String(cmd)), qPrintable(err));
    QVERIFY(p.readAllStandardOutput().isEmpty());
}

QTEST_GUILESS_MAIN(TestCli)
#include "tst_cli.moc"

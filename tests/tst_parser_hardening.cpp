// SPDX-License-Identifier: MIT
// Damaged files (issue 11): the crashes found by changing one byte of real traces, fixed at
// their root; the CUDA snapshot whose frame line is an unsigned -1; the wording of type errors.
// Expected offsets are found in the test's own bytes (QByteArray::indexOf), expected values
// written by Python's own pickle. (Bombs and absurd sizes: tst_bombs.cpp.)
#include <QtTest>

#include "TestSupport.h"
#include "core/Errors.h"
#include "core/Progress.h"
#include "formats/FormatRegistry.h"
#include "formats/snapshot/SnapshotQueries.h"
#include "io/InputFile.h"
#include "pickle/PickleReader.h"
#include "store/Database.h"

using namespace memviz;

namespace {

struct Attempt {
    bool imported = false;
    std::string error;
    std::int64_t traceId = 0;
};

// Imports `content` (written as `name` in `dir`) into a fresh store in `dir`.
Attempt importBytes(const QTemporaryDir& dir, const QString& name, const QByteArray& content, const std::string& format = {}) {
    const QString path = test::writeFile(dir, name, content);
    Database db(dir.filePath(name + ".memviz").toStdString());
    Attempt a;
    try {
        a.traceId = importFile(db, path.toStdString(), Progress{}, format);
        a.imported = true;
    } catch (const ImportError& e) {
        a.error = e.what();
    }
    return a;
}

QByteArray pythonPickle(const QString& expression) {
    const auto r = test::runProcess(
        test::python(), {"-c", "import pickle, sys\nsys.stdout.buffer.write(pickle.dumps(" + expression + ", protocol=4))"});
    if (r.exitCode != 0) qWarning("%s", r.err.constData());
    return r.out;
}

QByteArray gunzip(const QByteArray& gz) {
    QTemporaryDir dir;
    const QString path = test::writeFile(dir, "x.gz", gz);
    InputFile in(path.toStdString());
    const std::string all = in.readAll(std::size_t{1} << 31);
    return QByteArray(all.data(), static_cast<qsizetype>(all.size()));
}

} // namespace

class TestParserHardening : public QObject {
    Q_OBJECT

private slots:
    void initTestCase() { QVERIFY2(!test::python().isEmpty(), "python3 is needed to write the pickles (CI installs it)"); }

    // A byte that is not UTF-8 inside an event: simdjson fails before it has a document, and
    // the error path used to ask that non-document where it stopped (SIGSEGV).
    void profilerTraceInvalidUtf8() {
        QTemporaryDir dir;
        QByteArray trace =
            R"({"traceEvents": [{"ph": "X", "cat": "cpu_op", "name": "aten::mm", "pid": 1, "tid": 1, "ts": 1, "dur": 2},
 {"ph": "X", "cat": "cpu_op", "name": "aten::~add", "pid": 1, "tid": 1, "ts": 3, "dur": 2}]})";
        trace.replace('~', '\xff');
        const Attempt a = importBytes(dir, "t.pt.trace.json", trace);
        QVERIFY(!a.imported);
        const QString expected = "byte " + QString::number(trace.indexOf('\xff')) + ": invalid JSON in event 2";
        QVERIFY2(QString::fromStdString(a.error).contains(expected), a.error.c_str());
        QVERIFY2(QString::fromStdString(a.error).contains("UTF-8"), a.error.c_str());
    }

    // A control character inside a string, and broken structure inside an event: the other
    // errors that leave simdjson without a location.
    void profilerTraceOtherDamage_data() {
        QTest::addColumn<QByteArray>("trace");
        QTest::addColumn<QByteArray>("badByte"); // the byte the message must point at ("" = the event's start)
        QTest::addColumn<QString>("expected");
        QTest::newRow("control character in a string") << QByteArray("{\"traceEvents\": [{\"ph\": \"X\", \"name\": \"a\x01"
                                                                     "b\", \"ts\": 1}]}")
                                                       << QByteArray("\x01") << "invalid JSON in event 1";
        QTest::newRow("a colon for a comma") << QByteArray(R"({"traceEvents": [{"ph": "X", "name": "a": "ts": 1}, {"ph": "X"}]})")
                                             << QByteArray() << "invalid JSON in event 1";
        QTest::newRow("a brace for a bracket in args")
            << QByteArray(R"({"traceEvents": [{"ph": "X", "name": "a", "args": {"Input Dims": [[1}, 2]}}]})") << QByteArray()
            << "invalid JSON";
    }
    void profilerTraceOtherDamage() {
        QFETCH(QByteArray, trace);
        QFETCH(QByteArray, badByte);
        QFETCH(QString, expected);
        QTemporaryDir dir;
        const Attempt a = importBytes(dir, "t.json", trace, "pytorch-profiler");
        QVERIFY(!a.imported);
        const QString error = QString::fromStdString(a.error);
        QVERIFY2(error.contains(expected), a.error.c_str());
        QVERIFY2(error.contains(QRegularExpression("byte [0-9]+")), a.error.c_str());
        if (!badByte.isEmpty()) QVERIFY2(error.contains("byte " + QString::number(trace.indexOf(badByte))), a.error.c_str());
    }

    // The same in a memory-timeline export, read as one document.
    void memoryTimelineDamage_data() {
        QTest::addColumn<QByteArray>("json");
        QTest::addColumn<QString>("expected");
        const QByteArray utf8 = "[[-1, 1, 4096, 0], [1000, 2, 256, 4], [2000, 4, -256\xfe, 4]]";
        QTest::newRow("invalid UTF-8") << utf8 << "byte " + QString::number(utf8.indexOf('\xfe')) + ": invalid JSON";
        QTest::newRow("a brace closes a row")
            << QByteArray("[[-1, 1, 4096, 0], [1000, 2, 256, 4}, [2000, 4, -256, 4]]") << "m.raw.json: row 1: ";
        QTest::newRow("a missing comma") << QByteArray("[[-1, 1, 4096, 0], [1000, 2 256, 4]]") << "m.raw.json: row 1";
        QTest::newRow("cut short") << QByteArray("[[-1, 1, 4096, 0], [1000, 2, 2") << "truncated";
    }
    void memoryTimelineDamage() {
        QFETCH(QByteArray, json);
        QFETCH(QString, expected);
        QTemporaryDir dir;
        const Attempt a = importBytes(dir, "m.raw.json", json, "pytorch-memory-timeline");
        QVERIFY(!a.imported);
        QVERIFY2(QString::fromStdString(a.error).contains(expected), a.error.c_str());
    }

    // Real files, one byte changed, as a user meets them: every copy imports or is refused
    // with a message naming the file; none may crash the process (which ends this test).
    void damagedRealFiles_data() {
        QTest::addColumn<QString>("fixture");
        QTest::addColumn<QString>("format");
        QTest::newRow("profiler trace") << "pytorch-profiler/kineto_resnet50_v100_2021.pt.trace.json.gz"
                                        << "pytorch-profiler";
        QTest::newRow("memory timeline") << "pytorch-memory-timeline/hta_memory_timeline.raw.json.gz"
                                         << "pytorch-memory-timeline";
    }
    void damagedRealFiles() {
        QFETCH(QString, fixture);
        QFETCH(QString, format);
        MEMVIZ_REQUIRE_FIXTURE(path, fixture);
        const QByteArray original = gunzip(test::readFile(path));
        QVERIFY(!original.isEmpty());
        // A fixed sequence (a linear congruential generator), so a failure names a copy that
        // can be made again: positions spread over the file, values over all 256 bytes.
        std::uint64_t state = 11;
        const auto next = [&state] { return (state = state * 6364136223846793005ull + 1442695040888963407ull) >> 33; };
        QTemporaryDir dir;
        int refused = 0;
        for (int copy = 0; copy < 12; ++copy) {
            QByteArray damaged = original;
            const qsizetype at = static_cast<qsizetype>(next() % static_cast<std::uint64_t>(original.size()));
            char value = static_cast<char>(next() & 0xff);
            if (value == damaged[at]) value = static_cast<char>(value ^ 0x80);
            damaged[at] = value;
            const Attempt a = importBytes(dir, QString("copy%1.json").arg(copy), damaged, format.toStdString());
            if (!a.imported) {
                ++refused;
                QVERIFY2(QString::fromStdString(a.error).contains(QString("copy%1.json").arg(copy)), a.error.c_str());
            }
        }
        qInfo("%d of 12 damaged copies refused with a message, the rest imported", refused);
    }

    // A frame line of 2^64 - 1 (PyTorch's unsigned -1 for a line it does not know; Python
    // pickles it with LONG1) imports as an unknown line: stored as 0, shown as no line.
    void snapshotUnsignedMinusOneLine() {
        QTemporaryDir dir;
        const QByteArray blob = pythonPickle(
            "{'segments': [], 'device_traces': [[{'action': 'alloc', 'addr': 4096, 'size': 512, 'time_us': 5, "
            "'frames': [{'name': 'gather', 'filename': 'memory_snapshot.cpp', 'line': 2**64 - 1}, "
            "{'name': 'forward', 'filename': 'model.py', 'line': 2**64 - 1}, "
            "{'name': 'main', 'filename': 'train.py', 'line': 12}]}]]}");
        QVERIFY(blob.contains("\x8a\x09\xff\xff\xff\xff\xff\xff\xff\xff\x00")); // LONG1, 9 bytes
        const Attempt a = importBytes(dir, "s.pickle", blob);
        QVERIFY2(a.imported, a.error.c_str());
        Database db(dir.filePath("s.pickle.memviz").toStdString());
        const StackCatalog c = loadStackCatalog(db, a.traceId);
        QCOMPARE(c.frames.size(), std::size_t{3});
        QCOMPARE(c.frames[0].line, std::int64_t{0});
        QCOMPARE(c.frames[1].line, std::int64_t{0});
        QCOMPARE(c.frames[2].line, std::int64_t{12});
        QCOMPARE(QString::fromStdString(c.siteOf(0)), QStringLiteral("forward (model.py)")); // no ":0", no ":1844..."
    }

    // Type and range errors say what is wrong, in English: never "a int, not an int".
    void snapshotFieldMessages_data() {
        QTest::addColumn<QString>("entry");
        QTest::addColumn<QString>("expected");
        QTest::newRow("time_us unsigned -1")
            << "{'action': 'alloc', 'addr': 1, 'size': 2, 'time_us': 2**64 - 1}"
            << "device_traces[0][0]: 'time_us' is out of range (18446744073709551615; expected at most 2^63 - 1)";
        QTest::newRow("size unsigned -1") << "{'action': 'alloc', 'addr': 1, 'size': 2**64 - 1}"
                                          << "'size' is out of range (18446744073709551615; expected 0 to 2^63 - 1)";
        QTest::newRow("size negative") << "{'action': 'alloc', 'addr': 1, 'size': -5}"
                                       << "'size' is out of range (-5; expected 0 to 2^63 - 1)";
        QTest::newRow("size a str") << "{'action': 'alloc', 'addr': 1, 'size': '2'}"
                                    << "'size' is a str, not an int";
        QTest::newRow("time_us a float") << "{'action': 'alloc', 'addr': 1, 'size': 2, 'time_us': 1.5}"
                                         << "'time_us' is a float, not an int";
        QTest::newRow("entry an int") << "5"
                                      << "device_traces[0][0]: an entry that is an int, not a dict";
        QTest::newRow("frame line a str")
            << "{'action': 'alloc', 'addr': 1, 'size': 2, 'frames': [{'name': 'f', 'filename': 'a.py', 'line': '3'}]}"
            << "frame field 'line' is a str, not an int";
        QTest::newRow("frame name an int")
            << "{'action': 'alloc', 'addr': 1, 'size': 2, 'frames': [{'name': 7, 'filename': 'a.py', 'line': 3}]}"
            << "frame field 'name' is an int, not a str";
        QTest::newRow("frames an int") << "{'action': 'alloc', 'addr': 1, 'size': 2, 'frames': 2**64 - 1}"
                                       << "'frames' is an int, not a list";
    }
    void snapshotFieldMessages() {
        QFETCH(QString, entry);
        QFETCH(QString, expected);
        QTemporaryDir dir;
        const Attempt a = importBytes(dir, "s.pickle", pythonPickle("{'segments': [], 'device_traces': [[" + entry + "]]}"));
        QVERIFY(!a.imported);
        const QString error = QString::fromStdString(a.error);
        QVERIFY2(error.contains(expected), a.error.c_str());
        QVERIFY2(!error.contains("a int"), a.error.c_str());
    }

    void pickleMessages() {
        // APPEND onto an int: "expected a list to add items to, found an int".
        const std::string appendToInt("\x80\x04K\x05K\x06"
                                      "a.",
                                      8);
        try {
            pickle::parse(appendToInt);
            QFAIL("APPEND onto an int was accepted");
        } catch (const pickle::PickleError& e) {
            QVERIFY2(QString(e.what()).contains("expected a list to add items to, found an int"), e.what());
        }
    }
};

QTEST_GUILESS_MAIN(TestParserHardening)
#include "tst_parser_hardening.moc"

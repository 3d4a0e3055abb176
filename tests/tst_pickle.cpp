// SPDX-License-Identifier: MIT
// The safe pickle reader: every whitelisted opcode against Python's own unpickler, memo
// sharing, and hostile input (forbidden opcodes, deep nesting, huge lengths, wide integers,
// recursive structures, truncation at every byte, random corruption) rejected cleanly.
#include <QtTest>
#include <random>
#include <string>

#include "TestSupport.h"
#include "pickle/PickleReader.h"

using namespace memviz;
using namespace memviz::pickle;

namespace {

std::string bytesOf(const QString& path) {
    const QByteArray b = memviz::test::readFile(path);
    return std::string(b.constData(), static_cast<std::size_t>(b.size()));
}

std::string u32(std::uint32_t v) { return std::string(reinterpret_cast<const char*>(&v), 4); }
std::string u64(std::uint64_t v) { return std::string(reinterpret_cast<const char*>(&v), 8); }
std::string s(const char* text, std::size_t n) { return std::string(text, n); }

// The error message parse() throws, or "" when it parses.
QString errorOf(const std::string& data, const Limits& limits = {}) {
    try {
        parse(data, limits);
    } catch (const PickleError& e) {
        return QString::fromUtf8(e.what());
    }
    return {};
}

// Runs a Python oracle script; skips the test when no interpreter is available.
QByteArray runPython(const QStringList& args) {
    const QString py = memviz::test::python();
    if (py.isEmpty()) return {};
    const auto r = memviz::test::runProcess(py, args);
    if (r.exitCode != 0) qWarning("%s", r.err.constData());
    return r.exitCode == 0 ? r.out : QByteArray();
}

} // namespace

class TestPickle : public QObject {
    Q_OBJECT
private slots:
    void initTestCase();
    void coversEveryWhitelistedOpcode();
    void matchesPythonOnGeneratedPickles();
    void matchesPythonOnRealSnapshots();
    void sharesMemoisedObjects();
    void integersUpTo64Bits();
    void rejectsForbiddenOpcodes_data();
    void rejectsForbiddenOpcodes();
    void rejectsUnsupportedAndUnknownOpcodes_data();
    void rejectsUnsupportedAndUnknownOpcodes();
    void rejectsDeepNesting();
    void rejectsHugeDeclaredLengths_data();
    void rejectsHugeDeclaredLengths();
    void rejectsMalformedStructure_data();
    void rejectsMalformedStructure();
    void sparseMemoIndexesStayCheap();
    void enforcesLimits();
    void rejectsTruncationAtEveryByte();
    void survivesRandomCorruption();

private:
    QTemporaryDir dir_;
    QStringList generated_;
};

void TestPickle::initTestCase() {
    QVERIFY(dir_.isValid());
    if (memviz::test::python().isEmpty()) MEMVIZ_SKIP_OR_FAIL("no Python interpreter for the oracle scripts");
    const QByteArray used = runPython({memviz::test::oracle("make_pickles.py"), "--opcodes", dir_.path()});
    QVERIFY(!used.isEmpty());
    for (const QFileInfo& f : QDir(dir_.path()).entryInfoList({"*.pickle"}, QDir::Files, QDir::Name))
        generated_ << f.absoluteFilePath();
    QVERIFY(generated_.size() >= 10);
}

void TestPickle::coversEveryWhitelistedOpcode() {
    // Every opcode the issue lists, plus the plain-data extras memviz also reads.
    const QStringList whitelist = QString("PROTO FRAME STOP MARK EMPTY_DICT DICT EMPTY_LIST LIST APPEND APPENDS SETITEM "
                                          "SETITEMS EMPTY_TUPLE TUPLE TUPLE1 TUPLE2 TUPLE3 SHORT_BINUNICODE BINUNICODE "
                                          "BINUNICODE8 SHORT_BINBYTES BINBYTES BININT BININT1 BININT2 LONG1 LONG4 BINFLOAT "
                                          "NEWTRUE NEWFALSE NONE MEMOIZE BINPUT LONG_BINPUT BINGET LONG_BINGET POP POP_MARK "
                                          "DUP BINBYTES8 BYTEARRAY8")
                                      .split(' ');
    const QStringList used = QString::fromUtf8(
                                 runPython({memviz::test::oracle("make_pickles.py"), "--opcodes", dir_.filePath("again")}))
                                 .simplified()
                                 .split(' ');
    for (const QString& op : whitelist) QVERIFY2(used.contains(op), qPrintable(op + " is not exercised"));
}

void TestPickle::matchesPythonOnGeneratedPickles() {
    const QList<QByteArray> expected = runPython(QStringList{memviz::test::oracle("pickle_repr.py")} + generated_).split('\n');
    QCOMPARE(expected.size(), generated_.size() + 1); // one line each, then the final newline
    for (int i = 0; i < generated_.size(); ++i) {
        const Document doc = parse(bytesOf(generated_[i]));
        const std::string ours = debugString(doc, doc.root());
        QVERIFY2(ours == expected[i].toStdString(), qPrintable(generated_[i]));
    }
}

void TestPickle::matchesPythonOnRealSnapshots() {
    for (const char* name : {"pytorch-snapshot/magma27_2026.pickle", "pytorch-snapshot/bcrafton_2025.pickle"}) {
        MEMVIZ_REQUIRE_FIXTURE(path, name);
        const QByteArray expected = runPython({memviz::test::oracle("pickle_repr.py"), path}).trimmed();
        QVERIFY(expected.size() > 1000000);
        const Document doc = parse(bytesOf(path));
        QVERIFY2(debugString(doc, doc.root()) == expected.toStdString(), name);
    }
}

void TestPickle::sharesMemoisedObjects() {
    const QString file = dir_.filePath("python_protocol4.pickle");
    const Document doc = parse(bytesOf(file));
    const Value* twice = doc.find(doc.root(), "shared_twice");
    if (!twice || twice->kind != Kind::List) QFAIL("no list \"shared_twice\"");
    const auto items = doc.items(*twice);
    if (items.size() != 3) QFAIL("expected three items");
    const Value* again = doc.find(items[2], "again");
    if (!again) QFAIL("no key \"again\"");
    QCOMPARE(doc.containerId(items[0]), doc.containerId(items[1]));
    QCOMPARE(doc.containerId(items[0]), doc.containerId(*again));
    // A frame dict referenced three times exists once.
    const Value* frames = doc.find(doc.root(), "frames");
    if (!frames) QFAIL("no key \"frames\"");
    const auto lists = doc.items(*frames);
    if (lists.size() != 2) QFAIL("expected two frames lists");
    const auto first = doc.items(lists[0]);
    const auto second = doc.items(lists[1]);
    if (first.empty() || second.empty()) QFAIL("empty frames lists");
    QCOMPARE(doc.containerId(first[0]), doc.containerId(second[0]));
    QCOMPARE(doc.depth(doc.root()), std::uint32_t{6}); // nested: [[[[["deep"]]]]] inside the root dict
}

void TestPickle::integersUpTo64Bits() {
    // LONG1 with 9 bytes: 2^64 - 1, the value of pytorch#115234, is kept as an unsigned 64-bit value.
    const Document max = parse("\x80\x02\x8a\x09" + std::string(8, '\xff') + std::string(1, '\0') + ".");
    QCOMPARE(max.root().kind, Kind::UInt64);
    QCOMPARE(static_cast<std::uint64_t>(max.root().payload), ~0ull);
    const Document min = parse("\x80\x02\x8a\x08" + std::string(7, '\0') + "\x80.");
    QCOMPARE(min.root().kind, Kind::Int);
    QCOMPARE(min.root().payload, std::numeric_limits<std::int64_t>::min());
    QVERIFY(errorOf("\x80\x02\x8a\x09" + std::string(8, '\0') + "\x01.").contains("wider than 64 bits"));
    QVERIFY(errorOf("\x80\x02\x8a\x09" + std::string(8, '\xff') + "\xfe.").contains("wider than 64 bits"));
    QVERIFY(errorOf("\x80\x02\x8a\x09" + std::string(7, '\xff') + "\x7f\xff.").contains("below -2^63"));
    QVERIFY(errorOf("\x80\x02\x8b" + u32(300) + std::string(299, '\0') + "\x01.").contains("wider than 64 bits"));
}

void TestPickle::rejectsForbiddenOpcodes_data() {
    QTest::addColumn<QByteArray>("data");
    QTest::addColumn<QString>("name");
    QTest::addColumn<int>("offset");
    auto row = [](const char* tag, const std::string& d, const char* name, int offset) {
        QTest::newRow(tag) << QByteArray(d.data(), static_cast<qsizetype>(d.size())) << QString(name) << offset;
    };
    row("GLOBAL os.system",
        "\x80\x02"
        "cos\nsystem\n"
        "X\x02\x00\x00\x00id"
        "\x85R.",
        "GLOBAL", 2);
    // pickle.dumps of an object whose __reduce__ returns (posix.system, ("id",)), protocol 4.
    row("STACK_GLOBAL posix.system", s("\x80\x04\x8c\x05posix\x94\x8c\x06system\x94\x93\x94\x8c\x02id\x94\x85\x94R\x94.", 32),
        "STACK_GLOBAL", 19);
    row("REDUCE", s("\x80\x04N)R.", 6), "REDUCE", 4);
    row("BUILD", s("\x80\x04}N}b.", 7), "BUILD", 5);
    row("NEWOBJ", s("\x80\x04N)\x81.", 6), "NEWOBJ", 4);
    row("NEWOBJ_EX", s("\x80\x04N)}\x92.", 7), "NEWOBJ_EX", 5);
    row("INST", s("\x80\x02(ios\nsystem\n.", 15), "INST", 3);
    row("OBJ", s("\x80\x02(No.", 6), "OBJ", 4);
    row("PERSID", s("\x80\x02Pkey\n.", 8), "PERSID", 2);
    row("BINPERSID", s("\x80\x02NQ.", 5), "BINPERSID", 3);
    row("EXT1", s("\x80\x02\x82\x01.", 5), "EXT1", 2);
    row("EXT2", s("\x80\x02\x83\x01\x00.", 6), "EXT2", 2);
    row("EXT4", s("\x80\x02\x84\x01\x00\x00\x00.", 8), "EXT4", 2);
}

void TestPickle::rejectsForbiddenOpcodes() {
    QFETCH(QByteArray, data);
    QFETCH(QString, name);
    QFETCH(int, offset);
    const QString message = errorOf(data.toStdString());
    QVERIFY2(message.contains("forbidden opcode " + name), qPrintable(message));
    QVERIFY2(message.contains(QString("at byte %1").arg(offset)), qPrintable(message));
}

void TestPickle::rejectsUnsupportedAndUnknownOpcodes_data() {
    QTest::addColumn<QByteArray>("data");
    QTest::addColumn<QString>("expected");
    QTest::newRow("INT (text protocol)") << QByteArray("\x80\x02I12\n.") << "unsupported opcode INT";
    QTest::newRow("EMPTY_SET") << QByteArray("\x80\x04\x8f.") << "unsupported opcode EMPTY_SET";
    QTest::newRow("NEXT_BUFFER") << QByteArray("\x80\x05\x97.") << "unsupported opcode NEXT_BUFFER";
    QTest::newRow("unknown byte") << QByteArray("\x80\x04\xff.") << "not a pickle opcode (opcode byte (0xff) at byte 2)";
    QTest::newRow("no PROTO") << QByteArray("N.") << "does not start with PROTO";
    QTest::newRow("protocol 1") << QByteArray("\x80\x01N.") << "pickle protocol 1";
    QTest::newRow("protocol 6") << QByteArray("\x80\x06N.") << "pickle protocol 6";
    QTest::newRow("empty") << QByteArray() << "the data is empty";
}

void TestPickle::rejectsUnsupportedAndUnknownOpcodes() {
    QFETCH(QByteArray, data);
    QFETCH(QString, expected);
    const QString message = errorOf(data.toStdString());
    QVERIFY2(message.contains(expected), qPrintable(message));
}

void TestPickle::rejectsDeepNesting() {
    // 200 nested lists: EMPTY_LIST x200, then APPEND x199 puts each inside the one below it.
    const std::string deep = "\x80\x04" + std::string(200, ']') + std::string(199, 'a') + ".";
    QVERIFY(errorOf(deep).contains("nested deeper than 128 levels"));
    // Within the limit it parses, and the depth is exact.
    const Document ok = parse("\x80\x04" + std::string(100, ']') + std::string(99, 'a') + ".");
    QCOMPARE(ok.depth(ok.root()), std::uint32_t{100});
    Limits tight;
    tight.maxDepth = 4;
    QVERIFY(errorOf("\x80\x04" + std::string(5, ']') + std::string(4, 'a') + ".", tight).contains("deeper than 4"));
    // Deep MARK nesting is bounded too.
    Limits fewMarks;
    fewMarks.maxMarks = 100;
    QVERIFY(errorOf("\x80\x04" + std::string(1000, '(') + ".", fewMarks).contains("open MARKs"));
}

void TestPickle::rejectsHugeDeclaredLengths_data() {
    QTest::addColumn<QByteArray>("data");
    auto row = [](const char* tag, const std::string& d) {
        QTest::newRow(tag) << QByteArray(d.data(), static_cast<qsizetype>(d.size()));
    };
    row("BINUNICODE8 2^63", "\x80\x04\x8d" + u64(1ull << 63) + "abc.");
    row("BINBYTES8 2^64-1", "\x80\x04\x8e" + u64(~0ull) + "abc.");
    row("BYTEARRAY8 2^40", "\x80\x05\x96" + u64(1ull << 40) + "abc.");
    row("BINUNICODE 4 GiB", "\x80\x04X" + u32(0xffffffffu) + "abc.");
    row("BINBYTES 4 GiB", "\x80\x04"
                          "B" +
                              u32(0xffffffffu) + "abc.");
    row("SHORT_BINUNICODE 200", "\x80\x04\x8c\xc8"
                                "abc.");
    row("FRAME 2^62", "\x80\x04\x95" + u64(1ull << 62) + "N.");
    row("LONG4 2^31-1", "\x80\x04\x8b" + u32(0x7fffffffu) + "\x01.");
}

void TestPickle::rejectsHugeDeclaredLengths() {
    QFETCH(QByteArray, data);
    const QString message = errorOf(data.toStdString());
    QVERIFY2(message.contains("the data ends early") || message.contains("bytes follow") ||
                 message.contains("(limit 4294967295)"),
             qPrintable(message));
    QVERIFY2(message.contains("at byte 2"), qPrintable(message));
}

void TestPickle::rejectsMalformedStructure_data() {
    QTest::addColumn<QByteArray>("data");
    QTest::addColumn<QString>("expected");
    auto row = [](const char* tag, const std::string& d, const char* expected) {
        QTest::newRow(tag) << QByteArray(d.data(), static_cast<qsizetype>(d.size())) << QString(expected);
    };
    row("list inside itself",
        s("\x80\x04]\x94h\x00"
          "a.",
          8),
        "placed inside itself");
    row("changed after placed",
        s("\x80\x04]\x94]\x94"
          "ah\x01N"
          "a.",
          12),
        "changes a container after it was placed");
    row("APPEND on empty stack",
        "\x80\x04"
        "a.",
        "the stack is empty");
    row("APPEND to a dict", "\x80\x04}Na.", "expected a list");
    row("SETITEMS without MARK", "\x80\x04}NNu.", "no MARK");
    row("SETITEMS odd items", "\x80\x04}(NNNu.", "odd number");
    row("list as dict key", "\x80\x04}]Ns.", "unhashable");
    row("TUPLE3 short", "\x80\x04N\x87.", "fewer than 3");
    row("APPEND below MARK", "\x80\x04N(a.", "below the last MARK");
    row("STOP with two values", "\x80\x04NN.", "2 values on the stack");
    row("STOP inside MARK", "\x80\x04(N.", "STOP inside an open MARK");
    row("no STOP", "\x80\x04N", "ends before STOP");
    row("memo miss", "\x80\x04h\x05.", "memo entry 5 was never stored");
    row("bad UTF-8", s("\x80\x04\x8c\x02\xc3\x28.", 7), "not valid UTF-8");
    row("negative LONG4 length", "\x80\x04\x8b" + u32(0xfffffffeu) + ".", "negative length");
}

void TestPickle::rejectsMalformedStructure() {
    QFETCH(QByteArray, data);
    QFETCH(QString, expected);
    const QString message = errorOf(data.toStdString());
    QVERIFY2(message.contains(expected), qPrintable(message));
}

void TestPickle::sparseMemoIndexesStayCheap() {
    // LONG_BINPUT 4e9 in a 20-byte file must not allocate a 4e9-entry table.
    const std::string data = "\x80\x04N"
                             "r" +
                             u32(0xfffffff0u) +
                             "0]"
                             "j" +
                             u32(0xfffffff0u) + "a.";
    const Document doc = parse(data);
    QCOMPARE(QString::fromStdString(debugString(doc, doc.root())), QStringLiteral("[None]"));
    // Far-apart indexes keep working.
    std::string many = "\x80\x04]";
    for (std::uint32_t i = 0; i < 50; ++i) many += "\x88r" + u32(i * 300000000u) + "a";
    many += "j" + u32(49u * 300000000u) + "a.";
    const Document manyDoc = parse(many);
    QCOMPARE(manyDoc.size(manyDoc.root()), std::size_t{51});
}

void TestPickle::enforcesLimits() {
    const std::string tenNones = "\x80\x04](" + std::string(10, 'N') + "e.";
    Limits fewValues;
    fewValues.maxValues = 5;
    QVERIFY(errorOf(tenNones, fewValues).contains("more than 5 values"));
    Limits fewItems;
    fewItems.maxContainerItems = 9;
    QVERIFY(errorOf(tenNones, fewItems).contains("more than 9 items"));
    Limits shortStrings;
    shortStrings.maxStringBytes = 3;
    QVERIFY(errorOf("\x80\x04\x8c\x05hello.", shortStrings).contains("a string of 5 bytes"));
    QVERIFY(errorOf(tenNones).isEmpty());
}

void TestPickle::rejectsTruncationAtEveryByte() {
    for (const char* name : {"python_protocol2.pickle", "python_protocol4.pickle", "hand_frame_protocol4.pickle"}) {
        const std::string full = bytesOf(dir_.filePath(name));
        QVERIFY(full.size() > 50);
        for (std::size_t n = 0; n < full.size(); ++n) {
            bool rejected = false;
            try {
                parse(full.substr(0, n));
            } catch (const PickleError&) {
                rejected = true;
            }
            QVERIFY2(rejected, qPrintable(QString("%1 cut at byte %2 was accepted").arg(name).arg(n)));
        }
        QVERIFY(errorOf(full).isEmpty());
    }
}

void TestPickle::survivesRandomCorruption() {
    // Any corruption either still parses or is a PickleError; nothing else escapes.
    const std::string full = bytesOf(dir_.filePath("python_protocol4.pickle"));
    std::mt19937 rng(1234);
    int rejected = 0;
    for (int round = 0; round < 3000; ++round) {
        std::string bad = full;
        const int flips = 1 + static_cast<int>(rng() % 4);
        for (int i = 0; i < flips; ++i) bad[rng() % bad.size()] = static_cast<char>(rng() & 0xff);
        try {
            parse(bad);
        } catch (const PickleError&) {
            ++rejected;
        }
    }
    QVERIFY(rejected > 1000);
}

QTEST_GUILESS_MAIN(TestPickle)
#include "tst_pickle.moc"

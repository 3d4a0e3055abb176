// SPDX-License-Identifier: MIT
// Decompression bombs and absurd sizes (issue 11): a gzip or zstd stream that expands past the
// ceiling (held whole: 64 times the file, at least 1 MiB; any: 32 GiB; configurable), pickle lengths of
// 2^60, nesting 100,000 deep in pickles and JSON, heaptrack indices of 2^63. Each stops with a
// clear error; where memory could grow, the test checks how far reading went (the bytes decoded
// never pass the ceiling), which bounds both memory and time.
#include <QtTest>

#include "Compression.h"
#include "TestSupport.h"
#include "core/Errors.h"
#include "core/Progress.h"
#include "formats/FormatRegistry.h"
#include "io/InputFile.h"
#include "io/ReadAhead.h"
#include "pickle/PickleReader.h"
#include "store/Database.h"

using namespace memviz;

namespace {

struct Attempt {
    bool imported = false;
    std::string error;
};

Attempt importBytes(const QTemporaryDir& dir, const QString& name, const QByteArray& content, const std::string& format) {
    const QString path = test::writeFile(dir, name, content);
    Database db(dir.filePath(name + ".memviz").toStdString());
    Attempt a;
    try {
        importFile(db, path.toStdString(), Progress{}, format);
        a.imported = true;
    } catch (const ImportError& e) {
        a.error = e.what();
    }
    return a;
}

} // namespace

class TestBombs : public QObject {
    Q_OBJECT

private slots:
    // Decompression bombs. Data held in memory whole may expand to 64 times the file (at least
    // 1 MiB); reading stops one byte past that with a message naming it, so memory and time
    // are bounded by it. Streamed data may expand to 32 GiB.
    void gzipBomb() {
        QTemporaryDir dir;
        const QByteArray bomb = test::gzipped(QByteArray(64 << 20, '\0')); // about 1000:1
        const QString path = test::writeFile(dir, "bomb.pickle.gz", bomb);
        const std::int64_t expectedCeiling = std::max<std::int64_t>(64 * bomb.size(), 1 << 20);
        QVERIFY(expectedCeiling > 1 << 20); // the ratio, not the floor
        InputFile in(path.toStdString());
        QCOMPARE(in.decompressionCeiling(), std::int64_t{32} << 30); // streamed
        try {
            in.readAll(std::size_t{1} << 30);
            QFAIL("a 64 MiB gzip bomb was read whole");
        } catch (const ImportError& e) {
            QVERIFY2(QString(e.what()).contains("expands past " + QString::number(expectedCeiling) +
                                                " bytes (64 times the file's " + QString::number(bomb.size()) + " bytes"),
                     e.what());
        }
        QCOMPARE(in.decompressionCeiling(), expectedCeiling);
        QVERIFY(in.dataOffset() <= expectedCeiling + 1);
        // As an import of a format held whole (a snapshot pickle): refused with that message.
        const Attempt a = importBytes(dir, "bomb2.pickle.gz", bomb, "pytorch-cuda-snapshot");
        QVERIFY(!a.imported);
        QVERIFY2(QString::fromStdString(a.error).contains("decompression bombs"), a.error.c_str());
    }

    // A real heaptrack recording of a malloc/free loop expands thousands of times (4,700 times
    // measured with heaptrack 1.4 on a 2M-iteration loop): streamed formats must not be held
    // to the ratio. Built here the same way: one allocation info, then + and - 200,000 times.
    void compressibleStreamedFileImports() {
        QTemporaryDir dir;
        QByteArray text = "v 10400 3\ns 4 main\ni 1000 0 1\nt 1 0\na 40 1\n";
        text += QByteArray("+ 0\n- 0\n").repeated(200000);
        const QByteArray zst = test::zstded(text);
        QVERIFY2(text.size() > 64 * zst.size(), qPrintable(QString::number(text.size() / zst.size())));
        const Attempt a = importBytes(dir, "heaptrack.loop.zst", zst, "heaptrack");
        QVERIFY2(a.imported, a.error.c_str());
    }

    // ReadAhead (the heaptrack import decompresses on a second thread) hands out the file's
    // bytes in order and its errors where they happen: the text written here, then for a cut-off
    // stream the "truncated" error, for a bomb the ceiling's.
    void readAheadSameBytesAndErrors() {
        QTemporaryDir dir;
        QByteArray text;
        for (int i = 0; i < 200000; ++i) text += "+ " + QByteArray::number(i * 7919 % 100003, 16) + "\n";
        const QByteArray zst = test::zstded(text);
        const auto readAll = [](ReadAhead& ahead, QByteArray& out) {
            std::vector<char> buf(10007); // not a multiple of the block
            for (std::size_t n; (n = ahead.read(buf.data(), buf.size() - out.size() % 3)) > 0;)
                out.append(buf.data(), static_cast<qsizetype>(n));
        };
        {
            InputFile in(test::writeFile(dir, "whole.zst", zst).toStdString());
            ReadAhead ahead(in, 4096, 3);
            QByteArray got;
            readAll(ahead, got);
            QCOMPARE(got, text);
            QCOMPARE(ahead.fileOffset(), std::int64_t{zst.size()});
        }
        {
            InputFile in(test::writeFile(dir, "cut.zst", zst.left(zst.size() / 2)).toStdString());
            ReadAhead ahead(in, 4096, 3);
            QByteArray got;
            try {
                readAll(ahead, got);
                QFAIL("a cut-off stream read to its end");
            } catch (const ImportError& e) {
                QVERIFY2(QString(e.what()).contains("truncated zstd stream"), e.what());
            }
            QVERIFY(got.size() > 0 && text.startsWith(got));
        }
        InputFile::setDecompressionLimits({64, 1 << 20, 1 << 20});
        {
            InputFile in(test::writeFile(dir, "bomb.zst", test::zstded(QByteArray(4 << 20, 'a'))).toStdString());
            ReadAhead ahead(in, 65536, 2);
            QByteArray got;
            QVERIFY_THROWS_EXCEPTION(ImportError, readAll(ahead, got));
            QVERIFY(got.size() <= (1 << 20) + 1);
        }
        InputFile::resetDecompressionLimits();
        // Stopped early (an import's error): the thread ends with it.
        {
            InputFile in(test::writeFile(dir, "early.zst", zst).toStdString());
            ReadAhead ahead(in, 4096, 2);
            char c;
            QCOMPARE(ahead.read(&c, 1), std::size_t{1});
            QCOMPARE(c, text[0]);
        }
    }

    void zstdBombAndTheCeilings() {
        QTemporaryDir dir;
        const QByteArray bomb = test::zstded(QByteArray(64 << 20, 'a'));
        QVERIFY(bomb.size() < 16 << 10); // so the ratio gives less than the 1 MiB floor
        const QString path = test::writeFile(dir, "bomb.zst", bomb);
        {
            InputFile in(path.toStdString());
            QVERIFY_THROWS_EXCEPTION(ImportError, in.readAll(std::size_t{1} << 30));
            QCOMPARE(in.decompressionCeiling(), std::int64_t{1} << 20);
            QVERIFY(in.dataOffset() <= (1 << 20) + 1);
        }
        // Configurable: an absolute ceiling of 8 MiB stops a stream too ...
        InputFile::setDecompressionLimits({64, 1 << 20, 8 << 20});
        {
            InputFile in(path.toStdString());
            QCOMPARE(in.decompressionCeiling(), std::int64_t{8} << 20);
            std::vector<char> buf(1 << 20);
            try {
                while (in.read(buf.data(), buf.size()) > 0) {}
                QFAIL("read past the absolute ceiling");
            } catch (const ImportError& e) {
                QVERIFY2(QString(e.what()).contains("expands past 8388608 bytes,"), e.what());
            }
            QVERIFY(in.dataOffset() <= (8 << 20) + 1);
        }
        // ... no ratio and one above the data: all of it, held whole.
        InputFile::setDecompressionLimits({0, 1 << 20, 128 << 20});
        {
            InputFile in(path.toStdString());
            QCOMPARE(in.readAll(std::size_t{1} << 30).size(), std::size_t{64} << 20);
        }
        InputFile::resetDecompressionLimits();
        // The environment, read when a file is opened.
        qputenv("MEMVIZ_DECOMPRESSION_RATIO", "1000");
        qputenv("MEMVIZ_DECOMPRESSION_LIMIT", "1500K");
        {
            InputFile in(path.toStdString());
            QCOMPARE(in.decompressionCeiling(), std::int64_t{1500} << 10);
            in.holdWhole();
            QCOMPARE(in.decompressionCeiling(),
                     std::min<std::int64_t>(1500 << 10, std::max<std::int64_t>(1000 * bomb.size(), 1 << 20)));
        }
        qputenv("MEMVIZ_DECOMPRESSION_LIMIT", "1T");
        {
            InputFile in(path.toStdString());
            QCOMPARE(in.decompressionCeiling(), std::int64_t{1} << 40);
            in.holdWhole();
            QCOMPARE(in.decompressionCeiling(), std::max<std::int64_t>(1000 * bomb.size(), 1 << 20));
        }
        qunsetenv("MEMVIZ_DECOMPRESSION_RATIO");
        qunsetenv("MEMVIZ_DECOMPRESSION_LIMIT");
        // Plain files have no ceiling of their own (their size is their size).
        InputFile plain(test::writeFile(dir, "plain.txt", "abc").toStdString());
        QCOMPARE(plain.decompressionCeiling(), std::int64_t{0});
    }

    // Absurd lengths in a pickle: refused before anything is allocated for them.
    void pickleAbsurdLengths_data() {
        QTest::addColumn<QByteArray>("data");
        QTest::addColumn<QString>("expected");
        const auto le64 = [](std::uint64_t v) {
            QByteArray b(8, '\0');
            for (int i = 0; i < 8; ++i) b[i] = static_cast<char>(v >> (8 * i));
            return b;
        };
        QTest::newRow("BINBYTES8 2^60") << QByteArray("\x80\x04\x8e", 3) + le64(1ull << 60) + "abc."
                                        << "a string of 1152921504606846976 bytes (limit 4294967295) (opcode BINBYTES8";
        QTest::newRow("BINUNICODE8 2^60") << QByteArray("\x80\x04\x8d", 3) + le64(1ull << 60) + "abc."
                                          << "a string of 1152921504606846976 bytes (limit 4294967295) (opcode BINUNICODE8";
        QTest::newRow("BINBYTES8 2^64-1") << QByteArray("\x80\x04\x8e", 3) + le64(~0ull) + "."
                                          << "a string of 18446744073709551615 bytes";
        QTest::newRow("FRAME 2^60") << QByteArray("\x80\x04\x95", 3) + le64(1ull << 60) + "N."
                                    << "a frame of 1152921504606846976 bytes, but only 2 bytes follow";
        QTest::newRow("BINUNICODE8 past the end") << QByteArray("\x80\x04\x8d", 3) + le64(1000) + "abc."
                                                  << "the data ends early: the opcode needs 1000 more bytes, 4 are left";
    }
    void pickleAbsurdLengths() {
        QFETCH(QByteArray, data);
        QFETCH(QString, expected);
        try {
            pickle::parse(data.toStdString());
            QFAIL("accepted");
        } catch (const pickle::PickleError& e) {
            QVERIFY2(QString(e.what()).contains(expected), e.what());
        }
        // Through the snapshot importer: the same message, nothing stored.
        QTemporaryDir dir;
        const Attempt a = importBytes(dir, "s.pickle", data, "pytorch-cuda-snapshot");
        QVERIFY(!a.imported);
        QVERIFY2(QString::fromStdString(a.error).contains(expected), a.error.c_str());
    }

    // Nesting 100,000 deep: the pickle depth limit (128), and every JSON reader.
    void pickleDeepNesting_data() {
        QTest::addColumn<QByteArray>("data");
        // EMPTY_LIST 100000 times, then APPEND 99999 times.
        QTest::newRow("APPEND") << QByteArray("\x80\x04", 2) + QByteArray(100000, ']') + QByteArray(99999, 'a') + ".";
        // MARK ... LIST, nested.
        QTest::newRow("MARK LIST") << QByteArray("\x80\x04", 2) + QByteArray(100000, '(') + QByteArray(100000, 'l') + ".";
        // A tuple of a tuple of ...
        QTest::newRow("TUPLE1") << QByteArray("\x80\x04N", 3) + QByteArray(100000, '\x85') + ".";
    }
    void pickleDeepNesting() {
        QFETCH(QByteArray, data);
        try {
            pickle::parse(data.toStdString());
            QFAIL("accepted");
        } catch (const pickle::PickleError& e) {
            QVERIFY2(QString(e.what()).contains("containers nested deeper than 128 levels (limit)"), e.what());
        }
    }

    void jsonDeepNesting_data() {
        QTest::addColumn<QString>("format");
        QTest::addColumn<QByteArray>("data");
        QTest::addColumn<QString>("expected");
        const QByteArray open(100000, '['), close(100000, ']');
        QTest::newRow("profiler trace, in an event's args")
            << "pytorch-profiler"
            << R"({"traceEvents": [{"ph": "X", "cat": "cpu_op", "name": "a", "ts": 1, "args": {"Input Dims": )" + open + close +
                   "}}]}"
            << "nested deeper than 1024 levels";
        QTest::newRow("profiler trace, a top-level member")
            << "pytorch-profiler"
            << R"({"deviceProperties": )" + open + close + R"(, "traceEvents": []})"
            << "nested deeper than 1024 levels";
        QTest::newRow("memory timeline") << "pytorch-memory-timeline" << open + close
                                         << "times[0]: expected an integer"; // its first list holds a list
        QTest::newRow("allocation log, JSON Lines")
            << "memviz-alloc-log"
            << R"({"memviz_alloc_log": 1, "time_unit": "ns", "x": )" + open + close + "}\n"
            << "line 1 (byte 0): JSON nested deeper than 1024 levels";
    }
    void jsonDeepNesting() {
        QFETCH(QString, format);
        QFETCH(QByteArray, data);
        QFETCH(QString, expected);
        QTemporaryDir dir;
        const Attempt a = importBytes(dir, "deep.json", data, format.toStdString());
        QVERIFY(!a.imported);
        QVERIFY2(QString::fromStdString(a.error).contains("deep.json"), a.error.c_str());
        QVERIFY2(QString::fromStdString(a.error).contains(expected), a.error.c_str());
    }

    // heaptrack indices of 2^63 and 2^64 - 1: named, never used to index anything.
    void heaptrackAbsurdIndices_data() {
        QTest::addColumn<QByteArray>("lines");
        QTest::addColumn<QString>("expected");
        const QByteArray head = "v 10400 3\ns 6 malloc\ni 1000 0 0\nt 1 0\na 10 1\n";
        QTest::newRow("+ 2^63") << head + "+ 8000000000000000\n"
                                << "line 6 (byte 45), `+` record: allocation info index 8000000000000000 is not defined (1 "
                                   "allocation infos defined so far)";
        QTest::newRow("- 2^64-1") << head + "- ffffffffffffffff\n"
                                  << "allocation info index ffffffffffffffff is not defined";
        QTest::newRow("t ip 2^63") << head + "t 8000000000000000 0\n"
                                   << "ip index 8000000000000000 is not defined";
        QTest::newRow("t parent 2^63") << head + "t 1 8000000000000000\n"
                                       << "parent index 8000000000000000 is not defined";
        QTest::newRow("a trace 2^63") << head + "a 10 8000000000000000\n"
                                      << "trace index 8000000000000000 is not defined";
        QTest::newRow("a size 2^63") << head + "a 8000000000000000 1\n"
                                     << "field size is out of range";
        QTest::newRow("i module 2^63") << head + "i 2000 8000000000000000\n"
                                       << "module names string 8000000000000000";
        QTest::newRow("string length 2^63") << head + "s 8000000000000000 abc\n"
                                            << "the string is 3 bytes long but its length field says 9223372036854775808";
        QTest::newRow("17 hex digits") << head + "+ 10000000000000000\n"
                                       << "field allocation info index is not a hex number";
    }
    void heaptrackAbsurdIndices() {
        QFETCH(QByteArray, lines);
        QFETCH(QString, expected);
        QTemporaryDir dir;
        const Attempt a = importBytes(dir, "heaptrack.x", lines, "heaptrack");
        QVERIFY(!a.imported);
        QVERIFY2(QString::fromStdString(a.error).contains(expected), a.error.c_str());
    }
};

QTEST_GUILESS_MAIN(TestBombs)
#include "tst_bombs.moc"

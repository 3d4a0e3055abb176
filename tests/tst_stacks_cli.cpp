// SPDX-License-Identifier: MIT
// `memviz stacks` end to end: heaptrack recordings of tests/data/native programs, made at
// test time with the real heaptrack, against heaptrack_print's own flame-graph export
// (`-F FILE --flamegraph-cost-type allocations|temporary|peak|leaked`); the JSON and the
// errors on hand-written allocation logs.
#include <QDir>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QtTest>

#include "NativeToolOutput.h"
#include "TestSupport.h"

using namespace memviz::test;

namespace {

// "frame;frame;frame value" lines summed per stack text. heaptrack_print ends each stack
// with ';' and writes lines with equal text for backtraces that differ only in addresses or
// lines; both sides are summed per text, and zero values dropped.
QHash<QString, qint64> collapsedByStack(const QString& text) {
    QHash<QString, qint64> out;
    for (const QString& line : text.split('\n', Qt::SkipEmptyParts)) {
        const int space = line.lastIndexOf(' ');
        QString stack = line.left(space);
        while (stack.endsWith(';')) stack.chop(1);
        out[stack] += line.mid(space + 1).toLongLong();
    }
    for (auto it = out.begin(); it != out.end();) it = it.value() == 0 ? out.erase(it) : std::next(it);
    return out;
}

// heaptrack_print's -F export lists the frames inlined at one instruction pointer in another
// order than its own backtraces (-p) and the calls do (for libstdc++'s std::vector:
// "_M_allocate;allocator::allocate;allocator_traits::allocate" where the code and -p have
// _M_allocate -> allocator_traits::allocate -> allocator::allocate); memviz keeps -p's order.
// So stacks are compared twice, each time with a key that does not depend on that order:
// the frames as a sorted multiset, and the program's own frames (built without inlining) in
// call order.
QHash<QString, qint64> rekeyed(const QHash<QString, qint64>& byStack, bool programFramesOnly) {
    QHash<QString, qint64> out;
    for (auto it = byStack.cbegin(); it != byStack.cend(); ++it) {
        QStringList frames = it.key().split(';');
        if (programFramesOnly) {
            frames.removeIf([](const QString& f) { return !f.contains("(alloc_patterns."); });
        } else {
            frames.sort();
        }
        out[frames.join(';')] += it.value();
    }
    return out;
}

qint64 sum(const QHash<QString, qint64>& h) {
    qint64 s = 0;
    for (qint64 v : h) s += v;
    return s;
}

const char* kLog = "time_ns,action,address,size,device,op,category,stack\n"
                   "0,alloc,0x10,100,cpu,,,main;load\n"
                   "10,alloc,0x20,200,cpu,,,main;train;forward\n"
                   "20,alloc,0x30,50,cpu,,,main;train;forward\n"
                   "30,free,0x20,,cpu,,,\n"
                   "40,alloc,0x40,400,cpu,,,main;train;backward\n";

} // namespace

class TestStacksCli : public QObject {
    Q_OBJECT
private slots:
    void heaptrackMatchesHeaptrackPrintFlamegraph_data();
    void heaptrackMatchesHeaptrackPrintFlamegraph();
    void heaptrackAllocatedBytesByHand();
    void jsonOfAHandWrittenLog();
    void traceWithoutStacksSaysHowToRecordThem();
    void badOptions();
};

void TestStacksCli::heaptrackMatchesHeaptrackPrintFlamegraph_data() {
    QTest::addColumn<QString>("program");
    QTest::newRow("C: malloc, calloc, realloc, free") << QStringLiteral(MEMVIZ_NATIVE_C);
    QTest::newRow("C++: new, new[], std::vector, delete") << QStringLiteral(MEMVIZ_NATIVE_CPP);
}

void TestStacksCli::heaptrackMatchesHeaptrackPrintFlamegraph() {
    QFETCH(QString, program);
    const QString heaptrack = findTool("heaptrack");
    const QString print = findTool("heaptrack_print");
    if (heaptrack.isEmpty() || print.isEmpty()) MEMVIZ_SKIP_OR_FAIL("heaptrack is not installed (apt install heaptrack)");
    QTemporaryDir dir;
    const QString recording = recordWithHeaptrack(heaptrack, dir, "rec", program);
    QVERIFY(!recording.isEmpty());
    const QString db = dir.filePath("rec.memviz");
    QCOMPARE(runMemviz({"import", recording, "--db", db}).exitCode, 0);

    for (const QString cost : {"allocations", "temporary", "peak", "leaked"}) {
        const QString out = dir.filePath("flame-" + cost);
        runOutput(print, {"--shorten-templates=0", "--flamegraph-cost-type", cost, "-F", out, recording});
        const QHash<QString, qint64> theirs = collapsedByStack(QString::fromUtf8(readFile(out)));
        // heaptrack_print stops a backtrace at main; the "startup" fold preset elides the C
        // runtime's frames above it (_start, __libc_start_main, ...), so the stacks read the same.
        const ProcessResult r = runMemviz({"stacks", db, "--metric", cost, "--fold", "startup", "--format", "collapsed"});
        QVERIFY2(r.exitCode == 0, r.err.constData());
        const QHash<QString, qint64> ours = collapsedByStack(QString::fromUtf8(r.out));
        QCOMPARE(sum(ours), sum(theirs));
        // Every stack through the program's own code, to the byte or call, by both keys.
        int compared = 0;
        for (const bool programFrames : {false, true}) {
            const QHash<QString, qint64> a = rekeyed(ours, programFrames), b = rekeyed(theirs, programFrames);
            for (auto it = b.cbegin(); it != b.cend(); ++it) {
                if (!it.key().contains("(alloc_patterns.")) continue;
                ++compared;
                QVERIFY2(a.contains(it.key()), qPrintable(cost + ": memviz has no stack " + it.key() + "\nmemviz:\n" +
                                                          QStringList(a.keys()).join('\n')));
                QCOMPARE(a.value(it.key()), it.value());
            }
        }
        if (cost == "allocations" || cost == "peak") QVERIFY2(compared >= 2, qPrintable(cost));
        if (cost == "peak") {
            // With every fold preset on (the default), the peak's total stays the same.
            const ProcessResult folded = runMemviz({"stacks", db, "--metric", "peak"});
            QCOMPARE(sum(collapsedByStack(QString::fromUtf8(folded.out))), sum(theirs));
        }
    }
}

// heaptrack_print has no "allocated bytes" cost; the C program's source says what each
// function asks for (tests/data/native/alloc_patterns.c).
void TestStacksCli::heaptrackAllocatedBytesByHand() {
    const QString heaptrack = findTool("heaptrack");
    if (heaptrack.isEmpty()) MEMVIZ_SKIP_OR_FAIL("heaptrack is not installed (apt install heaptrack)");
    QTemporaryDir dir;
    const QString recording = recordWithHeaptrack(heaptrack, dir, "rec", QStringLiteral(MEMVIZ_NATIVE_C));
    QVERIFY(!recording.isEmpty());
    const ProcessResult r = runMemviz({"stacks", recording, "--metric", "allocated"});
    QVERIFY2(r.exitCode == 0, r.err.constData());
    const QHash<QString, qint64> ours = collapsedByStack(QString::fromUtf8(r.out));
    // 32 blocks of 4096 + 64 i: 32 * 4096 + 64 * (0 + ... + 31) = 131072 + 31744.
    QCOMPARE(ours.value("main (alloc_patterns.c);hold_block (alloc_patterns.c)"), 162816);
    // 500 of 48 + i % 16: 24000 + 31 * (0 + ... + 15) + (0 + 1 + 2 + 3) = 24000 + 3720 + 6.
    QCOMPARE(ours.value("main (alloc_patterns.c);churn_temporaries (alloc_patterns.c)"), 27726);
    QCOMPARE(ours.value("main (alloc_patterns.c);peak_buffer (alloc_patterns.c)"), 1 << 20);
    // realloc to 256, 512, ..., 256 * 2^9: 256 * (2^10 - 1).
    QCOMPARE(ours.value("main (alloc_patterns.c);grow_buffer (alloc_patterns.c)"), 261888);
    // 7 of 3000 + 7 i: 21000 + 7 * 21.
    QCOMPARE(ours.value("main (alloc_patterns.c);leak_block (alloc_patterns.c)"), 21147);
    // A range selects allocations by time: the whole run ([0, 10 min]) again, nothing later.
    const ProcessResult all = runMemviz({"stacks", recording, "--metric", "allocated", "--range", "0:600000000000"});
    QCOMPARE(sum(collapsedByStack(QString::fromUtf8(all.out))), sum(ours));
    const ProcessResult none = runMemviz({"stacks", recording, "--metric", "allocated", "--range", "600000000000:700000000000"});
    QCOMPARE(QString::fromUtf8(none.out), QString());
}

void TestStacksCli::jsonOfAHandWrittenLog() {
    QTemporaryDir dir;
    const QString log = writeFile(dir, "log.csv", kLog);
    const ProcessResult r = runMemviz({"stacks", log, "--metric", "allocated", "--format", "json"});
    QVERIFY2(r.exitCode == 0, r.err.constData());
    const QJsonObject o = QJsonDocument::fromJson(r.out).object();
    // Allocated: 100 + 200 + 50 + 400 = 750, main;train = 650, forward 250, backward 400.
    QCOMPARE(o["metric"].toString(), QString("allocated"));
    QCOMPARE(o["unit"].toString(), QString("bytes"));
    QCOMPARE(o["total"].toInteger(), 750);
    const QJsonObject main = o["root"]["children"][0].toObject();
    QCOMPARE(main["function"].toString(), QString("main"));
    QCOMPARE(main["value"].toInteger(), 750);
    QCOMPARE(main["self"].toInteger(), 0);
    const QJsonObject train = main["children"][0].toObject();
    QCOMPARE(train["function"].toString(), QString("train"));
    QCOMPARE(train["value"].toInteger(), 650);
    QCOMPARE(train["children"][0]["function"].toString(), QString("backward"));
    QCOMPARE(train["children"][0]["value"].toInteger(), 400);
    QCOMPARE(train["children"][1]["value"].toInteger(), 250);
    // --range 15:45: 0x30 (50) and 0x40 (400).
    const ProcessResult ranged = runMemviz({"stacks", log, "--metric", "allocated", "--range", "15:45"});
    QCOMPARE(QString::fromUtf8(ranged.out), QString("main;train;backward 400\nmain;train;forward 50\n"));
}

void TestStacksCli::traceWithoutStacksSaysHowToRecordThem() {
    QTemporaryDir dir;
    const QString log = writeFile(dir, "plain.csv", "time_ns,action,address,size\n0,alloc,0x10,100\n");
    const ProcessResult r = runMemviz({"stacks", log});
    QCOMPARE(r.exitCode, 1);
    QVERIFY2(r.out.isEmpty(), r.out.constData());
    QVERIFY2(r.err.contains("no `stack` column"), r.err.constData());
}

void TestStacksCli::badOptions() {
    QTemporaryDir dir;
    const QString log = writeFile(dir, "log.csv", kLog);
    ProcessResult r = runMemviz({"stacks", log, "--metric", "peak"});
    QCOMPARE(r.exitCode, 2);
    QVERIFY2(r.err.contains("alive, allocated"), r.err.constData());
    r = runMemviz({"stacks", log, "--fold", "pyhton"});
    QCOMPARE(r.exitCode, 2);
    QVERIFY2(r.err.contains("unknown fold preset \"pyhton\""), r.err.constData());
    r = runMemviz({"stacks", log, "--format", "svg"});
    QCOMPARE(r.exitCode, 2);
    r = runMemviz({"stacks", log, "--metric", "alive", "--range", "0:10"});
    QCOMPARE(r.exitCode, 2);
    QVERIFY2(r.err.contains("does not follow a time range"), r.err.constData());
}

QTEST_GUILESS_MAIN(TestStacksCli)
#include "tst_stacks_cli.moc"

// SPDX-License-Identifier: MIT
// The massif stack provider against ms_print, on massif recordings of real programs made at
// test time (valgrind --tool=massif, as tst_native_tools does): for every detailed snapshot a
// moment selects, the flame graph's root equals ms_print's useful-heap bytes for that snapshot,
// and the bottom-up tree's first level (where memory was asked for) equals ms_print's top-level
// entries, summed per function and file (the call tree merges the call sites of a function).
#include <QRegularExpression>
#include <QtTest>

#include "NativeToolOutput.h"
#include "TestSupport.h"
#include "core/Progress.h"
#include "formats/FormatRegistry.h"
#include "formats/StackSources.h"
#include "formats/massif/MassifQueries.h"
#include "store/Database.h"
#include "trace/StackTree.h"

using namespace memviz;
using namespace memviz::test;

namespace {

struct MsSnapshot {
    qint64 heap = 0;
    QMap<QString, qint64> topLevel; // "function (file)" or massif's label -> bytes, summed
    bool belowMsPrintThreshold = false; // ms_print folded some top-level entries itself
};

// ms_print's text: the table rows give each snapshot's useful-heap bytes; in a detailed
// snapshot's tree the lines starting with "->" are the root's children, e.g.
// "->66.67% (2,000B) 0x1091A4: main (alloc_patterns.c:21)".
QMap<qint64, MsSnapshot> parseTopLevel(const QString& text) {
    static const QRegularExpression row(R"(^\s*(\d+)\s+([\d,.]+)\s+([\d,]+)\s+([\d,]+)\s+([\d,]+)\s+([\d,]+)\s*$)");
    static const QRegularExpression top(R"(^->\d+\.\d+% \(([\d,]+)B\) (.*)$)");
    static const QRegularExpression site(R"(^0x[0-9A-Fa-f]+: (.*) \((.*):\d+\)$)");
    static const QRegularExpression siteInModule(R"(^0x[0-9A-Fa-f]+: (.*) \(in (.*)\)$)");
    QMap<qint64, MsSnapshot> out;
    qint64 current = -1;
    for (const QString& l : text.split('\n')) {
        if (auto m = row.match(l); m.hasMatch()) {
            current = m.captured(1).toLongLong();
            out[current].heap = uncommify(m.captured(4));
        } else if (auto t = top.match(l); t.hasMatch() && current >= 0) {
            QString label = t.captured(2);
            if (label.contains("below ms_print's threshold")) {
                out[current].belowMsPrintThreshold = true;
                continue;
            }
            if (auto s = site.match(label); s.hasMatch())
                label = s.captured(1) + " (" + QFileInfo(s.captured(2)).fileName() + ")";
            else if (auto s2 = siteInModule.match(label); s2.hasMatch())
                label = s2.captured(1);
            // A 0-byte entry has no box in a flame graph (nothing charged to it): not expected.
            if (const qint64 bytes = uncommify(t.captured(1)); bytes != 0) out[current].topLevel[label] += bytes;
        }
    }
    return out;
}

} // namespace

class TestStacksMassif : public QObject {
    Q_OBJECT
private slots:
    void rootAndLeavesMatchMsPrint_data();
    void rootAndLeavesMatchMsPrint();
};

void TestStacksMassif::rootAndLeavesMatchMsPrint_data() {
    QTest::addColumn<QString>("program");
    QTest::addColumn<QStringList>("options");
    QTest::newRow("C, every snapshot detailed") << QStringLiteral(MEMVIZ_NATIVE_C) << QStringList{"--time-unit=B", "--detailed-freq=1"};
    QTest::newRow("C++, instructions") << QStringLiteral(MEMVIZ_NATIVE_CPP) << QStringList{"--time-unit=i"};
}

void TestStacksMassif::rootAndLeavesMatchMsPrint() {
    QFETCH(QString, program);
    QFETCH(QStringList, options);
    const QString valgrind = findTool("valgrind");
    const QString msPrint = findTool("ms_print");
    if (valgrind.isEmpty() || msPrint.isEmpty()) MEMVIZ_SKIP_OR_FAIL("valgrind is not installed (apt install valgrind)");
    QTemporaryDir dir;
    const QString out = recordWithMassif(valgrind, dir, program, options);
    QVERIFY(QFileInfo::exists(out));
    const QMap<qint64, MsSnapshot> expected = parseTopLevel(runOutput(msPrint, {"--threshold=0", out}));
    QVERIFY(!expected.isEmpty());

    Database db(dir.filePath("s.memviz").toStdString());
    const std::int64_t traceId = importFile(db, out.toStdString(), Progress{});
    const std::vector<MassifSnapshot> snapshots = listMassifSnapshots(db, traceId);
    int checked = 0;
    for (std::size_t i = 0; i < snapshots.size(); ++i) {
        const MassifSnapshot& s = snapshots[i];
        if (!s.detailed()) continue;
        // A moment selects the last detailed snapshot at or before it: skip a snapshot that
        // shares its time with a later detailed one.
        bool shadowed = false;
        for (std::size_t j = i + 1; j < snapshots.size(); ++j) shadowed = shadowed || (snapshots[j].detailed() && snapshots[j].x == s.x);
        if (shadowed) continue;
        QVERIFY2(expected.contains(s.number), qPrintable(QString("ms_print has no snapshot %1").arg(s.number)));
        const MsSnapshot& want = expected[s.number];
        StackRequest request;
        request.at = s.x;
        const StackTree tree = loadStackTree(db, traceId, request);
        const QString where = QString("snapshot %1").arg(s.number);
        QVERIFY2(tree.total() == want.heap, qPrintable(where + QString(": root %1, ms_print %2").arg(tree.total()).arg(want.heap)));
        QVERIFY(!want.belowMsPrintThreshold); // --threshold=0: ms_print folds nothing itself
        const StackTree bottomUp = invertedStackTree(tree);
        QMap<QString, qint64> got;
        for (std::int32_t c : bottomUp.nodes[0].children)
            got[QString::fromStdString(frameLabel(bottomUp.frameAt(c)))] += bottomUp.nodes[static_cast<std::size_t>(c)].inclusive;
        if (got != want.topLevel) {
            QString diff;
            for (auto it = got.cbegin(); it != got.cend(); ++it) diff += "\n  ours: " + it.key() + " " + QString::number(it.value());
            for (auto it = want.topLevel.cbegin(); it != want.topLevel.cend(); ++it)
                diff += "\n  ms_print: " + it.key() + " " + QString::number(it.value());
            QFAIL(qPrintable(where + ": bottom-up first level differs from ms_print's top-level entries" + diff));
        }
        ++checked;
    }
    QVERIFY(checked > 0);
}

QTEST_GUILESS_MAIN(TestStacksMassif)
#include "tst_stacks_massif.moc"

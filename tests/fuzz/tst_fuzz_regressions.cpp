// SPDX-License-Identifier: MIT
// Replays every input the fuzzers found (tests/data/fuzz-regressions/<target>/<input>) through
// its target with the ordinary compiler, in every CI run. Each input has an <input>.expect
// file, written when the finding was fixed: "accepted", or "refused: <part of the message>".
// A crash or a sanitizer report ends the test; a different outcome fails it.
#include <QDir>
#include <QDirIterator>
#include <QFile>
#include <QtTest>

#include "FuzzTargets.h"

using namespace memviz::fuzz;

class TestFuzzRegressions : public QObject {
    Q_OBJECT

private slots:
    void everyTargetIsKnown() {
        // A folder named after no target would never be replayed.
        const QDir root(QStringLiteral(MEMVIZ_FUZZ_REGRESSIONS));
        for (const QString& name : root.entryList(QDir::Dirs | QDir::NoDotAndDotDot))
            QVERIFY2(findTarget(name.toStdString()), qPrintable("no fuzz target named " + name));
    }

    void replay_data() {
        QTest::addColumn<QString>("target");
        QTest::addColumn<QString>("input");
        const QDir root(QStringLiteral(MEMVIZ_FUZZ_REGRESSIONS));
        for (const QString& target : root.entryList(QDir::Dirs | QDir::NoDotAndDotDot)) {
            QDir dir(root.filePath(target));
            for (const QString& input : dir.entryList(QDir::Files, QDir::Name)) {
                if (input.endsWith(".expect")) continue;
                QTest::newRow(qPrintable(target + "/" + input)) << target << dir.filePath(input);
            }
        }
    }

    void replay() {
        QFETCH(QString, target);
        QFETCH(QString, input);
        QFile expectFile(input + ".expect");
        QVERIFY2(expectFile.open(QIODevice::ReadOnly), qPrintable(input + ".expect is missing"));
        const QString expect = QString::fromUtf8(expectFile.readAll()).trimmed();
        QFile f(input);
        QVERIFY(f.open(QIODevice::ReadOnly));
        const QByteArray data = f.readAll();
        const Target* t = findTarget(target.toStdString());
        QVERIFY(t);
        const Outcome o = runGuarded(*t, std::string_view(data.constData(), static_cast<std::size_t>(data.size())));
        const QString message = QString::fromStdString(o.message);
        if (expect == "accepted") {
            QVERIFY2(o.accepted, qPrintable("refused: " + message));
        } else {
            QVERIFY2(expect.startsWith("refused: "), qPrintable("bad .expect: " + expect));
            QVERIFY2(!o.accepted, "accepted, but a refusal was expected");
            QVERIFY2(message.contains(expect.mid(9)), qPrintable(message));
        }
    }
};

QTEST_GUILESS_MAIN(TestFuzzRegressions)
#include "tst_fuzz_regressions.moc"

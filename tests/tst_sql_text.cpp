// SPDX-License-Identifier: MIT
// Issue 11: text a user types or a file holds is plain text, never SQL. memviz builds no SQL
// from text: names go into the store through bound parameters, and the filter boxes match in
// the views (a QSortFilterProxyModel with an escaped pattern), not with LIKE. These tests hold
// that: quotes, `%`, `_` and "'; DROP TABLE x; --" in op names and in the filter box match
// literally, and the store keeps its tables.
#include <QLineEdit>
#include <QSortFilterProxyModel>
#include <QtTest>

#include "MainWindow.h"
#include "TestSupport.h"
#include "WindowTestSetup.h"
#include "core/Progress.h"
#include "store/Database.h"
#include "store/OpsQuery.h"
#include "store/StoreFiles.h"
#include "store/TraceQueries.h"
#include "widgets/OpsView.h"
#include "widgets/TraceSession.h"

using namespace memviz;

namespace {

const char* kInjection = "'; DROP TABLE x; --";

// One allocation per op; every name is a trap for SQL built from text. LIKE would let `_`
// match "gradXscale" and `%` match everything.
const QStringList kNames = {"grad%scale", "grad_scale", "gradXscale", "it's", "say \"hi\"", "'; DROP TABLE traces; --", "plain"};

QByteArray logWithNames() {
    QByteArray s = "time_ns,action,address,size,op\n";
    for (int i = 0; i < kNames.size(); ++i)
        s += QByteArray::number(i * 10) + ",alloc,0x" + QByteArray::number(0x1000 + i * 64, 16) + ",64," + kNames[i].toUtf8() +
             "\n";
    return s;
}

bool tableExists(Database& db, const char* name) {
    Statement s(db, "SELECT count(*) FROM sqlite_master WHERE type = 'table' AND name = ?");
    s.bind(1, name);
    return s.step() && s.int64(0) == 1;
}

} // namespace

class TestSqlText : public QObject {
    Q_OBJECT
private slots:
    void initTestCase();
    void namesAreStoredAsWritten();
    void filterBoxMatchesLiterally_data();
    void filterBoxMatchesLiterally();

private:
    QTemporaryDir dir_;
};

void TestSqlText::initTestCase() {
    startIsolatedWindowSuite("memviz-tests-sql-text");
    QVERIFY(dir_.isValid());
}

// The names reach the store and the ops query unchanged, and no table went missing.
void TestSqlText::namesAreStoredAsWritten() {
    const QString log = test::writeFile(dir_, "names.csv", logWithNames());
    const QString store = dir_.filePath("names.memviz");
    const OpenedTrace t = openTrace(log.toStdString(), store.toStdString(), Progress{});
    Database db(store.toStdString(), Database::Mode::ReadOnly);
    QStringList names;
    for (const OpRow& row : queryOps(db, t.traceId, OpsFilter{})) names << QString::fromStdString(row.name);
    names.sort();
    QStringList expected = kNames;
    expected.sort();
    QCOMPARE(names, expected);
    QVERIFY(tableExists(db, "traces"));
    QCOMPARE(listTraces(db).size(), std::size_t{1});
}

void TestSqlText::filterBoxMatchesLiterally_data() {
    QTest::addColumn<QString>("filter");
    QTest::addColumn<QStringList>("kept"); // worked out by hand from kNames
    QTest::newRow("percent") << "%" << QStringList{"grad%scale"};
    QTest::newRow("underscore") << "_" << QStringList{"grad_scale"};
    QTest::newRow("underscore inside") << "grad_scale" << QStringList{"grad_scale"};
    QTest::newRow("quote") << "'" << QStringList{"it's", "'; DROP TABLE traces; --"};
    QTest::newRow("double quote") << "\"hi\"" << QStringList{"say \"hi\""};
    QTest::newRow("injection") << kInjection << QStringList{};
    QTest::newRow("its own injection") << "'; DROP TABLE traces; --" << QStringList{"'; DROP TABLE traces; --"};
    QTest::newRow("regex characters") << ".*" << QStringList{};
}

// The window's operator table, filtered as a user types.
void TestSqlText::filterBoxMatchesLiterally() {
    QFETCH(QString, filter);
    QFETCH(QStringList, kept);
    MainWindow w;
    w.resize(1280, 800);
    w.openFileBlocking(test::writeFile(dir_, "window.csv", logWithNames()));
    OpsView* ops = w.opsView();
    ops->waitForQuery();
    QCOMPARE(ops->proxy()->sourceModel()->rowCount(), kNames.size());
    ops->filterEdit()->setText(filter);
    QStringList shown;
    for (int r = 0; r < ops->proxy()->rowCount(); ++r) shown << ops->proxy()->index(r, 0).data().toString();
    shown.sort();
    kept.sort();
    QCOMPARE(shown, kept);
    ops->filterEdit()->clear();
    QCOMPARE(ops->proxy()->rowCount(), kNames.size());
    Database db(w.session()->storePath().toStdString(), Database::Mode::ReadOnly);
    QVERIFY(tableExists(db, "traces"));
    QVERIFY(!listTraces(db).empty());
}

QTEST_MAIN(TestSqlText)
#include "tst_sql_text.moc"

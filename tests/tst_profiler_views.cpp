// SPDX-License-Identifier: MIT
// The profiler views: operator rows mark their calls on the timeline, both tables follow the
// selected window, the legend says when allocated bytes are a running sum, and `memviz ops`
// prints key_averages rows per device.
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTableView>
#include <QtTest>
#include <qcustomplot.h>

#include "TestSupport.h"
#include "core/Progress.h"
#include "store/StoreFiles.h"
#include "widgets/CallSpanOverlay.h"
#include "widgets/MemoryEventsModel.h"
#include "widgets/MemoryEventsView.h"
#include "widgets/ProfilerOpsModel.h"
#include "widgets/ProfilerOpsView.h"
#include "widgets/TimelinePlot.h"
#include "widgets/TraceSession.h"

using namespace memviz;

namespace {

// mm [10,40] us and [60,70] us on thread 1; memory on cuda:0 inside them and outside.
const QByteArray kTrace = R"({"traceEvents": [
 {"ph": "X", "cat": "cpu_op", "name": "aten::mm", "pid": 1, "tid": 1, "ts": 1000010, "dur": 30, "args": {"Input Dims": [[2, 3], [3, 4]]}},
 {"ph": "X", "cat": "cpu_op", "name": "aten::mm", "pid": 1, "tid": 1, "ts": 1000060, "dur": 10, "args": {"Input Dims": [[8, 8], [8, 8]]}},
 {"ph": "X", "cat": "cpu_op", "name": "aten::add", "pid": 1, "tid": 1, "ts": 1000000, "dur": 5},
 {"ph": "i", "s": "t", "name": "[memory]", "pid": 1, "tid": 1, "ts": 1000020,
  "args": {"Device Type": 1, "Device Id": 0, "Addr": 16, "Bytes": 100, "Total Allocated": 100, "Total Reserved": 2048}},
 {"ph": "i", "s": "t", "name": "[memory]", "pid": 1, "tid": 1, "ts": 1000065,
  "args": {"Device Type": 1, "Device Id": 0, "Addr": 32, "Bytes": 40, "Total Allocated": 140, "Total Reserved": 2048}},
 {"ph": "i", "s": "t", "name": "[memory]", "pid": 1, "tid": 1, "ts": 1000080,
  "args": {"Device Type": 1, "Device Id": 0, "Addr": 16, "Bytes": -100, "Total Allocated": 40, "Total Reserved": 2048}},
 {"ph": "i", "s": "t", "name": "[memory]", "pid": 1, "tid": 1, "ts": 1000003,
  "args": {"Device Type": 0, "Device Id": -1, "Addr": 48, "Bytes": 8, "Total Allocated": 8, "Total Reserved": 0}}
]})";

} // namespace

class TestProfilerViews : public QObject {
    Q_OBJECT
private slots:
    void initTestCase();
    void selectingAnOperatorMarksItsCalls();
    void callSpansAreReadOffTheGuiThread();
    void anotherOperatorSupersedesTheSpans();
    void tablesFollowTheSelection();
    void opsCommandPrintsKeyAverages();
    void runningSumIsLabelled();

private:
    QTemporaryDir dir_;
    QString trace_;
    QString store_;
    qint64 traceId_ = 0;
};

void TestProfilerViews::initTestCase() {
    trace_ = test::writeFile(dir_, "t.pt.trace.json", kTrace);
    store_ = dir_.filePath("s.memviz");
    traceId_ = openTrace(trace_.toStdString(), store_.toStdString(), Progress{}).traceId;
}

void TestProfilerViews::selectingAnOperatorMarksItsCalls() {
    TraceSession session;
    session.open(store_, traceId_);
    TimelinePlot timeline(&session);
    timeline.resize(900, 400);
    ProfilerOpsView ops(&session);
    ops.waitForQuery();
    QCOMPARE(ops.model()->rowCount(), 3); // aten::mm, aten::add, and [memory] for the free at 80 us
    QCOMPARE(timeline.callSpans()->spanCount(), 0);
    const QAbstractItemModel* m = ops.table()->model();
    int mmRow = -1;
    for (int r = 0; r < m->rowCount(); ++r)
        if (m->index(r, 0).data().toString() == "aten::mm") mmRow = r;
    QVERIFY(mmRow >= 0);
    ops.table()->setCurrentIndex(m->index(mmRow, 0));
    QCOMPARE(session.highlightedOp(), QStringLiteral("aten::mm"));
    timeline.callSpans()->waitForSpans();
    QCOMPARE(timeline.callSpans()->spanCount(), 2); // its two calls, far more than a pixel apart
    ops.table()->setCurrentIndex(QModelIndex());
    QCOMPARE(timeline.callSpans()->spanCount(), 0);
}

// Selecting an operator starts a read on the worker: right after it the band is empty and the
// caption says the calls are being looked up; after wait() both calls are there (kTrace above:
// aten::mm at 10..40 us and 60..70 us).
void TestProfilerViews::callSpansAreReadOffTheGuiThread() {
    TraceSession session;
    session.open(store_, traceId_);
    TimelinePlot timeline(&session);
    timeline.resize(900, 400);
    QApplication::processEvents(); // the plot takes its size: a pixel is ~0.1 us, the calls stay apart
    CallSpanOverlay* overlay = timeline.callSpans();
    QSignalSpy landed(overlay, &CallSpanOverlay::changed);
    session.setHighlightedOp(QStringLiteral("aten::mm"));
    QVERIFY(overlay->isLoading());
    QCOMPARE(overlay->spanCount(), 0);
    QCOMPARE(overlay->caption(), QStringLiteral("calls of aten::mm: looking them up\u2026"));
    QCOMPARE(landed.count(), 0);
    overlay->waitForSpans();
    QVERIFY(!overlay->isLoading());
    QCOMPARE(landed.count(), 1);
    QCOMPARE(overlay->spanCount(), 2);
    QCOMPARE(overlay->caption(), QStringLiteral("calls of aten::mm: 2 in view"));
    // A new range keeps the band shown until the new one lands.
    timeline.plot()->xAxis->setRange(timeline.plot()->xAxis->range().lower, timeline.plot()->xAxis->range().upper * 0.99);
    timeline.refreshNow();
    QCOMPARE(overlay->spanCount(), 2);
    overlay->waitForSpans();
    QCOMPARE(overlay->spanCount(), 2);
}

// aten::mm, then at once aten::add: only aten::add's one call (0..5 us) is ever drawn.
void TestProfilerViews::anotherOperatorSupersedesTheSpans() {
    TraceSession session;
    session.open(store_, traceId_);
    TimelinePlot timeline(&session);
    timeline.resize(900, 400);
    QApplication::processEvents(); // the plot takes its size: a pixel is ~0.1 us, the calls stay apart
    CallSpanOverlay* overlay = timeline.callSpans();
    QSignalSpy landed(overlay, &CallSpanOverlay::changed);
    session.setHighlightedOp(QStringLiteral("aten::mm"));
    session.setHighlightedOp(QStringLiteral("aten::add"));
    QCOMPARE(overlay->caption(), QStringLiteral("calls of aten::add: looking them up\u2026"));
    overlay->waitForSpans();
    QCOMPARE(landed.count(), 1); // aten::mm's result was dropped, not drawn and replaced
    QCOMPARE(overlay->spanCount(), 1);
    QCOMPARE(overlay->caption(), QStringLiteral("calls of aten::add: 1 in view"));
    // Clearing the operator drops a read still running and the band at once.
    session.setHighlightedOp(QStringLiteral("aten::mm"));
    session.setHighlightedOp(QString());
    QCOMPARE(overlay->spanCount(), 0);
    QVERIFY(overlay->caption().isEmpty());
    overlay->waitForSpans();
    QCOMPARE(overlay->spanCount(), 0);
    QCOMPARE(landed.count(), 1);
}

void TestProfilerViews::tablesFollowTheSelection() {
    TraceSession session;
    session.open(store_, traceId_);
    ProfilerOpsView ops(&session);
    MemoryEventsView events(&session);
    ops.waitForQuery();
    events.waitForQuery();
    QCOMPARE(events.model()->rowCount(), 3); // 0x10 paired, 0x20 and the cpu block alive at the end
    // Times from the trace start (1000000 us): the window 50..90 us holds the second mm call.
    session.setSelection(TimeRange{50000, 90000});
    ops.waitForQuery();
    events.waitForQuery();
    QCOMPARE(ops.model()->rowCount(), 2); // the second mm call, and [memory] at 80 us
    for (const auto& row : ops.model()->table().rows) QCOMPARE(row.calls, 1);
    QCOMPARE(events.model()->rowCount(), 1); // allocated at 65 us
    QCOMPARE(events.model()->rows().at(0).size, 40);
    // Group by input shapes: two mm rows over the whole trace.
    session.setSelection(std::nullopt);
    ops.groupByShapes()->setChecked(true);
    ops.waitForQuery();
    QCOMPARE(ops.model()->rowCount(), 4); // mm twice, add, [memory]
    QCOMPARE(ops.model()->headerData(1, Qt::Horizontal).toString(), QStringLiteral("Input Shapes"));
}

void TestProfilerViews::opsCommandPrintsKeyAverages() {
    const auto r = test::runMemviz({"ops", trace_, "--json", "--device", "cuda:0"});
    QVERIFY2(r.exitCode == 0, r.err.constData());
    const QJsonObject o = QJsonDocument::fromJson(r.out).object();
    QCOMPARE(o["semantics"].toString(), QStringLiteral("key_averages"));
    const QJsonArray ops = o["ops"].toArray();
    QCOMPARE(ops.size(), 3);
    const QJsonObject mm = ops[0].toObject(); // largest self cuda:0 memory first
    QCOMPARE(mm["name"].toString(), QStringLiteral("aten::mm"));
    QCOMPARE(mm["calls"].toInteger(), 2);
    const QJsonObject cuda = mm["memory"].toObject()["cuda:0"].toObject();
    QCOMPARE(cuda["mem"].toInteger(), 140);
    QCOMPARE(cuda["allocs"].toInteger(), 2);
    QVERIFY(!mm["memory"].toObject().contains("cpu")); // only the device asked for
    QCOMPARE(ops[1].toObject()["name"].toString(), QStringLiteral("aten::add"));
    const QJsonObject memory = ops[2].toObject();
    QCOMPARE(memory["name"].toString(), QStringLiteral("[memory]"));
    QCOMPARE(memory["memory"].toObject()["cuda:0"].toObject()["self_mem"].toInteger(), -100);
    const auto grouped = test::runMemviz({"ops", trace_, "--json", "--group-by-shapes"});
    const QJsonArray rows = QJsonDocument::fromJson(grouped.out).object()["ops"].toArray();
    QStringList shapes;
    for (const auto& row : rows) shapes << row.toObject()["input_shapes"].toString();
    shapes.sort();
    QCOMPARE(shapes, (QStringList{"", "", "[[2, 3], [3, 4]]", "[[8, 8], [8, 8]]"}));
}

void TestProfilerViews::runningSumIsLabelled() {
    QByteArray old = kTrace;
    old.replace(R"(, "Total Allocated": 100, "Total Reserved": 2048)", "");
    const QString path = test::writeFile(dir_, "old.json", old);
    const OpenedTrace t = openTrace(path.toStdString(), dir_.filePath("o.memviz").toStdString(), Progress{});
    TraceSession session;
    session.open(QString::fromStdString(t.storePath), t.traceId);
    TimelinePlot timeline(&session);
    QStringList names;
    for (int i = 0; i < timeline.plot()->graphCount(); ++i) names << timeline.plot()->graph(i)->name();
    QVERIFY2(names.contains("cuda:0 allocated (running sum of Bytes)"), qPrintable(names.join('|')));
    QVERIFY2(names.contains("cpu"), qPrintable(names.join('|'))); // the cpu events have totals
    QVERIFY2(names.contains("cpu reserved"), qPrintable(names.join('|')));
}

QTEST_MAIN(TestProfilerViews)
#include "tst_profiler_views.moc"

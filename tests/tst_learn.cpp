// SPDX-License-Identifier: MIT
// The Learn mode offscreen: every lesson's numbers against hand calculations, the item models
// under QAbstractItemModelTester, presenter mode and keyboard navigation, the OOM decoder page
// and its lesson links, and exports (files written, non-empty, right magic bytes).
#include <QAbstractItemModelTester>
#include <QApplication>
#include <QComboBox>
#include <QDoubleSpinBox>
#include <QLabel>
#include <QLineEdit>
#include <QListWidget>
#include <QMenuBar>
#include <QPlainTextEdit>
#include <QScrollBar>
#include <QSpinBox>
#include <QStandardItemModel>
#include <QTableView>
#include <QTextBrowser>
#include <QtTest>
#include <qcustomplot.h>

#include "MainWindow.h"
#include "TestSupport.h"
#include "costmodel/Presets.h"
#include "widgets/Export.h"
#include "widgets/OpsView.h"
#include "widgets/TimelinePlot.h"
#include "widgets/learn/BatchSizeLesson.h"
#include "widgets/learn/CheckpointLesson.h"
#include "widgets/learn/DTypeLesson.h"
#include "widgets/learn/FreeingLesson.h"
#include "widgets/learn/LearnWindow.h"
#include "widgets/learn/Lesson.h"
#include "widgets/learn/MixedPrecisionLesson.h"
#include "widgets/learn/ModelLesson.h"
#include "widgets/learn/OomDecoderPage.h"
#include "widgets/learn/OptimizerLesson.h"
#include "widgets/learn/SparseLesson.h"
#include "widgets/learn/TensorSizeLesson.h"
#include "widgets/learn/ViewsLesson.h"
#include "widgets/whatif/BreakdownChart.h"
#include "widgets/whatif/WhatIfPanel.h"
#include <QDockWidget>
#include <QPushButton>

using namespace memviz;

namespace {

// The raw (exported) value of a cell.
QVariant raw(const QAbstractItemModel* m, int row, int column) { return m->data(m->index(row, column), exporting::kExportRole); }

int rowWhere(const QAbstractItemModel* m, int column, const QVariant& value) {
    for (int r = 0; r < m->rowCount(); ++r)
        if (raw(m, r, column) == value) return r;
    return -1;
}

} // namespace

class TestLearn : public QObject {
    Q_OBJECT
private slots:
    void initTestCase();
    void windowListsTheLessons();
    void modelsAreValid();
    void tensorSizeLessonNumbers();
    void viewsLessonNumbers();
    void sparseLessonNumbers();
    void presenterModeScalesAndGoesFullScreen();
    void highContrastRestylesPlots();
    void keyboardMovesBetweenLessons();
    void tablesShowEveryColumn();
    void decoderPageExplainsAndLinks();
    void exportsPlotsInEveryFormat();
    void exportsTablesAsCsv();
    void mainWindowOpensLearn();
    void modelLessonsMatchTheCostModel();
    void lessonsOpenTheirScenarioInWhatIf();
    void mainWindowExportsTimelineAndTables();
};

void TestLearn::initTestCase() {
    QStandardPaths::setTestModeEnabled(true);
    QCoreApplication::setOrganizationName("memviz-tests");
    Q_INIT_RESOURCE(memviz);
}

void TestLearn::windowListsTheLessons() {
    LearnWindow w;
    QStringList ids;
    for (Lesson* l : w.lessons()) ids << l->id();
    for (const char* id : {"tensor-size", "batch-size", "dtype", "optimizers", "checkpointing", "mixed-precision", "views",
                           "sparse", "freeing", "oom-decoder"})
        QVERIFY2(ids.contains(id), id);
    QCOMPARE(ids.size(), 10);
    QCOMPARE(w.lessonList()->count(), int(w.lessons().size()));
    QVERIFY(w.lessonList()->item(0)->text().startsWith("1. "));
    QVERIFY(w.showLesson("sparse"));
    QCOMPARE(w.currentLesson()->id(), QStringLiteral("sparse"));
    QVERIFY(!w.showLesson("no-such-lesson"));
}

void TestLearn::modelsAreValid() {
    LearnWindow w;
    for (Lesson* l : w.lessons())
        for (QTableView* t : l->tables()) {
            QAbstractItemModelTester tester(t->model(), QAbstractItemModelTester::FailureReportingMode::QtTest);
            l->update(); // rebuilding the rows under the tester
            QVERIFY(t->model()->rowCount() > 0);
        }
}

void TestLearn::tensorSizeLessonNumbers() {
    TensorSizeLesson lesson;
    lesson.expressionEdit()->setText("torch.ones((112121, 1, 40, 40))");
    lesson.dtypeCombo()->setCurrentIndex(lesson.dtypeCombo()->findData("float32"));
    const QAbstractItemModel* m = lesson.tableModel();
    const int f32 = rowWhere(m, 0, "float32");
    QVERIFY(f32 >= 0);
    // 112121 * 40 * 40 = 179,393,600 elements * 4 B = 717,574,400 B; / 1e6 = 717.5744; / 2^20 = 684.33...
    QCOMPARE(raw(m, f32, 2).toLongLong(), 717574400LL);
    QCOMPARE(raw(m, f32, 3).toDouble(), 717.5744);
    QCOMPARE(raw(m, f32, 4).toDouble(), 717574400.0 / 1048576.0);
    const int f16 = rowWhere(m, 0, "float16");
    QCOMPARE(raw(m, f16, 2).toLongLong(), 358787200LL);
    const QString label = lesson.resultLabel()->text();
    QVERIFY2(label.contains("179,393,600") && label.contains("717,574,400") && label.contains("717.6 MB") &&
                 label.contains("684.3 MiB"),
             qPrintable(label));
    // A DataLoader batch of 64 of 1x40x40 float32: 64 * 1600 * 4 = 409,600 B = 409.6 kB.
    QVERIFY(label.contains("409.6 kB"));

    lesson.expressionEdit()->setText("torch.randn(100000, 3, 256, 256)");
    QVERIFY(lesson.resultLabel()->text().contains("78.6 GB")); // 78,643,200,000 B
    lesson.expressionEdit()->setText("1000x3x4096x4096");
    QVERIFY(lesson.resultLabel()->text().contains("201.3 GB")); // 201,326,592,000 B
    // A dtype in the text selects it: 2 * 3 * 2 B = 12 bytes.
    lesson.expressionEdit()->setText("torch.zeros(2, 3, dtype=torch.half)");
    QCOMPARE(lesson.dtypeCombo()->currentData().toString(), QStringLiteral("float16"));
    QVERIFY(lesson.resultLabel()->text().contains("<b>12 bytes</b>"));
    lesson.expressionEdit()->setText("no shape here");
    QVERIFY(!lesson.resultLabel()->text().isEmpty());
    QCOMPARE(lesson.plots().first()->plottableCount(), 0);
}

void TestLearn::viewsLessonNumbers() {
    ViewsLesson lesson;
    lesson.rowsSpin()->setValue(1000);
    lesson.colsSpin()->setValue(1000);
    lesson.dtypeCombo()->setCurrentIndex(0);    // float32: x is 4,000,000 B
    lesson.scenarioCombo()->setCurrentIndex(1); // x; y = x[0:10]; del x; z = y.clone(); del y
    const QAbstractItemModel* m = lesson.tableModel();
    QCOMPARE(m->rowCount(), 5);
    QCOMPARE(raw(m, 0, 6).toLongLong(), 4000000LL); // allocated by x
    QCOMPARE(raw(m, 1, 6).toLongLong(), 0LL);       // the slice is a view
    QCOMPARE(raw(m, 2, 8).toLongLong(), 4000000LL); // del x frees nothing: y holds the storage
    QCOMPARE(raw(m, 3, 6).toLongLong(), 40000LL);   // clone of 10 rows: 10 * 1000 * 4
    QCOMPARE(raw(m, 4, 7).toLongLong(), 4000000LL); // del y lets the 4 MB go
    QCOMPARE(raw(m, 4, 8).toLongLong(), 40000LL);
    lesson.scenarioCombo()->setCurrentIndex(0);
    // view(-1) of the transpose fails; reshape copies 4,000,000 B.
    QVERIFY(m->data(m->index(3, 2)).toString().contains("view size is not compatible"));
    QCOMPARE(raw(m, 4, 6).toLongLong(), 4000000LL);
    QCOMPARE(raw(m, 4, 5).toString(), QStringLiteral("new"));
    QCOMPARE(raw(m, 1, 5).toString(), QStringLiteral("shared"));
}

void TestLearn::sparseLessonNumbers() {
    SparseLesson lesson;
    lesson.rowsSpin()->setValue(10000);
    lesson.colsSpin()->setValue(10000);
    lesson.dtypeCombo()->setCurrentIndex(0); // float32
    lesson.densitySpin()->setValue(1.0);
    const QAbstractItemModel* m = lesson.tableModel();
    const int onePercent = rowWhere(m, 0, 0.01);
    QVERIFY(onePercent >= 0);
    // 1e6 non-zeros: COO 1e6 * (2 * 8 + 4) = 20,000,000 B; CSR 10001 * 8 + 1e6 * 12 = 12,080,008 B.
    QCOMPARE(raw(m, onePercent, 1).toLongLong(), 1000000LL);
    QCOMPARE(raw(m, onePercent, 2).toLongLong(), 400000000LL);
    QCOMPARE(raw(m, onePercent, 3).toLongLong(), 20000000LL);
    QCOMPARE(raw(m, onePercent, 4).toLongLong(), 12080008LL);
    QCOMPARE(raw(m, onePercent, 5).toString(), QStringLiteral("CSR"));
    // The break-even row: 4 / 20 = 20%, where COO equals dense.
    const int even = rowWhere(m, 0, 0.2);
    QVERIFY(even >= 0);
    QCOMPARE(raw(m, even, 3).toLongLong(), 400000000LL);
    QVERIFY(lesson.resultLabel()->text().contains("<b>20%</b>"));
    // float64: 8 / 24 = 33.33%.
    lesson.dtypeCombo()->setCurrentIndex(1);
    QVERIFY(lesson.resultLabel()->text().contains("<b>33.33%</b>"));
    QCOMPARE(lesson.plots().first()->graphCount(), 3);
}

void TestLearn::presenterModeScalesAndGoesFullScreen() {
    LearnWindow w;
    w.show();
    QVERIFY(QTest::qWaitForWindowExposed(&w));
    const double basePoint = QApplication::font().pointSizeF();
    w.presenterAction()->trigger(); // F11
    QVERIFY(w.presenterMode());
    QVERIFY(w.windowState() & Qt::WindowFullScreen);
    QCOMPARE(w.scale(), 1.5);
    QCOMPARE(w.font().pointSizeF(), basePoint * 1.5);
    QCOMPARE(w.currentLesson()->font().pointSizeF(), basePoint * 1.5);
    QCustomPlot* plot = w.currentLesson()->plots().first();
    QCOMPARE(plot->xAxis->tickLabelFont().pointSizeF(), basePoint * 1.5);
    w.setScale(2.5); // clamped to x2
    QCOMPARE(w.scale(), 2.0);
    w.presenterAction()->trigger();
    QVERIFY(!w.presenterMode());
    QVERIFY(!(w.windowState() & Qt::WindowFullScreen));
    QCOMPARE(w.scale(), 1.0);
}

void TestLearn::highContrastRestylesPlots() {
    LearnWindow w;
    w.showLesson("sparse");
    w.contrastAction()->trigger();
    QVERIFY(w.highContrast());
    QCOMPARE(w.palette().color(QPalette::Window), QColor(Qt::black));
    QCOMPARE(w.palette().color(QPalette::WindowText), QColor(Qt::white));
    QCustomPlot* plot = w.currentLesson()->plots().first();
    QCOMPARE(plot->toPixmap(200, 150).toImage().pixelColor(1, 1), QColor(Qt::black));
    QCOMPARE(plot->xAxis->tickLabelColor(), QColor(Qt::white));
    QCOMPARE(plot->graph(0)->pen().color(), w.lessonStyle().series(0));
    w.contrastAction()->trigger();
    QCOMPARE(plot->toPixmap(200, 150).toImage().pixelColor(1, 1), QColor(Qt::white));
}

void TestLearn::keyboardMovesBetweenLessons() {
    LearnWindow w;
    w.show();
    QVERIFY(QTest::qWaitForWindowExposed(&w));
    w.activateWindow();
    QVERIFY(QTest::qWaitForWindowActive(&w));
    w.lessonList()->setFocus();
    QCOMPARE(w.currentIndex(), 0);
    QTest::keyClick(&w, Qt::Key_Right, Qt::AltModifier);
    QCOMPARE(w.currentIndex(), 1);
    QTest::keyClick(&w, Qt::Key_PageDown);
    QCOMPARE(w.currentIndex(), 2);
    QTest::keyClick(&w, Qt::Key_Left, Qt::AltModifier);
    QCOMPARE(w.currentIndex(), 1);
    QTest::keyClick(&w, Qt::Key_PageUp);
    QTest::keyClick(&w, Qt::Key_PageUp); // stays at the first
    QCOMPARE(w.currentIndex(), 0);
    // Ctrl+Shift+D opens the OOM decoder here as in the main window (issue 19).
    QTest::keyClick(&w, Qt::Key_D, Qt::ControlModifier | Qt::ShiftModifier);
    QCOMPARE(w.currentLesson()->id(), QStringLiteral("oom-decoder"));
    w.showLessonAt(0);
    for (int i = 0; i < 20; ++i) w.nextLesson(); // stays at the last
    QCOMPARE(w.currentIndex(), int(w.lessons().size()) - 1);
    QTest::keyClick(&w, Qt::Key_F11);
    QVERIFY(w.presenterMode());
    QTest::keyClick(&w, Qt::Key_F11);
    QVERIFY(!w.presenterMode());
}

void TestLearn::tablesShowEveryColumn() {
    // Issue 19: Lesson 2's tables and the decoder's value column were cut at 1280×800, the GB
    // columns in presenter mode (×1.5 on a larger screen). No table may need scrolling sideways.
    struct Case {
        QSize size;
        double scale;
    };
    for (const Case& c : {Case{{1280, 760}, 1.0}, Case{{1920, 1040}, 1.5}}) {
        LearnWindow w;
        w.resize(c.size);
        w.setScale(c.scale);
        w.show();
        QVERIFY(QTest::qWaitForWindowExposed(&w));
        for (Lesson* lesson : w.lessons()) {
            w.showLesson(lesson->id());
            QTest::qWait(50); // the tables fit once the page has its size (a queued pass)
            for (QTableView* t : lesson->tables())
                QVERIFY2(t->horizontalScrollBar()->maximum() == 0,
                         qPrintable(QStringLiteral("%1 at %2x%3, scale %4: a table scrolls by %5 px")
                                        .arg(lesson->id())
                                        .arg(c.size.width())
                                        .arg(c.size.height())
                                        .arg(c.scale)
                                        .arg(t->horizontalScrollBar()->maximum())));
        }
    }
}

void TestLearn::decoderPageExplainsAndLinks() {
    LearnWindow w;
    OomDecoderPage* page = w.oomDecoder();
    page->setMessage("RuntimeError: [enforce fail at alloc_cpu.cpp:75] err == 0. DefaultCPUAllocator: can't allocate memory: "
                     "you tried to allocate 78643200000 bytes. Error code 12 (Cannot allocate memory)");
    QVERIFY(page->report().message.recognized());
    QVERIFY(page->answer()->toPlainText().contains("[100000, 3, 256, 256] float32"));
    const QAbstractItemModel* facts = page->factsModel();
    QVERIFY(facts->rowCount() >= 2);
    QCOMPARE(facts->data(facts->index(0, 0)).toString(), QStringLiteral("Requested"));
    QCOMPARE(raw(facts, 0, 2).toLongLong(), 78643200000LL);
    // The fix links to the tensor-size lesson.
    QVERIFY(page->answer()->toHtml().contains("lesson:tensor-size"));
    emit page->answer()->anchorClicked(QUrl("lesson:tensor-size"));
    QCOMPARE(w.currentLesson()->id(), QStringLiteral("tensor-size"));
    // Every example is recognized; garbage gets an answer, not a crash.
    for (const QString& example : OomDecoderPage::exampleMessages()) {
        page->setMessage(example);
        QVERIFY2(page->report().message.recognized(), qPrintable(example));
    }
    // With a model chosen, the cost model's fixes are ranked, each linked to its lesson.
    page->setMessage(OomDecoderPage::exampleMessages().at(3)); // CUDA, 10.76 GiB card
    QVERIFY(page->selectModel("resnet18"));
    page->batchSpin()->setValue(64);
    QStringList fixIds;
    for (const OomFix& f : page->report().fixes) fixIds << f.id;
    for (const char* id : {"smaller-batch", "bf16", "mixed-precision", "checkpointing", "lighter-optimizer"})
        QVERIFY2(fixIds.contains(id), id);
    QVERIFY(page->answer()->toHtml().contains("lesson:checkpointing"));
    QVERIFY(page->report().context.startsWith("ResNet-18, batch 64"));
    emit page->answer()->anchorClicked(QUrl("lesson:optimizers"));
    QCOMPARE(w.currentLesson()->id(), QStringLiteral("optimizers"));
    page->selectModel(QString());
    page->setMessage("Killed");
    QVERIFY(!page->report().message.recognized());
    QVERIFY(page->answer()->toPlainText().contains("OOM killer"));
    page->input()->clear();
    QVERIFY(!page->answer()->toPlainText().isEmpty());
}

void TestLearn::exportsPlotsInEveryFormat() {
    QTemporaryDir dir;
    LearnWindow w;
    w.resize(1200, 800);
    w.show();
    QVERIFY(QTest::qWaitForWindowExposed(&w));
    for (Lesson* l : w.lessons())
        for (QCustomPlot* plot : l->plots()) {
            for (const char* ext : {"png", "svg", "pdf"}) {
                const QString path = dir.filePath(l->id() + "." + ext);
                QString error;
                QVERIFY2(exporting::savePlot(plot, path, &error, 800, 500), qPrintable(error));
                const QByteArray bytes = test::readFile(path);
                QVERIFY2(bytes.size() > 200, qPrintable(path));
                if (QByteArray(ext) == "png") QVERIFY(bytes.startsWith("\x89PNG\r\n\x1a\n"));
                if (QByteArray(ext) == "pdf") QVERIFY(bytes.startsWith("%PDF-"));
                if (QByteArray(ext) == "svg") {
                    QVERIFY(bytes.startsWith("<?xml"));
                    QVERIFY(bytes.contains("<svg"));
                }
            }
        }
    QString error;
    QVERIFY(!exporting::savePlot(w.lesson("sparse")->plots().first(), dir.filePath("x.gif"), &error));
    QVERIFY(error.contains(".png"));
}

void TestLearn::exportsTablesAsCsv() {
    QTemporaryDir dir;
    SparseLesson lesson;
    const QString path = dir.filePath("sparse.csv");
    QVERIFY(exporting::saveCsv(lesson.tableModel(), path));
    const QList<QByteArray> lines = test::readFile(path).split('\n');
    QCOMPARE(lines.first().trimmed(), QByteArray("density,non-zeros,dense bytes,COO bytes,CSR bytes,smallest"));
    QCOMPARE(lines.size() - 2, lesson.tableModel()->rowCount()); // CRLF after the last row too
    QVERIFY(lines.at(2).startsWith("0.01,1000000,400000000,20000000,12080008,CSR"));
    // Quoting: commas, quotes and line breaks.
    QStandardItemModel m(1, 2);
    m.setHorizontalHeaderLabels({"a,b", "c"});
    m.setItem(0, 0, new QStandardItem("say \"hi\""));
    m.setItem(0, 1, new QStandardItem("two\nlines"));
    QCOMPARE(exporting::csvText(&m), QStringLiteral("\"a,b\",c\r\n\"say \"\"hi\"\"\",\"two\nlines\"\r\n"));
    QVERIFY(!exporting::saveCsv(&m, dir.filePath("no/such/dir/x.csv")));
}

void TestLearn::mainWindowOpensLearn() {
    MainWindow w;
    QStringList menus;
    for (QAction* a : w.menuBar()->actions()) menus << a->text();
    QVERIFY(menus.contains("&Learn"));
    w.openLearn("views");
    LearnWindow* learn = w.learnWindow();
    QVERIFY(learn->isVisible());
    QCOMPARE(learn->currentLesson()->id(), QStringLiteral("views"));
    w.openLearn("oom-decoder");
    QCOMPARE(learn->currentLesson()->id(), QStringLiteral("oom-decoder"));
    QCOMPARE(w.learnWindow(), learn); // one window
}

namespace {

// The cost model's peak for a preset, computed here independently of the lessons.
qint64 peakOf(const char* preset, costmodel::EstimateOptions o) {
    o.timeline = false;
    return costmodel::estimate(costmodel::resolveModel(costmodel::presetSpec(preset)), o).peakBytes;
}

costmodel::EstimateOptions knobs(std::int64_t batch, costmodel::DeviceKind device) {
    costmodel::EstimateOptions o;
    o.batch = batch;
    o.device = device;
    return o;
}

} // namespace

void TestLearn::modelLessonsMatchTheCostModel() {
    using namespace costmodel;
    {
        BatchSizeLesson l;
        QVERIFY(l.selectModel("resnet18"));
        l.batchSpin()->setValue(8);
        l.deviceCombo()->setCurrentIndex(0); // CPU
        l.maxBatchSpin()->setValue(16);
        const QAbstractItemModel* m = l.tableModel();
        QCOMPARE(m->rowCount(), 5); // 1, 2, 4, 8, 16
        for (int r = 0; r < m->rowCount(); ++r)
            QCOMPARE(raw(m, r, 1).toLongLong(), peakOf("resnet18", knobs(raw(m, r, 0).toLongLong(), DeviceKind::Cpu)));
        QAbstractItemModelTester t1(l.tableModel(), QAbstractItemModelTester::FailureReportingMode::QtTest);
        QAbstractItemModelTester t2(l.tradeOffModel(), QAbstractItemModelTester::FailureReportingMode::QtTest);
        l.update();
        // The largest batch that fits 16 GiB: it fits, one more does not.
        const std::int64_t largest = l.largestBatch();
        QVERIFY(largest > 0);
        QVERIFY(peakOf("resnet18", knobs(largest, DeviceKind::Cpu)) <= (qint64(16) << 30));
        QVERIFY(peakOf("resnet18", knobs(largest + 1, DeviceKind::Cpu)) > (qint64(16) << 30));
    }
    {
        // The column of what does not grow with the batch does not (issue 19), and the
        // gradients alive at the peak are never more than all of them.
        BatchSizeLesson l; // its default: ResNet-50, Adam, CPU
        l.maxBatchSpin()->setValue(32);
        const QAbstractItemModel* m = l.tableModel();
        QCOMPARE(m->rowCount(), 6); // 1, 2, 4, 8, 16, 32
        // 25,557,032 fp32 weights, Adam's two moments and 161 step counts (644 B), BatchNorm
        // running stats (212,904 B): tst_workshop_model spells it out.
        const qint64 stays = 3 * qint64(25'557'032) * 4 + 644 + 212'904;
        for (int r = 0; r < m->rowCount(); ++r) {
            QCOMPARE(raw(m, r, 3).toLongLong(), stays);
            QVERIFY(raw(m, r, 4).toLongLong() <= qint64(25'557'032) * 4);
        }
        QVERIFY(raw(m, 5, 4).toLongLong() < raw(m, 0, 4).toLongLong());
    }
    {
        DTypeLesson l;
        QVERIFY(l.selectModel("resnet18"));
        l.batchSpin()->setValue(16);
        l.deviceCombo()->setCurrentIndex(1); // CUDA
        const QAbstractItemModel* m = l.tableModel();
        const int bf16 = rowWhere(m, 0, "bf16");
        auto o = knobs(16, DeviceKind::Cuda);
        o.dtype = DType::BF16;
        QCOMPARE(raw(m, bf16, 6).toLongLong(), peakOf("resnet18", o));
        // resnet18 has 11,689,512 parameters: 2 bytes each in bf16, 1 in int8.
        QCOMPARE(raw(m, bf16, 5).toLongLong(), 2LL * 11689512);
        QCOMPARE(raw(m, rowWhere(m, 0, "int8"), 5).toLongLong(), 11689512LL);
        QCOMPARE(raw(m, rowWhere(m, 0, "fp16"), 3).toDouble(), 65504.0);
    }
    {
        OptimizerLesson l;
        QVERIFY(l.selectModel("gpt2"));
        l.batchSpin()->setValue(2);
        l.historySpin()->setValue(5);
        const QAbstractItemModel* m = l.tableModel();
        const int adam = rowWhere(m, 0, "adam");
        // GPT-2: 124,439,808 parameters * 2 states * 4 B.
        QCOMPARE(raw(m, adam, 3).toLongLong(), 124439808LL * 8);
        QCOMPARE(raw(m, adam, 2).toDouble(), 16.0);
        QCOMPARE(raw(m, rowWhere(m, 0, "lbfgs"), 2).toDouble(), 4.0 * (2 + 2 + 2 * 5));
        auto o = knobs(2, DeviceKind::Cuda);
        o.optimizer = OptimizerKind::Sgd;
        o.lbfgsHistory = 5;
        QCOMPARE(raw(m, rowWhere(m, 0, "sgd"), 5).toLongLong(), peakOf("gpt2", o));
    }
    {
        CheckpointLesson l;
        QVERIFY(l.selectModel("mlp"));
        l.batchSpin()->setValue(64);
        const QAbstractItemModel* m = l.tableModel();
        const int n = costmodel::resolveModel(costmodel::presetSpec("mlp")).topLevelLayerCount();
        QCOMPARE(m->rowCount(), n);
        QCOMPARE(raw(m, 0, 4).toLongLong(), peakOf("mlp", knobs(64, DeviceKind::Cpu)));
        auto sqrt = knobs(64, DeviceKind::Cpu);
        sqrt.checkpoint.mode = CheckpointMode::Sqrt;
        const int k = int(std::lround(std::sqrt(double(n))));
        QCOMPARE(raw(m, k - 1, 4).toLongLong(), peakOf("mlp", sqrt));
        QCOMPARE(raw(m, k - 1, 2).toInt(), (k - 1) * (n / k));
    }
    {
        MixedPrecisionLesson l;
        QVERIFY(l.selectModel("resnet18"));
        l.maxBatchSpin()->setValue(4);
        const QAbstractItemModel* m = l.tableModel();
        auto o = knobs(4, DeviceKind::Cuda);
        QCOMPARE(raw(m, 2, 1).toLongLong(), peakOf("resnet18", o));
        o.amp = true;
        QCOMPARE(raw(m, 2, 2).toLongLong(), peakOf("resnet18", o));
    }
    {
        FreeingLesson l;
        QVERIFY(l.selectModel("mlp"));
        l.batchSpin()->setValue(32);
        l.evalBatchesSpin()->setValue(3);
        const QAbstractItemModel* m = l.tableModel();
        QCOMPARE(m->rowCount(), 4);
        // no_grad row: the peak without it is a forward with grad, above the inference peak.
        auto inference = knobs(32, DeviceKind::Cuda);
        inference.training = false;
        QCOMPARE(raw(m, 2, 2).toLongLong() - raw(m, 2, 1).toLongLong(), peakOf("mlp", inference));
        for (int r = 0; r < m->rowCount(); ++r) QVERIFY(raw(m, r, 1).toLongLong() >= 0);
    }
}

void TestLearn::lessonsOpenTheirScenarioInWhatIf() {
    MainWindow w;
    w.show();
    w.whatIfDock()->hide();
    w.openLearn("checkpointing");
    LearnWindow* learn = w.learnWindow();
    auto* lesson = qobject_cast<ModelLesson*>(learn->currentLesson());
    QVERIFY(lesson);
    QVERIFY(lesson->selectModel("resnet18"));
    lesson->batchSpin()->setValue(12);
    QVERIFY(lesson->whatIfButton()->isVisible());
    lesson->whatIfButton()->click();
    QVERIFY(w.whatIfDock()->isVisible());
    QCOMPARE(w.whatIfPanel()->options().batch, qint64(12));
    QCOMPARE(w.whatIfPanel()->options().checkpoint.mode, costmodel::CheckpointMode::Sqrt);
    QCOMPARE(w.whatIfPanel()->modelName(), QStringLiteral("ResNet-18"));
    // Every model lesson has a scenario; tensor size has one when a preset takes that shape.
    for (Lesson* l : learn->lessons())
        if (qobject_cast<ModelLesson*>(l)) QVERIFY2(l->whatIfScenario().has_value(), qPrintable(l->id()));
    auto* size = qobject_cast<TensorSizeLesson*>(learn->lesson("tensor-size"));
    size->expressionEdit()->setText("1000x3x4096x4096");
    QVERIFY(size->whatIfButton()->isEnabled());
    QCOMPARE(size->whatIfScenario()->presetId, QStringLiteral("large3dcnn"));
    QCOMPARE(size->whatIfScenario()->options.batch, qint64(1000));
    size->expressionEdit()->setText("torch.ones((112121, 1, 40, 40))");
    QVERIFY(!size->whatIfButton()->isEnabled());
    QVERIFY(!learn->lesson("views")->whatIfScenario());
}

void TestLearn::mainWindowExportsTimelineAndTables() {
    QTemporaryDir dir;
    MainWindow w;
    w.resize(1200, 800);
    w.openFileBlocking(QStringLiteral(MEMVIZ_SOURCE_DIR) + "/resources/sample/sample_training_step.csv.gz");
    w.show();
    QVERIFY(QTest::qWaitForWindowExposed(&w));
    w.timeline()->refreshNow();
    for (const char* ext : {"png", "svg", "pdf"}) {
        const QString path = dir.filePath(QStringLiteral("timeline.") + ext);
        QVERIFY(exporting::savePlot(w.timeline()->plot(), path));
        QVERIFY(QFileInfo(path).size() > 1000);
    }
    QVERIFY(test::readFile(dir.filePath("timeline.svg")).contains("<svg"));
    w.opsView()->waitForQuery();
    const QString csv = exporting::csvText(w.opsView()->table()->model());
    QVERIFY(csv.startsWith("Operator,"));
    QVERIFY(csv.count("\r\n") > 5);
    // The what-if panel's charts have the export menu too.
    QCOMPARE(w.whatIfPanel()->breakdownChart()->findChild<QCustomPlot*>()->contextMenuPolicy(), Qt::CustomContextMenu);
}

QTEST_MAIN(TestLearn)
#include "tst_learn.moc"

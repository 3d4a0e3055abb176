// SPDX-License-Identifier: MIT
// The texts of the window's timeline on real files (issue 52): peak labels, annotations, the
// moment's note ("tabs below: the peak"), region names and notes are placed by the one rule
// (widgets/PlotLabels.h), so their boxes, as drawn, lie inside the plot and never intersect;
// a tiny device gets a note, not a label on another device's curve; heaptrack's RSS, which
// would flatten the heap, starts switched off and says so. Offscreen, on the real window.
#include <QtTest>
#include <qcustomplot.h>

#include "MainWindow.h"
#include "TestSupport.h"
#include "WindowTestSetup.h"
#include "widgets/PlotLabels.h"
#include "widgets/TimelinePlot.h"

using namespace memviz;

namespace {

// The drawn box of a text item (QCustomPlot's own anchors, after a replot).
LabelBox drawnBox(QCPItemText* item) {
    const QPointF tl = item->topLeft->pixelPosition(), br = item->bottomRight->pixelPosition();
    return {tl.x(), tl.y(), br.x() - tl.x(), br.y() - tl.y()};
}

QStringList legendNames(QCustomPlot* plot) {
    QStringList names;
    for (int i = 0; i < plot->legend->itemCount(); ++i)
        if (auto* item = qobject_cast<QCPPlottableLegendItem*>(plot->legend->item(i))) names << item->plottable()->name();
    return names;
}

} // namespace

class TestPlotLabelsWindow : public QObject {
    Q_OBJECT
private slots:
    void initTestCase() { startIsolatedWindowSuite("memviz-tests-plot-labels"); }
    void labelsDoNotIntersect_data();
    void labelsDoNotIntersect();
    void heaptrackRssStartsOff();
};

void TestPlotLabelsWindow::labelsDoNotIntersect_data() {
    QTest::addColumn<QString>("relative");
    QTest::addColumn<int>("width");
    for (const int width : {1280, 700}) {
        const QByteArray w = QByteArray::number(width);
        QTest::newRow("snapshot bcrafton " + w) << "pytorch-snapshot/bcrafton_2025.pickle" << width;
        QTest::newRow("snapshot magma27 " + w) << "pytorch-snapshot/magma27_2026.pickle" << width;
        QTest::newRow("kineto 2021 " + w) << "pytorch-profiler/kineto_resnet50_v100_2021.pt.trace.json.gz" << width;
        QTest::newRow("hta 2xv100 " + w) << "pytorch-profiler/hta_2xv100_2022.pt.trace.json.gz" << width;
        QTest::newRow("massif --stacks " + w) << "wild/zenopelli-cpu__Z-Ant__massif.out" << width;
        QTest::newRow("heaptrack " + w) << "wild/toumorokoshi__heaptrack-web-ui__examples__heaptrack.lelouch.88322.zst" << width;
        QTest::newRow("snapshot notHanmin " + w) << "wild/notHanmin__assignment2-systems__memory_snapshot.pickle" << width;
        QTest::newRow("snapshot Wedsonlin " + w)
            << "wild/Wedsonlin__assignment2-systems__results__medium_128_training_memory_snapshot.pickle" << width;
    }
}

void TestPlotLabelsWindow::labelsDoNotIntersect() {
    QFETCH(QString, relative);
    QFETCH(int, width);
    MEMVIZ_REQUIRE_FIXTURE(path, relative);
    MainWindow w;
    w.resize(width, 820);
    w.show();
    QVERIFY(QTest::qWaitForWindowExposed(&w));
    w.openFileBlocking(path);
    w.timeline()->refreshNow();
    QCustomPlot* plot = w.timeline()->plot();
    plot->replot(QCustomPlot::rpImmediateRefresh);
    const auto shown = w.timeline()->plotLabels().shownBoxes();
    QVERIFY2(!shown.empty(), "a peak is labelled");
    const QRect r = plot->axisRect()->rect();
    const LabelBox area{static_cast<double>(r.left()), static_cast<double>(r.top()), static_cast<double>(r.width()),
                        static_cast<double>(r.height())};
    std::vector<LabelBox> boxes;
    for (const auto& [item, placed] : shown) {
        const LabelBox b = drawnBox(item);
        QVERIFY2(b.inside(LabelBox{area.x - 1, area.y - 1, area.w + 2, area.h + 2}),
                 qPrintable(QStringLiteral("\"%1\" at %2,%3 %4x%5 is not inside the plot")
                                .arg(item->text())
                                .arg(b.x)
                                .arg(b.y)
                                .arg(b.w)
                                .arg(b.h)));
        boxes.push_back(b);
    }
    for (std::size_t i = 0; i < boxes.size(); ++i)
        for (std::size_t j = i + 1; j < boxes.size(); ++j)
            QVERIFY2(!boxes[i].intersects(boxes[j]),
                     qPrintable(QStringLiteral("\"%1\" and \"%2\" overlap").arg(shown[i].first->text(), shown[j].first->text())));
}

// heaptrack's RSS (tens of MiB of a process that holds a few of heap) would flatten the heap
// line on their shared axis: it starts off, its legend entry says so, and a click brings it back.
void TestPlotLabelsWindow::heaptrackRssStartsOff() {
    MEMVIZ_REQUIRE_FIXTURE(path, "wild/toumorokoshi__heaptrack-web-ui__examples__heaptrack.lelouch.88322.zst");
    MainWindow w;
    w.resize(1280, 820);
    w.show();
    QVERIFY(QTest::qWaitForWindowExposed(&w));
    w.openFileBlocking(path);
    w.timeline()->refreshNow();
    QCustomPlot* plot = w.timeline()->plot();
    const QStringList names = legendNames(plot);
    bool rssOff = false;
    for (int i = 0; i < plot->graphCount(); ++i)
        if (plot->graph(i)->name().contains(QStringLiteral("click to show"))) rssOff = !plot->graph(i)->visible();
    QVERIFY2(rssOff, qPrintable(names.join(" | ")));
}

QTEST_MAIN(TestPlotLabelsWindow)
#include "tst_plot_labels_window.moc"

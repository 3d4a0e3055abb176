// SPDX-License-Identifier: MIT
// The window's live import preview (widgets/ImportPreview): points fed to it are drawn as step
// lines at their bytes (base + value) and times (from the earliest), the peak so far is named,
// a later exact base moves the whole curve, and the number of points drawn stays bounded.
#include <QLabel>
#include <QtTest>
#include <qcustomplot.h>

#include "widgets/ImportPreview.h"

using namespace memviz;

class TestImportPreviewChart : public QObject {
    Q_OBJECT
private slots:
    void drawsThePointsFedToIt();
    void exactBasesMoveTheCurve();
    void staysBounded();
    void restartAndAxisChangeClear();
};

namespace {

// Points of cuda:0, hand-made: base 1 MiB allocated, 0 reserved; at 1000 µs the base itself,
// at 1500 µs +512 KiB allocated and 2 MiB reserved, at 2000 µs +256 KiB.
PreviewBatch firstBatch() {
    return {"cuda:0", PreviewAxis::TimeUs, 1048576, 0, {{1000, 0, 0}, {1500, 524288, 2097152}, {2000, 262144, 2097152}}};
}

// Pixels close to the allocated line's colour (31, 119, 180).
int bluePixels(const QImage& image) {
    int n = 0;
    for (int y = 0; y < image.height(); ++y)
        for (int x = 0; x < image.width(); ++x) {
            const QColor c = image.pixelColor(x, y);
            n += std::abs(c.red() - 31) < 25 && std::abs(c.green() - 119) < 25 && std::abs(c.blue() - 180) < 25;
        }
    return n;
}

} // namespace

void TestImportPreviewChart::drawsThePointsFedToIt() {
    ImportPreview preview;
    preview.resize(900, 600);
    preview.start("/tmp/big.pickle");
    preview.show();
    QVERIFY(QTest::qWaitForWindowExposed(&preview));
    const QImage before = preview.plot()->toPixmap(800, 400).toImage();
    preview.add(firstBatch());
    preview.redrawNow();
    QCOMPARE(preview.drawnPoints("cuda:0"), 3);
    QCOMPARE(preview.plot()->graphCount(), 2); // allocated and reserved
    QCPGraph* allocated = preview.plot()->graph(0);
    // x: ns from the earliest point (1000 µs); y: base + value.
    const double xs[] = {0, 500000, 1000000}, ys[] = {1048576, 1572864, 1310720};
    for (int i = 0; i < 3; ++i) {
        QCOMPARE(allocated->data()->at(i)->key, xs[i]);
        QCOMPARE(allocated->data()->at(i)->value, ys[i]);
    }
    QCOMPARE(preview.plot()->graph(1)->data()->at(1)->value, 2097152.0);
    QCOMPARE(allocated->lineStyle(), QCPGraph::lsStepLeft);
    QVERIFY2(preview.peakText().contains("cuda:0 – peak so far: 1.50 MiB (now 1.25 MiB allocated, 2.00 MiB reserved)"),
             qPrintable(preview.peakText()));
    QVERIFY(preview.plot()->legend->visible());
    QVERIFY2(preview.plot()->xAxis->label().contains("ms") || preview.plot()->xAxis->label().contains("µs"),
             qPrintable(preview.plot()->xAxis->label()));
    QVERIFY2(preview.plot()->yAxis->label().contains("MiB"), qPrintable(preview.plot()->yAxis->label()));
    const QImage after = preview.plot()->toPixmap(800, 400).toImage();
    QCOMPARE(bluePixels(before), 0);
    QVERIFY2(bluePixels(after) > 200, qPrintable(QString::number(bluePixels(after)))); // the line and its legend icon
    bool noteShown = false;
    for (QLabel* l : preview.findChildren<QLabel*>()) noteShown |= l->text().contains("open when the import ends");
    QVERIFY(noteShown);
}

void TestImportPreviewChart::exactBasesMoveTheCurve() {
    ImportPreview preview;
    preview.add(firstBatch());
    preview.add({"cuda:0", PreviewAxis::TimeUs, 2097152, 1024, {}}); // the importer's exact bases
    preview.redrawNow();
    QCOMPARE(preview.plot()->graph(0)->data()->at(1)->value, 2621440.0);
    QCOMPARE(preview.plot()->graph(1)->data()->at(1)->value, 2098176.0);
    QVERIFY2(preview.peakText().contains("peak so far: 2.50 MiB"), qPrintable(preview.peakText()));
    // Bases of a device that never had points draw nothing.
    preview.add({"cuda:1", PreviewAxis::TimeUs, 5, 5, {}});
    preview.redrawNow();
    QCOMPARE(preview.plot()->graphCount(), 2);
}

void TestImportPreviewChart::staysBounded() {
    ImportPreview preview;
    PreviewBatch b{"cuda:0", PreviewAxis::Index, 0, 0, {}};
    std::int64_t maxSeen = 0;
    for (std::int64_t i = 0; i < 200000; ++i) {
        const std::int64_t v = (i * 7919) % 100003;
        maxSeen = std::max(maxSeen, v);
        b.points.push_back({i, v, 0});
        if (b.points.size() == 64) {
            preview.add(b);
            b.points.clear();
        }
    }
    preview.add(b);
    preview.redrawNow();
    QVERIFY2(preview.drawnPoints("cuda:0") <= 2 * 1024 + 2, qPrintable(QString::number(preview.drawnPoints("cuda:0"))));
    double top = 0;
    for (auto it = preview.plot()->graph(0)->data()->constBegin(); it != preview.plot()->graph(0)->data()->constEnd(); ++it)
        top = std::max(top, it->value);
    QCOMPARE(top, static_cast<double>(maxSeen));
    QVERIFY2(preview.plot()->xAxis->label().startsWith("Event number"), qPrintable(preview.plot()->xAxis->label()));
}

void TestImportPreviewChart::restartAndAxisChangeClear() {
    ImportPreview preview;
    preview.add(firstBatch());
    preview.restart();
    preview.redrawNow();
    QCOMPARE(preview.drawnPoints("cuda:0"), 0);
    QVERIFY(!preview.hasPoints());
    preview.add(firstBatch());
    preview.add({"cuda:0", PreviewAxis::Index, 0, 0, {{5, 10, 0}}}); // entry numbers from here
    preview.redrawNow();
    QCOMPARE(preview.drawnPoints("cuda:0"), 1);
    preview.clear();
    QVERIFY(!preview.hasPoints());
    QCOMPARE(preview.plot()->graphCount(), 0);
    QVERIFY(preview.peakText().isEmpty());
}

QTEST_MAIN(TestImportPreviewChart)
#include "tst_import_preview_chart.moc"

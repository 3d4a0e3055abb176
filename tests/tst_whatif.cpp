// SPDX-License-Identifier: MIT
// The what-if panel offscreen: every knob recomputes (QSignalSpy), the numbers shown are the
// cost model's (and memviz estimate's), the batch slider is logarithmic, specs load or report
// their error, calibration on a memory-timeline export, the dock and its shortcut.
#include <QAction>
#include <QApplication>
#include <QCheckBox>
#include <QComboBox>
#include <QDockWidget>
#include <QJsonDocument>
#include <QJsonObject>
#include <QLabel>
#include <QMenuBar>
#include <QSignalSpy>
#include <QSlider>
#include <QSpinBox>
#include <QJsonArray>
#include <QTemporaryDir>
#include <QStyle>
#include <QStyleOptionComboBox>
#include <QtTest>
#include <qcustomplot.h>

#include "MainWindow.h"
#include "TestSupport.h"
#include "core/Progress.h"
#include "core/SystemMemory.h"
#include "words/Units.h"
#include "costmodel/Presets.h"
#include "costmodel/SpecParser.h"
#include "store/StoreFiles.h"
#include "widgets/TraceSession.h"
#include "widgets/whatif/BreakdownChart.h"
#include "widgets/whatif/MemoryLimitPicker.h"
#include "widgets/whatif/StepTimelineChart.h"
#include "widgets/whatif/WhatIfPanel.h"

using namespace memviz;
using namespace memviz::costmodel;

namespace {

template <typename T>
T* child(QWidget& w, const char* name) {
    T* c = w.findChild<T*>(QString::fromLatin1(name));
    if (!c) qFatal("no child %s", name);
    return c;
}

QString bytes(std::int64_t b) { return QString::fromStdString(formatBytes(static_cast<double>(b))); }

// The panel shows what the cost model computes for the panel's own options.
void checkShownNumbers(WhatIfPanel& panel, const QString& preset) {
    const ResolvedModel model = resolveModel(presetSpec(preset.toStdString()));
    EstimateOptions o = panel.options();
    o.timeline = false;
    const Estimate e = estimate(model, o);
    QCOMPARE(panel.currentEstimate().peakBytes, e.peakBytes);
    QVERIFY2(child<QLabel>(panel, "peakLabel")->text().contains(bytes(e.peakBytes)),
             qPrintable(child<QLabel>(panel, "peakLabel")->text()));
    for (int c = 0; c < kCategoryCount; ++c)
        QCOMPARE(panel.breakdownChart()->value(0, static_cast<Category>(c)),
                 static_cast<double>(e.breakdown[static_cast<std::size_t>(c)]));
    if (const auto limit = panel.limitPicker()->limit()) {
        const std::int64_t best = largestBatchThatFits(model, o, *limit);
        QCOMPARE(panel.largestBatch(), best);
        if (best > 0) QVERIFY(child<QLabel>(panel, "fitLabel")->text().endsWith(QString::number(best)));
        const QString verdict = child<QLabel>(panel, "verdictLabel")->text();
        QVERIFY2(verdict.contains(e.peakBytes <= *limit ? "fits in" : "does not fit"), qPrintable(verdict));
        if (e.peakBytes > *limit) QVERIFY(verdict.contains(bytes(e.peakBytes - *limit)));
    }
}

} // namespace

class TestWhatIf : public QObject {
    Q_OBJECT
private slots:
    void everyKnobRecomputes();
    void batchSliderIsLogarithmic();
    void numbersEqualMemvizEstimate();
    void limitChoices();
    void specsLoadOrExplain();
    void calibratesOnAMemoryTimeline();
    void recomputeIsInstant();
    void dockAndShortcut();
    void textFitsInAShortDock();
    void savedEstimateIsATrace();
};

void TestWhatIf::everyKnobRecomputes() {
    WhatIfPanel panel;
    panel.resize(1400, 800);
    panel.show();
    QVERIFY(panel.selectPreset("resnet18"));
    QVERIFY(panel.limitPicker()->setTypedLimit("8GiB"));
    QSignalSpy spy(&panel, &WhatIfPanel::recomputed);
    int expected = 0;
    auto changed = [&](const char* what) {
        ++expected;
        QVERIFY2(spy.count() == expected, what);
        checkShownNumbers(panel, "resnet18");
    };
    child<QSpinBox>(panel, "batchSpin")->setValue(48);
    changed("batch");
    child<QComboBox>(panel, "dtypeCombo")->setCurrentText("bf16");
    changed("dtype");
    child<QComboBox>(panel, "dtypeCombo")->setCurrentText("fp32");
    changed("dtype back");
    child<QCheckBox>(panel, "ampCheck")->setChecked(true);
    changed("amp");
    child<QComboBox>(panel, "optimizerCombo")->setCurrentText("lbfgs");
    changed("optimizer");
    child<QSpinBox>(panel, "historySpin")->setValue(10);
    changed("history");
    child<QComboBox>(panel, "checkpointCombo")->setCurrentIndex(1); // sqrt
    changed("checkpoint");
    QCOMPARE(panel.options().checkpoint.mode, CheckpointMode::Sqrt);
    child<QComboBox>(panel, "deviceCombo")->setCurrentIndex(1);
    changed("device");
    QCOMPARE(panel.options().device, DeviceKind::Cuda);
    child<QCheckBox>(panel, "contextCheck")->setChecked(true);
    changed("cuda context");
    QCOMPARE(panel.options().cudaContextBytes, 500 * 1024 * 1024);
    child<QCheckBox>(panel, "inferenceCheck")->setChecked(true);
    changed("inference");
    QVERIFY(!child<QComboBox>(panel, "optimizerCombo")->isEnabled());
    panel.limitPicker()->setTypedLimit("100MiB");
    changed("limit");
    QVERIFY(child<QLabel>(panel, "verdictLabel")->text().contains("does not fit"));
    // The projected timeline has a sample per simulated op, drawn stacked.
    QVERIFY(panel.timelineChart()->pointCount() > 10);
}

void TestWhatIf::batchSliderIsLogarithmic() {
    WhatIfPanel panel;
    auto* slider = child<QSlider>(panel, "batchSlider");
    auto* spin = child<QSpinBox>(panel, "batchSpin");
    slider->setValue(70); // 2^(70/10)
    QCOMPARE(spin->value(), 128);
    slider->setValue(0);
    QCOMPARE(spin->value(), 1);
    slider->setValue(slider->maximum());
    QCOMPARE(spin->value(), 1 << 20);
    spin->setValue(1000); // log2(1000) * 10 = 99.66
    QCOMPARE(slider->value(), 100);
    QCOMPARE(panel.options().batch, 1000);
}

void TestWhatIf::numbersEqualMemvizEstimate() {
    WhatIfPanel panel;
    QVERIFY(panel.selectPreset("small-cnn"));
    EstimateOptions o = panel.options();
    o.batch = 64;
    o.optimizer = OptimizerKind::Momentum;
    o.checkpoint = {CheckpointMode::Segments, 2};
    panel.setOptions(o);
    const auto r = test::runMemviz(
        {"estimate", "--model", "small-cnn", "--batch", "64", "--optimizer", "momentum", "--checkpoint", "2", "--json"});
    QVERIFY2(r.exitCode == 0, r.err.constData());
    const QJsonObject j = QJsonDocument::fromJson(r.out).object();
    QCOMPARE(j["peak_bytes"].toInteger(), qint64(panel.currentEstimate().peakBytes));
    QCOMPARE(j["activations_bytes"].toInteger(),
             qint64(panel.currentEstimate().breakdown[static_cast<std::size_t>(Category::Activations)]));
}

void TestWhatIf::limitChoices() {
    MemoryLimitPicker picker;
    QSignalSpy spy(&picker, &MemoryLimitPicker::limitChanged);
    QComboBox* combo = picker.combo();
    if (const auto ram = totalPhysicalMemory()) { // the first entry is this machine's RAM
        QCOMPARE(picker.limit(), ram);
        QVERIFY(combo->itemText(0).contains(bytes(*ram)));
    }
    const int gpu80 = combo->findText("80 GiB GPU (A100 80GB, H100)");
    QVERIFY(gpu80 >= 0);
    picker.selectIndex(gpu80);
    QCOMPARE(picker.limit(), std::int64_t{80} << 30);
    QVERIFY(picker.setTypedLimit("24GB"));
    QCOMPARE(picker.limit(), std::int64_t{24'000'000'000});
    QVERIFY(!picker.setTypedLimit("plenty"));
    QVERIFY(!picker.limit());
    QVERIFY(spy.count() >= 3);
    QTemporaryDir dir;
    const QString meminfo = test::writeFile(dir, "meminfo", "MemFree:  100 kB\nMemTotal:       16318480 kB\n");
    QCOMPARE(totalPhysicalMemory(meminfo.toStdString()), std::int64_t{16318480} * 1024);
    QVERIFY(!totalPhysicalMemory(dir.filePath("missing").toStdString()));
}

void TestWhatIf::specsLoadOrExplain() {
    WhatIfPanel panel;
    QVERIFY(panel.openSpec(QStringLiteral(MEMVIZ_SOURCE_DIR) + "/bench/costmodel/specs/cnn-bn.json"));
    QCOMPARE(panel.modelName(), QStringLiteral("cnn-bn (spec)"));
    QCOMPARE(panel.currentEstimate().parameterCount, 648'746); // torch's count (bench/costmodel/README)
    QTemporaryDir dir;
    const QString bad = test::writeFile(dir, "bad.json", R"({"name": "b", "input": {"shape": [4], "dtype": "float32"},
        "target": {"shape": [], "dtype": "int64"}, "loss": "mse", "layers": [{"type": "lstm"}]})");
    QVERIFY(!panel.openSpec(bad));
    QVERIFY(panel.errorText().contains("unknown layer type 'lstm'"));
    QVERIFY(child<QLabel>(panel, "verdictLabel")->text().contains("lstm"));
}

void TestWhatIf::calibratesOnAMemoryTimeline() {
    // A memory-timeline export: parameters 1,000 B (pre-existing), an activation of 5,000 B and a
    // gradient of 2,000 B; the peak (8,000 B) is at t = 150 ns.
    QTemporaryDir dir;
    const QString path = test::writeFile(dir, "step.raw.json",
                                         "[[-1, 1, 1000, 0], [100, 2, 5000, 4], [150, 2, 2000, 5], [200, 4, -5000, 4]]");
    const OpenedTrace t = openTrace(path.toStdString(), dir.filePath("s.memviz").toStdString(), Progress{}, 0);
    TraceSession session;
    session.open(QString::fromStdString(t.storePath), t.traceId);
    WhatIfPanel panel;
    panel.setSession(&session);
    QVERIFY(panel.selectPreset("mlp"));
    EstimateOptions o = panel.options();
    o.batch = 64;
    o.optimizer = OptimizerKind::Sgd;
    panel.setOptions(o);
    QVERIFY(panel.calibrate());
    const auto& p0 = panel.projection();
    QVERIFY(p0.has_value());
    QCOMPARE(p0->projectedPeakBytes, 8000); // same knobs: the recording itself
    // Recorded bar = the measured categories.
    QCOMPARE(panel.breakdownChart()->barCount(), 3);
    QCOMPARE(panel.breakdownChart()->value(1, Category::Parameters), 1000.0);
    QCOMPARE(panel.breakdownChart()->value(1, Category::Activations), 5000.0);
    QCOMPARE(panel.breakdownChart()->value(1, Category::Gradients), 2000.0);
    // Quadruple the batch: each category scales by the model's own ratio for it.
    const ResolvedModel model = resolveModel(presetSpec("mlp"));
    EstimateOptions base = o, next = o;
    base.timeline = next.timeline = false;
    next.batch = 256;
    const Estimate e0 = estimate(model, base), e1 = estimate(model, next);
    auto ratio = [&](Category c) {
        const auto i = static_cast<std::size_t>(c);
        return e0.breakdown[i] > 0 ? double(e1.breakdown[i]) / double(e0.breakdown[i])
                                   : double(e1.peakBytes) / double(e0.peakBytes);
    };
    child<QSpinBox>(panel, "batchSpin")->setValue(256);
    const auto& p1 = panel.projection();
    QVERIFY(p1.has_value());
    const std::int64_t expected = std::llround(1000 * ratio(Category::Parameters)) +
                                  std::llround(5000 * ratio(Category::Activations)) +
                                  std::llround(2000 * ratio(Category::Gradients));
    QCOMPARE(p1->projectedPeakBytes, expected);
    QCOMPARE(panel.breakdownChart()->value(2, Category::Parameters), 1000.0); // parameters do not scale with the batch
    QVERIFY(child<QLabel>(panel, "calibrationLabel")->text().contains("Measured: step.raw.json peaked at"));
    // The recorded timeline and its projection are drawn on the time axis.
    QVERIFY(panel.timelineChart()->plot()->xAxis2->visible());
    panel.clearCalibration();
    QVERIFY(!panel.isCalibrated());
    QCOMPARE(panel.breakdownChart()->barCount(), 1);
}

void TestWhatIf::recomputeIsInstant() {
    WhatIfPanel panel;
    panel.limitPicker()->setTypedLimit("80GiB");
    for (const PresetInfo& p : presets()) {
        QVERIFY(panel.selectPreset(QString::fromStdString(p.id)));
        child<QSpinBox>(panel, "batchSpin")->setValue(8);
        // estimate + largest batch (a bisection of estimates) + six knob alternatives + redraw
        qInfo("%-12s recompute %.1f ms (%d simulated ops)", p.id.c_str(), panel.lastRecomputeMs(),
              panel.currentEstimate().opCount);
        QVERIFY2(panel.lastRecomputeMs() < 1000, p.id.c_str());
    }
}

void TestWhatIf::dockAndShortcut() {
    MainWindow window;
    window.resize(1200, 800);
    window.show();
    QVERIFY(window.whatIfPanel());
    QVERIFY(!window.whatIfDock()->isVisible());
    QAction* toggle = window.whatIfDock()->toggleViewAction();
    QCOMPARE(toggle->shortcut(), QKeySequence(Qt::CTRL | Qt::Key_E));
    bool inViewMenu = false;
    for (QAction* menu : window.menuBar()->actions())
        if (menu->menu() && menu->menu()->actions().contains(toggle)) inViewMenu = true;
    QVERIFY(inViewMenu);
    toggle->trigger();
    QVERIFY(window.whatIfDock()->isVisible());
}

void TestWhatIf::textFitsInAShortDock() {
    // The dock at 1280×800 (issue 19): "This machine: 23.54 Gi", bar labels running together
    // ("modelledrecordecprojected"), legend entries cut.
    WhatIfPanel panel;
    panel.resize(1260, 330);
    panel.show();
    QVERIFY(QTest::qWaitForWindowExposed(&panel));
    QComboBox* limit = panel.limitPicker()->combo();
    for (int i = 0; i < limit->count(); ++i) {
        limit->setCurrentIndex(i);
        QCoreApplication::processEvents();
        // The text area of a combo is its width less the arrow: the style's own measure.
        QStyleOptionComboBox option;
        option.initFrom(limit);
        const QRect text = limit->style()->subControlRect(QStyle::CC_ComboBox, &option, QStyle::SC_ComboBoxEditField, limit);
        QVERIFY2(text.width() >= limit->fontMetrics().horizontalAdvance(limit->currentText()),
                 qPrintable(QStringLiteral("\"%1\" in %2 px").arg(limit->currentText()).arg(text.width())));
    }
    limit->setCurrentIndex(0);
    // Three bars side by side: their labels either fit or are turned.
    BreakdownChart* bars = panel.breakdownChart();
    BreakdownChart::Bar modelled{QStringLiteral("modelled"), {}};
    modelled.parts[0] = 100 << 20;
    bars->setBars({modelled, {QStringLiteral("recorded"), {}, 90 << 20}, {QStringLiteral("projected"), {}, 80 << 20}},
                  std::nullopt);
    QCustomPlot* plot = bars->plot();
    QTRY_VERIFY(plot->axisRect()->width() > 0);
    plot->replot();
    QCoreApplication::processEvents(); // the queued replot after fitting
    const QFontMetrics metrics(plot->xAxis->tickLabelFont());
    int side = 0;
    for (const char* l : {"modelled", "recorded", "projected"}) side += metrics.horizontalAdvance(QString::fromLatin1(l));
    QVERIFY2(plot->xAxis->tickLabelRotation() != 0 || side <= plot->axisRect()->width(),
             qPrintable(QStringLiteral("%1 px of labels under a %2 px axis").arg(side).arg(plot->axisRect()->width())));
    // Every legend entry of both charts gets at least the room it needs.
    for (QCustomPlot* p : {plot, panel.timelineChart()->plot()}) {
        p->replot();
        QCoreApplication::processEvents();
        for (int i = 0; i < p->legend->itemCount(); ++i)
            if (QCPAbstractLegendItem* item = p->legend->item(i); item && item->visible())
                QVERIFY2(item->outerRect().width() >= item->minimumOuterSizeHint().width(),
                         qPrintable(QStringLiteral("legend entry %1: %2 of %3 px")
                                        .arg(i)
                                        .arg(item->outerRect().width())
                                        .arg(item->minimumOuterSizeHint().width())));
    }
}

// "Save as Trace…": two estimates kept in one store compare with `memviz diff` on the figures
// `memviz estimate --json` prints for the same knobs (its peak and activations at the peak).
void TestWhatIf::savedEstimateIsATrace() {
    QTemporaryDir dir;
    const QString store = dir.filePath("estimates.memviz");
    WhatIfPanel panel;
    QVERIFY(panel.selectPreset("small-cnn"));
    EstimateOptions o = panel.options();
    QJsonObject expected[2];
    const int batches[2] = {16, 64};
    for (int i = 0; i < 2; ++i) {
        o.batch = batches[i];
        panel.setOptions(o);
        panel.saveAsTrace(store);
        panel.waitForSave();
        QVERIFY2(panel.savedText().contains(QStringLiteral("trace %1 of estimates.memviz").arg(i + 1)), qPrintable(panel.savedText()));
        const auto r = test::runMemviz({"estimate", "--model", "small-cnn", "--batch", QString::number(batches[i]), "--json"});
        QVERIFY2(r.exitCode == 0, r.err.constData());
        expected[i] = QJsonDocument::fromJson(r.out).object();
    }
    const auto d = test::runMemviz({"diff", store + "#1", store + "#2", "--json"});
    QVERIFY2(d.exitCode == 0, d.err.constData());
    const QJsonObject diff = QJsonDocument::fromJson(d.out).object();
    const QJsonObject peak = diff["devices"].toArray()[0].toObject()["peak_bytes"].toObject();
    QCOMPARE(peak["a"].toInteger(), expected[0]["peak_bytes"].toInteger());
    QCOMPARE(peak["b"].toInteger(), expected[1]["peak_bytes"].toInteger());
    bool found = false;
    for (const QJsonValue& v : diff["categories"].toArray())
        if (v.toObject()["category"].toString() == "activations") {
            found = true;
            QCOMPARE(v.toObject()["at_peak_bytes"].toObject()["a"].toInteger(), expected[0]["activations_bytes"].toInteger());
            QCOMPARE(v.toObject()["at_peak_bytes"].toObject()["b"].toInteger(), expected[1]["activations_bytes"].toInteger());
        }
    QVERIFY(found);
}

int main(int argc, char** argv) {
    QApplication::setApplicationName("memviz-test-whatif");
    QApplication app(argc, argv);
    TestWhatIf t;
    return QTest::qExec(&t, argc, argv);
}
#include "tst_whatif.moc"

// SPDX-License-Identifier: MIT
#include "widgets/whatif/WhatIfPanel.h"
#include "words/CostModelLabels.h"

#include <QCheckBox>
#include <QComboBox>
#include <QCoreApplication>
#include <QDir>
#include <QElapsedTimer>
#include <QEvent>
#include <QFileDialog>
#include <QFileInfo>
#include <QFormLayout>
#include <QGroupBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QPushButton>
#include <QScrollArea>
#include <QScrollBar>
#include <QSlider>
#include <QSpinBox>
#include <QSplitter>
#include <QVBoxLayout>
#include <cmath>

#include "words/Units.h"
#include "costmodel/EstimateTrace.h"
#include "costmodel/OptionNames.h"
#include "costmodel/Presets.h"
#include "costmodel/SpecParser.h"
#include "store/Database.h"
#include "widgets/BackgroundQuery.h"
#include "widgets/TraceSession.h"
#include "widgets/whatif/BreakdownChart.h"
#include "widgets/whatif/FitPlanBox.h"
#include "widgets/whatif/MemoryLimitPicker.h"
#include "widgets/whatif/StepTimelineChart.h"
#include "widgets/whatif/TraceBaseline.h"
#include "words/UnitTexts.h"

namespace memviz {

using namespace costmodel;

namespace {
constexpr int kSliderSteps = 10; // slider positions per doubling of the batch
std::int64_t batchForSlider(int v) { return std::llround(std::pow(2.0, v / double(kSliderSteps))); }
int sliderForBatch(std::int64_t b) {
    return static_cast<int>(std::lround(std::log2(static_cast<double>(std::max<std::int64_t>(1, b))) * kSliderSteps));
}
} // namespace

WhatIfPanel::WhatIfPanel(QWidget* parent) : QWidget(parent), save_(new BackgroundQuery(this)) {
    setObjectName("whatIfPanel");
    save_->setErrorHandler([this](const QString& message) { savedLabel_->setText(tr("Cannot save: %1").arg(message)); });
    auto* outer = new QHBoxLayout(this);
    // The knobs scroll when the dock is short (1280×800), instead of being cut off.
    auto* controls = new QScrollArea(this);
    QWidget* box = buildControls();
    controls->setWidget(box);
    controls->setWidgetResizable(true);
    controls->setFrameShape(QFrame::NoFrame);
    controls->setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
    controls->setFixedWidth(box->sizeHint().width() + controls->verticalScrollBar()->sizeHint().width() + 2);
    outer->addWidget(controls);
    // The wheel scrolls the knobs; it turns a knob only once the knob has the focus (a click).
    controlsScroll_ = controls->verticalScrollBar();
    for (QWidget* knob : box->findChildren<QWidget*>())
        if (qobject_cast<QComboBox*>(knob) || qobject_cast<QAbstractSpinBox*>(knob) || qobject_cast<QSlider*>(knob)) {
            knob->setFocusPolicy(Qt::StrongFocus);
            knob->installEventFilter(this);
        }
    // The results scroll too: in a short dock the wrapped "what one change would do" text
    // keeps its lines instead of being cut.
    auto* results = new QScrollArea(this);
    results->setFrameShape(QFrame::NoFrame);
    results->setWidgetResizable(true);
    results->setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
    auto* resultsWidget = new QWidget(results);
    auto* right = new QVBoxLayout(resultsWidget);
    right->setContentsMargins(0, 0, 0, 0);
    peakLabel_ = new QLabel(this);
    peakLabel_->setObjectName("peakLabel");
    QFont big = peakLabel_->font();
    big.setPointSizeF(big.pointSizeF() * 1.25);
    big.setBold(true);
    peakLabel_->setFont(big);
    verdictLabel_ = new QLabel(this);
    verdictLabel_->setObjectName("verdictLabel");
    verdictLabel_->setFont(big);
    fitLabel_ = new QLabel(this);
    fitLabel_->setObjectName("fitLabel");
    auto* summary = new QHBoxLayout;
    summary->addWidget(peakLabel_);
    summary->addSpacing(24);
    summary->addWidget(verdictLabel_);
    summary->addStretch(1);
    right->addLayout(summary);
    right->addWidget(fitLabel_);
    auto* charts = new QSplitter(Qt::Horizontal, this);
    bars_ = new BreakdownChart(charts);
    timeline_ = new StepTimelineChart(charts);
    charts->addWidget(bars_);
    charts->addWidget(timeline_);
    charts->setStretchFactor(0, 2);
    charts->setStretchFactor(1, 3);
    right->addWidget(charts, 1);
    savingsLabel_ = new QLabel(this);
    savingsLabel_->setObjectName("savingsLabel");
    savingsLabel_->setWordWrap(true);
    savingsLabel_->installEventFilter(this);
    right->addWidget(savingsLabel_);
    results->setWidget(resultsWidget);
    outer->addWidget(results, 1);
    modelChanged();
}

WhatIfPanel::~WhatIfPanel() = default;

bool WhatIfPanel::eventFilter(QObject* watched, QEvent* event) {
    // A box layout squeezes a word-wrapped label below the height of its lines (the dock is
    // short at 1280×800): pin its minimum to that height, and the results area scrolls instead.
    if (event->type() == QEvent::Wheel && watched != savingsLabel_) {
        auto* knob = qobject_cast<QWidget*>(watched);
        if (knob && !knob->hasFocus()) {
            QCoreApplication::sendEvent(controlsScroll_, event);
            return true;
        }
    }
    if (watched == savingsLabel_ && event->type() == QEvent::Resize) {
        const int needed = savingsLabel_->heightForWidth(savingsLabel_->width());
        if (needed > 0 && savingsLabel_->minimumHeight() != needed) savingsLabel_->setMinimumHeight(needed);
    }
    return QWidget::eventFilter(watched, event);
}

QWidget* WhatIfPanel::buildControls() {
    auto* box = new QGroupBox(tr("Model and knobs"), this);
    box->setMaximumWidth(380);
    auto* form = new QFormLayout(box);
    modelCombo_ = new QComboBox(box);
    modelCombo_->setObjectName("modelCombo");
    for (const PresetInfo& p : presets()) {
        modelCombo_->addItem(QString::fromStdString(p.title), QString::fromStdString(p.id));
        modelCombo_->setItemData(modelCombo_->count() - 1, presetDescription(p.description), Qt::ToolTipRole);
    }
    openSpec_ = new QPushButton(tr("Open spec…"), box);
    openSpec_->setObjectName("openSpecButton");
    auto* modelRow = new QHBoxLayout;
    modelRow->addWidget(modelCombo_, 1);
    modelRow->addWidget(openSpec_);
    form->addRow(tr("Model"), modelRow);

    batchSlider_ = new QSlider(Qt::Horizontal, box);
    batchSlider_->setObjectName("batchSlider");
    batchSlider_->setRange(0, 20 * kSliderSteps); // 1 .. 2^20, logarithmic
    batchSlider_->setToolTip(tr("Batch size, logarithmic: every %1 steps double it").arg(kSliderSteps));
    batchSpin_ = new QSpinBox(box);
    batchSpin_->setObjectName("batchSpin");
    batchSpin_->setRange(1, 10'000'000);
    auto* batchRow = new QHBoxLayout;
    batchRow->addWidget(batchSlider_, 1);
    batchRow->addWidget(batchSpin_);
    form->addRow(tr("Batch size"), batchRow);

    dtype_ = new QComboBox(box);
    dtype_->setObjectName("dtypeCombo");
    for (const std::string& d : dtypeNames()) dtype_->addItem(QString::fromStdString(d));
    dtype_->setItemData(4, tr("int8: a quantized model, inference only"), Qt::ToolTipRole);
    form->addRow(tr("dtype"), dtype_);
    amp_ = new QCheckBox(tr("Mixed precision (autocast)"), box);
    amp_->setObjectName("ampCheck");
    form->addRow(QString(), amp_);

    optimizer_ = new QComboBox(box);
    optimizer_->setObjectName("optimizerCombo");
    for (const std::string& o : optimizerNames()) optimizer_->addItem(QString::fromStdString(o));
    optimizer_->setCurrentText(QString::fromLatin1(optimizerName(EstimateOptions{}.optimizer)));
    history_ = new QSpinBox(box);
    history_->setObjectName("historySpin");
    history_->setRange(1, 1000);
    history_->setValue(EstimateOptions{}.lbfgsHistory);
    history_->setPrefix(tr("history "));
    auto* optRow = new QHBoxLayout;
    optRow->addWidget(optimizer_, 1);
    optRow->addWidget(history_);
    form->addRow(tr("Optimizer"), optRow);

    checkpoint_ = new QComboBox(box);
    checkpoint_->setObjectName("checkpointCombo");
    form->addRow(tr("Checkpointing"), checkpoint_);
    inference_ = new QCheckBox(tr("Inference only (no_grad)"), box);
    inference_->setObjectName("inferenceCheck");
    form->addRow(QString(), inference_);

    device_ = new QComboBox(box);
    device_->setObjectName("deviceCombo");
    device_->addItem(tr("CPU (64-byte aligned, no cache)"), QString::fromLatin1(deviceName(DeviceKind::Cpu)));
    device_->addItem(tr("CUDA (caching allocator)"), QString::fromLatin1(deviceName(DeviceKind::Cuda)));
    form->addRow(tr("Device"), device_);
    cudaContext_ = new QCheckBox(tr("Add a CUDA context (%1)").arg(words::bytes(kDefaultCudaContextBytes)), box);
    cudaContext_->setObjectName("contextCheck");
    form->addRow(QString(), cudaContext_);
    limit_ = new MemoryLimitPicker(box);
    form->addRow(tr("Memory limit"), limit_);

    auto* calibration = new QGroupBox(tr("Calibrate on the open trace"), box);
    auto* cal = new QVBoxLayout(calibration);
    calibrationLabel_ = new QLabel(tr("Open a trace, set the knobs it was recorded with, then calibrate."), calibration);
    calibrationLabel_->setObjectName("calibrationLabel");
    calibrationLabel_->setWordWrap(true);
    calibrate_ = new QPushButton(tr("Calibrate"), calibration);
    calibrate_->setObjectName("calibrateButton");
    clearCalibration_ = new QPushButton(tr("Clear"), calibration);
    auto* calRow = new QHBoxLayout;
    calRow->addWidget(calibrate_);
    calRow->addWidget(clearCalibration_);
    cal->addLayout(calRow);
    cal->addWidget(calibrationLabel_);
    form->addRow(calibration);
    calibrate_->setEnabled(false);
    clearCalibration_->setEnabled(false);

    auto* keep = new QGroupBox(tr("Compare this estimate"), box);
    auto* keepLayout = new QVBoxLayout(keep);
    saveTrace_ = new QPushButton(tr("Save as Trace…"), keep);
    saveTrace_->setObjectName("saveTraceButton");
    saveTrace_->setToolTip(tr("Keep this estimate as a trace in a store, to compare it (File › Compare With…) "
                              "with a recording or another estimate, category by category"));
    savedLabel_ = new QLabel(keep);
    savedLabel_->setWordWrap(true);
    keepLayout->addWidget(saveTrace_);
    keepLayout->addWidget(savedLabel_);
    form->addRow(keep);
    // Language models on GPUs from a Hugging Face config: the same answer as `memviz estimate --config`.
    fitPlan_ = new FitPlanBox(box);
    form->addRow(fitPlan_);
    connect(saveTrace_, &QPushButton::clicked, this, [this] {
        const QString path = QFileDialog::getSaveFileName(this, tr("Save the estimate into a store"),
                                                          QDir::home().filePath(QStringLiteral("estimates.memviz")),
                                                          tr("memviz store (*.memviz)"), nullptr, QFileDialog::DontConfirmOverwrite);
        if (!path.isEmpty()) saveAsTrace(path);
    });

    connect(modelCombo_, &QComboBox::currentIndexChanged, this, [this] { modelChanged(); });
    connect(openSpec_, &QPushButton::clicked, this, &WhatIfPanel::chooseSpecFile);
    connect(batchSlider_, &QSlider::valueChanged, this, [this](int v) {
        if (updating_) return;
        updating_ = true;
        batchSpin_->setValue(static_cast<int>(batchForSlider(v)));
        updating_ = false;
        recompute();
    });
    connect(batchSpin_, &QSpinBox::valueChanged, this, [this](int v) {
        if (updating_) return;
        updating_ = true;
        batchSlider_->setValue(sliderForBatch(v));
        updating_ = false;
        recompute();
    });
    for (QComboBox* c : {dtype_, optimizer_, checkpoint_, device_})
        connect(c, &QComboBox::currentIndexChanged, this, [this] { recompute(); });
    for (QCheckBox* c : {amp_, inference_, cudaContext_}) connect(c, &QCheckBox::toggled, this, [this] { recompute(); });
    connect(history_, &QSpinBox::valueChanged, this, [this] { recompute(); });
    connect(limit_, &MemoryLimitPicker::limitChanged, this, [this] { recompute(); });
    connect(calibrate_, &QPushButton::clicked, this, [this] { calibrate(); });
    connect(clearCalibration_, &QPushButton::clicked, this, &WhatIfPanel::clearCalibration);
    updating_ = true;
    batchSpin_->setValue(32);
    batchSlider_->setValue(sliderForBatch(32));
    updating_ = false;
    return box;
}

void WhatIfPanel::setSession(TraceSession* session) {
    session_ = session;
    auto update = [this] {
        calibrate_->setEnabled(session_ && session_->isOpen());
        clearCalibration();
    };
    if (session_) connect(session_, &TraceSession::traceChanged, this, update);
    update();
}

bool WhatIfPanel::selectPreset(const QString& id) {
    const int i = modelCombo_->findData(id);
    if (i < 0) return false;
    modelCombo_->setCurrentIndex(i);
    return true;
}

void WhatIfPanel::chooseSpecFile() {
    const QString path = QFileDialog::getOpenFileName(this, tr("Open model spec"), QString(),
                                                      tr("Model specs (*.json);;All files (*)"));
    if (!path.isEmpty()) openSpec(path);
}

bool WhatIfPanel::openSpec(const QString& path) {
    try {
        const ModelSpec spec = readModelSpecFile(path.toStdString());
        updating_ = true;
        const int existing = modelCombo_->findData("spec:" + path);
        if (existing >= 0) modelCombo_->removeItem(existing);
        modelCombo_->addItem(tr("%1 (spec)").arg(QString::fromStdString(spec.name)), "spec:" + path);
        modelCombo_->setCurrentIndex(modelCombo_->count() - 1);
        updating_ = false;
        modelChanged();
        return true;
    } catch (const std::exception& e) {
        updating_ = false;
        error_ = QString::fromUtf8(e.what());
        verdictLabel_->setText(QStringLiteral("<span style='color:#b00'>%1</span>").arg(error_.toHtmlEscaped()));
        return false;
    }
}

void WhatIfPanel::modelChanged() {
    if (updating_) return;
    const QString key = modelCombo_->currentData().toString();
    try {
        const ModelSpec spec = key.startsWith("spec:") ? readModelSpecFile(key.mid(5).toStdString())
                                                       : presetSpec(key.toStdString());
        model_ = resolveModel(spec);
        error_.clear();
    } catch (const std::exception& e) {
        model_.reset();
        error_ = QString::fromUtf8(e.what());
    }
    populateCheckpoints();
    clearCalibration();
    recompute();
}

void WhatIfPanel::populateCheckpoints() {
    const bool was = updating_;
    updating_ = true;
    const QString current = checkpoint_->currentData().toString();
    checkpoint_->clear();
    checkpoint_->addItem(tr("none"), "none");
    if (model_) {
        const int n = model_->topLevelLayerCount();
        checkpoint_->addItem(
            tr("sqrt: K = %1 of %2 layers").arg(checkpointSegmentsFor(*model_, {CheckpointMode::Sqrt, 0})).arg(n), "sqrt");
        for (int k = 2; k <= std::min(n, 16); ++k) checkpoint_->addItem(tr("K = %1 segments").arg(k), QString::number(k));
    }
    const int keep = checkpoint_->findData(current);
    checkpoint_->setCurrentIndex(keep >= 0 ? keep : 0);
    updating_ = was;
}

EstimateOptions WhatIfPanel::options() const {
    EstimateOptions o;
    o.batch = batchSpin_->value();
    o.dtype = parseDType(dtype_->currentText().toStdString());
    o.amp = amp_->isChecked();
    o.optimizer = parseOptimizer(optimizer_->currentText().toStdString());
    o.lbfgsHistory = history_->value();
    o.checkpoint = parseCheckpoint(checkpoint_->currentData().toString().toStdString());
    o.training = !inference_->isChecked();
    o.device = parseDevice(device_->currentData().toString().toStdString());
    o.cudaContextBytes = o.device == DeviceKind::Cuda && cudaContext_->isChecked() ? kDefaultCudaContextBytes : 0;
    return o;
}

void WhatIfPanel::setOptions(const EstimateOptions& o) {
    updating_ = true;
    batchSpin_->setValue(static_cast<int>(std::min<std::int64_t>(o.batch, batchSpin_->maximum())));
    batchSlider_->setValue(sliderForBatch(o.batch));
    dtype_->setCurrentText(QString::fromLatin1(dtypeName(o.dtype)));
    amp_->setChecked(o.amp);
    optimizer_->setCurrentText(QString::fromLatin1(optimizerName(o.optimizer)));
    history_->setValue(o.lbfgsHistory);
    const int ck = checkpoint_->findData(QString::fromStdString(checkpointName(o.checkpoint)));
    checkpoint_->setCurrentIndex(std::max(0, ck));
    inference_->setChecked(!o.training);
    device_->setCurrentIndex(device_->findData(QString::fromLatin1(deviceName(o.device))));
    cudaContext_->setChecked(o.cudaContextBytes > 0);
    updating_ = false;
    recompute();
}

void WhatIfPanel::recompute() {
    if (updating_) return;
    QElapsedTimer timer;
    timer.start();
    const EstimateOptions o = options();
    const bool training = o.training;
    amp_->setEnabled(o.dtype != DType::I8);
    optimizer_->setEnabled(training);
    history_->setEnabled(training && o.optimizer == OptimizerKind::Lbfgs);
    checkpoint_->setEnabled(training);
    cudaContext_->setEnabled(o.device == DeviceKind::Cuda);
    savings_.clear();
    projection_.reset();
    if (model_) {
        try {
            estimate_ = costmodel::estimate(*model_, o);
            largestBatch_ = limit_->limit() ? largestBatchThatFits(*model_, o, *limit_->limit()) : 0;
            savings_ = knobSavings(*model_, o);
            if (calibration_) projection_ = project(calibration_->baseline, calibration_->atRecording, estimate_);
            error_.clear();
        } catch (const std::exception& e) {
            error_ = QString::fromUtf8(e.what());
        }
    }
    showResults();
    lastMs_ = static_cast<double>(timer.nsecsElapsed()) / 1e6; // simulations and redraw
    emit recomputed();
}

QString WhatIfPanel::modelName() const { return modelCombo_->currentText(); }

void WhatIfPanel::saveAsTrace(const QString& storePath) {
    if (!model_ || !error_.isEmpty()) return;
    const EstimateOptions o = options();
    const std::string description = costmodel::estimateDescription(modelName().toStdString(), o, estimate_);
    const auto e = std::make_shared<const Estimate>(estimate_);
    const std::string path = storePath.toStdString();
    savedLabel_->setText(tr("Saving…"));
    save_->run([this, o, e, description, path, storePath](const Progress&) -> BackgroundQuery::Apply {
        Database db(path); // an existing store gets one more trace
        const std::int64_t id = costmodel::saveEstimateTrace(db, description, o, *e);
        return [this, id, storePath] {
            savedLabel_->setText(tr("Saved as trace %1 of %2; File › Compare With… compares it.")
                                     .arg(id)
                                     .arg(QFileInfo(storePath).fileName()));
        };
    });
}

void WhatIfPanel::waitForSave() { save_->wait(); }

QString WhatIfPanel::savedText() const { return savedLabel_->text(); }

QString WhatIfPanel::peakText() const {
    if (!error_.isEmpty() || !model_) return QString();
    return tr("Peak %1 (%2 phase)").arg(words::bytes(estimate_.peakBytes), phaseLabel(estimate_.peakPhase));
}

QString WhatIfPanel::verdictText() const {
    if (!error_.isEmpty()) return error_;
    const auto limit = limit_->limit();
    if (!limit) return tr("no memory limit chosen");
    if (estimate_.peakBytes <= *limit)
        return tr("fits in %1 (%2 to spare)").arg(words::bytes(*limit), words::bytes(*limit - estimate_.peakBytes));
    return tr("does not fit in %1: over by %2").arg(words::bytes(*limit), words::bytes(estimate_.peakBytes - *limit));
}

QString WhatIfPanel::fitText() const {
    if (!error_.isEmpty() || !limit_->limit()) return QString();
    if (largestBatch_ == 0) return tr("Not even batch 1 fits in %1.").arg(words::bytes(*limit_->limit()));
    return tr("Largest batch that fits in %1: %2").arg(words::bytes(*limit_->limit())).arg(largestBatch_);
}

void WhatIfPanel::showResults() {
    const auto limit = limit_->limit();
    const bool fits = limit && error_.isEmpty() && estimate_.peakBytes <= *limit;
    peakLabel_->setText(peakText());
    const QString color = !error_.isEmpty() || !limit ? "#555" : fits ? "#1a7f37" : "#b00";
    verdictLabel_->setText(QStringLiteral("<span style='color:%1'>%2</span>").arg(color, verdictText().toHtmlEscaped()));
    fitLabel_->setText(fitText());
    if (!error_.isEmpty() || !model_) {
        savingsLabel_->clear();
        return;
    }
    std::vector<BreakdownChart::Bar> bars{{tr("modelled"), estimate_.breakdown}};
    if (projection_ && calibration_) {
        const RecordedBaseline& b = calibration_->baseline;
        BreakdownChart::Bar recorded{tr("recorded"), {}}, projected{tr("projected"), {}};
        if (b.categories.empty()) {
            recorded.unattributed = b.peakBytes;
            projected.unattributed = projection_->projectedPeakBytes;
        }
        for (std::size_t i = 0; i < b.categories.size(); ++i) {
            const auto c = b.categories[i].category;
            auto add = [&](BreakdownChart::Bar& bar, std::int64_t v) {
                if (c) bar.parts[static_cast<std::size_t>(*c)] += v;
                else bar.unattributed += v;
            };
            add(recorded, b.categories[i].bytesAtPeak);
            add(projected, projection_->projectedCategoryBytes[i]);
        }
        bars.push_back(recorded);
        bars.push_back(projected);
        timeline_->setRecorded(b.timeline, projection_->projectedTimeline);
        calibrationLabel_->setText(
            tr("Measured: %1 peaked at %2 on %3%4. Modelled at the recorded settings: %5 (%6% of the recording). "
               "Projected under the current knobs: %7 = recorded × the model's ratio %8 (per category where the trace has them).")
                .arg(QString::fromStdString(b.source), words::bytes(b.peakBytes), QString::fromStdString(b.device),
                     b.categories.empty() ? tr(" (no categories in this format)") : QString(),
                     words::bytes(calibration_->atRecording.peakBytes))
                .arg(projection_->modelledVsRecorded * 100, 0, 'f', 0)
                .arg(words::bytes(projection_->projectedPeakBytes))
                .arg(projection_->peakRatio, 0, 'f', 2));
    } else {
        timeline_->setRecorded({}, {});
    }
    bars_->setBars(bars, limit);
    timeline_->setEstimate(estimate_, limit);
    QStringList lines;
    for (const KnobSaving& s : savings_)
        lines << (s.savedBytes >= 0 ? tr("%1: saves %2").arg(knobLabel(s.knob, s.description), words::bytes(s.savedBytes))
                                    : tr("%1: costs %2 more").arg(knobLabel(s.knob, s.description), words::bytes(-s.savedBytes)));
    savingsLabel_->setText(lines.isEmpty() ? QString()
                                           : tr("What one change would do — %1").arg(lines.join(QStringLiteral(" · "))));
}

bool WhatIfPanel::calibrate() {
    if (!session_ || !session_->isOpen() || !model_) return false;
    try {
        Calibration c;
        c.baseline = readTraceBaseline(*session_);
        if (c.baseline.peakBytes <= 0) return false;
        c.atRecording = costmodel::estimate(*model_, options());
        calibration_ = std::move(c);
    } catch (const std::exception& e) {
        calibrationLabel_->setText(tr("Cannot calibrate: %1").arg(QString::fromUtf8(e.what())));
        return false;
    }
    clearCalibration_->setEnabled(true);
    recompute();
    return true;
}

void WhatIfPanel::clearCalibration() {
    if (!calibration_) return;
    calibration_.reset();
    projection_.reset();
    clearCalibration_->setEnabled(false);
    calibrationLabel_->setText(tr("Open a trace, set the knobs it was recorded with, then calibrate."));
    recompute();
}

} // namespace memviz

// SPDX-License-Identifier: MIT
#pragma once
// The what-if panel: pick a model (preset or JSON spec) and turn the knobs (batch on a log
// slider, dtype, AMP, optimizer, checkpointing, training/inference, device, memory limit);
// every change re-runs the cost model and redraws the breakdown, the step timeline against
// the limit, "fits / does not fit by X" and the largest batch that fits. With a trace open it
// can calibrate on the recorded peak and project the recording under the chosen knobs.
#include <QWidget>
#include <optional>

#include "costmodel/Calibration.h"
#include "costmodel/CostModel.h"

class QCheckBox;
class QComboBox;
class QLabel;
class QScrollBar;
class QPushButton;
class QSlider;
class QSpinBox;

namespace memviz {

class BackgroundQuery;
class BreakdownChart;
class FitPlanBox;
class MemoryLimitPicker;
class StepTimelineChart;
class TraceSession;

class WhatIfPanel : public QWidget {
    Q_OBJECT
public:
    explicit WhatIfPanel(QWidget* parent = nullptr);
    ~WhatIfPanel() override;

    // Calibration reads the session's open trace.
    void setSession(TraceSession* session);

    bool selectPreset(const QString& id);
    // Loads a JSON spec; on error shows it and returns false.
    bool openSpec(const QString& path);
    void setOptions(const costmodel::EstimateOptions& options);
    costmodel::EstimateOptions options() const;
    MemoryLimitPicker* limitPicker() const { return limit_; }

    const costmodel::Estimate& currentEstimate() const { return estimate_; }
    std::int64_t largestBatch() const { return largestBatch_; }
    QString modelName() const;
    QString peakText() const;
    QString verdictText() const;
    QString fitText() const;
    QString errorText() const { return error_; }
    double lastRecomputeMs() const { return lastMs_; }
    BreakdownChart* breakdownChart() const { return bars_; }
    StepTimelineChart* timelineChart() const { return timeline_; }
    FitPlanBox* fitPlanBox() const { return fitPlan_; }

    // Calibrates on the open trace with the current knobs as the recording's settings.
    bool calibrate();
    void clearCalibration();
    bool isCalibrated() const { return calibration_.has_value(); }
    const std::optional<costmodel::CalibratedProjection>& projection() const { return projection_; }

    // Keeps the current estimate as a trace in the store at `storePath` (created if needed), on a
    // worker, so File › Compare With… can compare it with a recording or another estimate; the
    // panel says which trace it became. "Save as Trace…" asks for the store.
    void saveAsTrace(const QString& storePath);
    // Blocks until the save is done (tests).
    void waitForSave();
    QString savedText() const;

signals:
    void recomputed();

protected:
    // Keeps the wrapped savings text as tall as its lines at the label's width; the wheel over an
    // unfocused knob scrolls the knobs instead of turning it.
    bool eventFilter(QObject* watched, QEvent* event) override;

private:
    QWidget* buildControls();
    void modelChanged();
    void populateCheckpoints();
    void recompute();
    void showResults();
    void chooseSpecFile();

    struct Calibration {
        costmodel::RecordedBaseline baseline;
        costmodel::Estimate atRecording;
    };

    TraceSession* session_ = nullptr;
    std::optional<costmodel::ResolvedModel> model_;
    costmodel::Estimate estimate_;
    std::int64_t largestBatch_ = 0;
    std::vector<costmodel::KnobSaving> savings_;
    std::optional<Calibration> calibration_;
    std::optional<costmodel::CalibratedProjection> projection_;
    QString error_;
    double lastMs_ = 0;
    bool updating_ = false;

    QComboBox* modelCombo_;
    QPushButton* openSpec_;
    QSlider* batchSlider_;
    QSpinBox* batchSpin_;
    QComboBox* dtype_;
    QCheckBox* amp_;
    QComboBox* optimizer_;
    QSpinBox* history_;
    QComboBox* checkpoint_;
    QCheckBox* inference_;
    QComboBox* device_;
    QCheckBox* cudaContext_;
    MemoryLimitPicker* limit_;
    QLabel* peakLabel_;
    QLabel* verdictLabel_;
    QLabel* fitLabel_;
    QLabel* savingsLabel_;
    QScrollBar* controlsScroll_ = nullptr;
    QLabel* calibrationLabel_;
    QPushButton* calibrate_;
    QPushButton* clearCalibration_;
    QPushButton* saveTrace_;
    QLabel* savedLabel_;
    BackgroundQuery* save_;
    BreakdownChart* bars_;
    StepTimelineChart* timeline_;
    FitPlanBox* fitPlan_ = nullptr;
};

} // namespace memviz

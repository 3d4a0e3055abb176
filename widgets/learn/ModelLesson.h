// SPDX-License-Identifier: MIT
#pragma once
// A lesson about a model's training step: a row to choose the model (the cost model's
// presets), the batch size and the device, and the cost model's resolved model to compute
// with. Its scenario opens in the what-if panel.
#include <optional>

#include "costmodel/CostModel.h"
#include "widgets/learn/Lesson.h"

class QComboBox;
class QSpinBox;

namespace memviz {

class ModelLesson : public Lesson {
    Q_OBJECT
public:
    QComboBox* modelCombo() const { return model_; }
    QSpinBox* batchSpin() const { return batch_; }
    QComboBox* deviceCombo() const { return device_; }
    bool selectModel(const QString& presetId);
    QString presetId() const;

    std::optional<WhatIfScenario> whatIfScenario() const override;
    bool offersWhatIf() const override { return true; }

protected:
    ModelLesson(const QString& presetId, int batch, costmodel::DeviceKind device, QWidget* parent);
    // fp32, Adam, training, the chosen batch and device.
    costmodel::EstimateOptions baseOptions() const;
    // What the what-if panel gets (default: baseOptions()).
    virtual costmodel::EstimateOptions scenarioOptions() const { return baseOptions(); }
    const costmodel::ResolvedModel& resolved() const { return *resolved_; }
    QString modelTitle() const;
    // Adds an input to the end of the model row.
    void addToModelRow(QWidget* widget);
    // Shows a cost-model error in the result line; true when there was one.
    bool showError(const std::exception& e);

private:
    void modelChanged();

    QComboBox* model_;
    QSpinBox* batch_;
    QComboBox* device_;
    QHBoxLayout* row_;
    std::optional<costmodel::ResolvedModel> resolved_;
};

} // namespace memviz

// SPDX-License-Identifier: MIT
#pragma once
// Lesson 6: mixed precision (autocast). The weights, gradients and optimizer state stay fp32
// and autocast adds 16-bit copies of the weights, so only the activations shrink: the saving
// grows with the batch and can be nothing, or negative, for small batches.
#include "widgets/learn/ModelLesson.h"

class QStandardItemModel;

namespace memviz {

class MixedPrecisionLesson : public ModelLesson {
    Q_OBJECT
public:
    explicit MixedPrecisionLesson(QWidget* parent = nullptr);
    QString id() const override { return QStringLiteral("mixed-precision"); }
    QString title() const override { return tr("Mixed precision: why it saves less than you expect"); }
    QString shortTitle() const override { return tr("Mixed precision"); }
    QSpinBox* maxBatchSpin() const { return maxBatch_; }
    QStandardItemModel* tableModel() const { return table_; }

protected:
    void refresh() override;
    costmodel::EstimateOptions scenarioOptions() const override;

private:
    QSpinBox* maxBatch_;
    QStandardItemModel* table_;
};

} // namespace memviz

// SPDX-License-Identifier: MIT
#pragma once
// Lesson 2: memory against the batch size for a chosen model. Activations, the input batch and
// temporaries grow with the batch; weights and optimizer state do not; the gradients alive at
// the peak shrink as a larger batch moves the peak earlier into the backward pass. The largest
// batch that fits a memory limit, and the trade-offs of small and large batches.
#include "widgets/learn/ModelLesson.h"

class QDoubleSpinBox;
class QStandardItemModel;

namespace memviz {

class BatchSizeLesson : public ModelLesson {
    Q_OBJECT
public:
    explicit BatchSizeLesson(QWidget* parent = nullptr);
    QString id() const override { return QStringLiteral("batch-size"); }
    QString title() const override { return tr("Batch size: what grows and what does not"); }
    QString shortTitle() const override { return tr("Batch size"); }

    QSpinBox* maxBatchSpin() const { return maxBatch_; }
    QDoubleSpinBox* limitSpin() const { return limit_; }
    QStandardItemModel* tableModel() const { return table_; }
    QStandardItemModel* tradeOffModel() const { return tradeOff_; }
    std::int64_t largestBatch() const { return largest_; }

protected:
    void refresh() override;

private:
    QSpinBox* maxBatch_;
    QDoubleSpinBox* limit_;
    QStandardItemModel* table_;
    QStandardItemModel* tradeOff_;
    std::int64_t largest_ = 0;
};

} // namespace memviz

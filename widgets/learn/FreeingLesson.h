// SPDX-License-Identifier: MIT
#pragma once
// Lesson 9: freeing intermediates. del, loss.item() instead of keeping the loss tensor,
// zero_grad(set_to_none=True), torch.no_grad() for evaluation: each with what it saves on the
// chosen model, from the cost model's simulated step.
#include "widgets/learn/ModelLesson.h"

class QStandardItemModel;

namespace memviz {

class FreeingLesson : public ModelLesson {
    Q_OBJECT
public:
    explicit FreeingLesson(QWidget* parent = nullptr);
    QString id() const override { return QStringLiteral("freeing"); }
    QString title() const override { return tr("Freeing intermediates: del, item(), set_to_none, no_grad"); }
    QString shortTitle() const override { return tr("Freeing intermediates"); }
    QSpinBox* evalBatchesSpin() const { return evalBatches_; }
    QStandardItemModel* tableModel() const { return table_; }

protected:
    void refresh() override;

private:
    QSpinBox* evalBatches_;
    QStandardItemModel* table_;
};

} // namespace memviz

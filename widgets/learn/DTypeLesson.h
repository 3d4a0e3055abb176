// SPDX-License-Identifier: MIT
#pragma once
// Lesson 3: the element type. fp32 -> fp16/bf16 halves every tensor; what the precision costs
// (epsilon, range, digits from each format's bits); AMP keeps fp32 weights; int8 for inference.
#include "widgets/learn/ModelLesson.h"

class QStandardItemModel;

namespace memviz {

class DTypeLesson : public ModelLesson {
    Q_OBJECT
public:
    explicit DTypeLesson(QWidget* parent = nullptr);
    QString id() const override { return QStringLiteral("dtype"); }
    QString title() const override { return tr("Element types: fp32, fp16, bf16, int8"); }
    QString shortTitle() const override { return tr("dtype"); }
    QStandardItemModel* tableModel() const { return table_; }

protected:
    void refresh() override;
    costmodel::EstimateOptions scenarioOptions() const override;

private:
    QStandardItemModel* table_;
};

} // namespace memviz

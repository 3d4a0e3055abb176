// SPDX-License-Identifier: MIT
#pragma once
// Lesson 4: bytes per parameter for each optimizer: SGD keeps nothing, momentum, Adagrad and
// RMSprop one buffer, Adam and AdamW two, LBFGS two flat vectors plus its history, computed
// for the chosen model, with the step's peak from the cost model.
#include "widgets/learn/ModelLesson.h"

class QStandardItemModel;

namespace memviz {

class OptimizerLesson : public ModelLesson {
    Q_OBJECT
public:
    explicit OptimizerLesson(QWidget* parent = nullptr);
    QString id() const override { return QStringLiteral("optimizers"); }
    QString title() const override { return tr("Optimizers: state per parameter"); }
    QString shortTitle() const override { return tr("Optimizers"); }
    QSpinBox* historySpin() const { return history_; }
    QStandardItemModel* tableModel() const { return table_; }

protected:
    void refresh() override;
    costmodel::EstimateOptions scenarioOptions() const override;

private:
    QSpinBox* history_;
    QStandardItemModel* table_;
};

} // namespace memviz

// SPDX-License-Identifier: MIT
#pragma once
// Lesson 1: shape x dtype -> bytes, in MB and MiB. The article examples are one click away;
// a DataLoader batch shows what loading in batches holds instead of the whole tensor.
#include "widgets/learn/Lesson.h"

class QComboBox;
class QLineEdit;
class QSpinBox;
class QStandardItemModel;

namespace memviz {

class TensorSizeLesson : public Lesson {
    Q_OBJECT
public:
    explicit TensorSizeLesson(QWidget* parent = nullptr);
    QString id() const override { return QStringLiteral("tensor-size"); }
    QString title() const override { return tr("Tensor size: bytes, MB and MiB"); }
    QString shortTitle() const override { return tr("Tensor size"); }

    QLineEdit* expressionEdit() const { return expression_; }
    QComboBox* dtypeCombo() const { return dtype_; }
    QSpinBox* batchSpin() const { return batch_; }
    QStandardItemModel* tableModel() const { return table_; }
    // A preset whose input has this tensor's shape per sample, with the first dimension as the
    // batch: [1000, 3, 4096, 4096] opens Large3DCNN at batch 1000.
    std::optional<WhatIfScenario> whatIfScenario() const override;
    bool offersWhatIf() const override { return true; }

protected:
    void refresh() override;

private:
    QLineEdit* expression_;
    QComboBox* examples_;
    QComboBox* dtype_;
    QSpinBox* batch_;
    QStandardItemModel* table_;
};

} // namespace memviz

// SPDX-License-Identifier: MIT
#pragma once
// Lesson 7: views share storage, copies allocate. A few short programs run on the stride
// model step by step: each statement's result shape and strides, whether it shares storage,
// the bytes it allocates, and the bytes alive after it.
#include <vector>

#include "widgets/learn/Lesson.h"
#include "workshop/StrideSim.h"

class QComboBox;
class QSpinBox;
class QStandardItemModel;

namespace memviz {

class ViewsLesson : public Lesson {
    Q_OBJECT
public:
    explicit ViewsLesson(QWidget* parent = nullptr);
    QString id() const override { return QStringLiteral("views"); }
    QString title() const override { return tr("Views vs copies"); }
    QString shortTitle() const override { return tr("Views vs copies"); }

    QComboBox* scenarioCombo() const { return scenario_; }
    QSpinBox* rowsSpin() const { return rows_; }
    QSpinBox* colsSpin() const { return cols_; }
    QComboBox* dtypeCombo() const { return dtype_; }
    QStandardItemModel* tableModel() const { return table_; }
    // The program of the chosen scenario for the chosen shape.
    std::vector<workshop::StrideStatement> program() const;

protected:
    void refresh() override;

private:
    QComboBox* scenario_;
    QSpinBox* rows_;
    QSpinBox* cols_;
    QComboBox* dtype_;
    QStandardItemModel* table_;
};

} // namespace memviz

// SPDX-License-Identifier: MIT
#pragma once
// Lesson 8: a sparse COO tensor stores an int64 index per sparse dimension and a value for
// each non-zero; below the break-even density it is smaller than the dense tensor, above it
// larger. CSR for comparison.
#include "widgets/learn/Lesson.h"

class QComboBox;
class QDoubleSpinBox;
class QSlider;
class QSpinBox;
class QStandardItemModel;

namespace memviz {

class SparseLesson : public Lesson {
    Q_OBJECT
public:
    explicit SparseLesson(QWidget* parent = nullptr);
    QString id() const override { return QStringLiteral("sparse"); }
    QString title() const override { return tr("Sparse tensors: COO vs dense"); }
    QString shortTitle() const override { return tr("Sparse tensors"); }

    QSpinBox* rowsSpin() const { return rows_; }
    QSpinBox* colsSpin() const { return cols_; }
    QComboBox* dtypeCombo() const { return dtype_; }
    QDoubleSpinBox* densitySpin() const { return density_; }
    QStandardItemModel* tableModel() const { return table_; }

protected:
    void refresh() override;

private:
    QSpinBox* rows_;
    QSpinBox* cols_;
    QComboBox* dtype_;
    QDoubleSpinBox* density_;
    QSlider* slider_;
    QStandardItemModel* table_;
};

} // namespace memviz

// SPDX-License-Identifier: MIT
#pragma once
// Lesson 5: gradient checkpointing with checkpoint_sequential. As the segments go from 1 to
// n, the peak falls and then rises again while more of the forward pass runs twice; the
// sqrt(n) rule of thumb is marked next to the cost model's actual best.
#include <vector>

#include "widgets/learn/ModelLesson.h"
#include "workshop/LessonSweeps.h"

class QStandardItemModel;

namespace memviz {

class CheckpointLesson : public ModelLesson {
    Q_OBJECT
public:
    explicit CheckpointLesson(QWidget* parent = nullptr);
    QString id() const override { return QStringLiteral("checkpointing"); }
    QString title() const override { return tr("Gradient checkpointing: memory for recomputation"); }
    QString shortTitle() const override { return tr("Checkpointing"); }
    QStandardItemModel* tableModel() const { return table_; }
    const std::vector<workshop::CheckpointRow>& rows() const { return rows_; }

protected:
    void refresh() override;
    costmodel::EstimateOptions scenarioOptions() const override;

private:
    QStandardItemModel* table_;
    std::vector<workshop::CheckpointRow> rows_;
};

} // namespace memviz

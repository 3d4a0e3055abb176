// SPDX-License-Identifier: MIT
#pragma once
// The per-operator memory of a profiler trace (key_averages semantics), optionally grouped by
// input shapes. Selecting a row marks that operator's calls on the timeline.
#include "widgets/AsyncTableView.h"

class QCheckBox;

namespace memviz {

class ProfilerOpsModel;

class ProfilerOpsView : public AsyncTableView {
    Q_OBJECT
public:
    explicit ProfilerOpsView(TraceSession* session, QWidget* parent = nullptr);
    ProfilerOpsModel* model() const { return model_; }
    QCheckBox* groupByShapes() const { return groupByShapes_; }

protected:
    Query makeQuery(qint64 traceId, std::optional<TimeRange> range) override;
    void clearRows() override;

private:
    ProfilerOpsModel* model_;
    QCheckBox* groupByShapes_;
    qint64 sortedTrace_ = 0;
};

} // namespace memviz

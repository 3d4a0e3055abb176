// SPDX-License-Identifier: MIT
#pragma once
// The per-operator table for traces whose events name their operator (the allocation log):
// allocations, bytes allocated and freed, net and largest allocation per operator.
#include "widgets/AsyncTableView.h"

namespace memviz {

class OpsTableModel;

class OpsView : public AsyncTableView {
    Q_OBJECT
public:
    explicit OpsView(TraceSession* session, QWidget* parent = nullptr);
    OpsTableModel* model() const { return model_; }

protected:
    Query makeQuery(qint64 traceId, std::optional<TimeRange> range) override;
    void clearRows() override;
    QString emptyReason() const override;

private:
    OpsTableModel* model_;
};

} // namespace memviz

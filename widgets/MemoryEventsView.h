// SPDX-License-Identifier: MIT
#pragma once
// The memory-events table of a trace with addresses: allocations paired with their frees,
// unpaired allocations (alive at the end) and unpaired frees (allocated before the trace).
#include "widgets/AsyncTableView.h"

namespace memviz {

class MemoryEventsModel;

class MemoryEventsView : public AsyncTableView {
    Q_OBJECT
public:
    static constexpr std::size_t kMaxRows = 200000;
    explicit MemoryEventsView(TraceSession* session, QWidget* parent = nullptr);
    MemoryEventsModel* model() const { return model_; }

protected:
    Query makeQuery(qint64 traceId, std::optional<TimeRange> range) override;
    void clearRows() override;

private:
    MemoryEventsModel* model_;
};

} // namespace memviz

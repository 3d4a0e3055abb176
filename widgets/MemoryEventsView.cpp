// SPDX-License-Identifier: MIT
#include "widgets/MemoryEventsView.h"

#include "widgets/MemoryEventsModel.h"

namespace memviz {

MemoryEventsView::MemoryEventsView(TraceSession* session, QWidget* parent)
    : AsyncTableView(session, tr("memory events"), parent), model_(new MemoryEventsModel(this)) {
    setSourceModel(model_, MemoryEventsModel::Operator, MemoryEventsModel::SortRole, MemoryEventsModel::Size);
}

AsyncTableView::Query MemoryEventsView::makeQuery(qint64 traceId, std::optional<TimeRange> range) {
    return [this, traceId, range](Database& db) -> Apply {
        auto rows = std::make_shared<std::vector<AllocationRow>>(queryAllocations(db, traceId, range, kMaxRows));
        return [this, rows] { model_->setRows(std::move(*rows)); };
    };
}

void MemoryEventsView::clearRows() { model_->setRows({}); }

} // namespace memviz

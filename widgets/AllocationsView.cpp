#include "widgets/AllocationsView.h"

#include "widgets/AllocationsModel.h"

namespace memviz {

AllocationsView::AllocationsView(TraceSession* session, QWidget* parent)
    : AsyncTableView(session, tr("memory events"), parent), model_(new AllocationsModel(this)) {
    setSourceModel(model_, AllocationsModel::Operator, AllocationsModel::SortRole, AllocationsModel::Size);
}

AsyncTableView::Query AllocationsView::makeQuery(qint64 traceId, std::optional<TimeRange> range) {
    return [this, traceId, range](Database& db) -> Apply {
        auto rows = std::make_shared<std::vector<AllocationRow>>(queryAllocations(db, traceId, range, kMaxRows));
        return [this, rows] { model_->setRows(std::move(*rows)); };
    };
}

void AllocationsView::clearRows() { model_->setRows({}); }

} // namespace memviz

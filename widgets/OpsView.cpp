// SPDX-License-Identifier: MIT
#include "widgets/OpsView.h"

#include <QHeaderView>
#include <QTableView>

#include "formats/FormatIds.h"
#include "formats/live/LiveQueries.h"
#include "store/OpsQuery.h"
#include "widgets/OpsTableModel.h"
#include "widgets/TraceSession.h"

namespace memviz {

OpsView::OpsView(TraceSession* session, QWidget* parent)
    : AsyncTableView(session, tr("operators"), parent), model_(new OpsTableModel(this)) {
    setSourceModel(model_, OpsTableModel::Name, OpsTableModel::SortRole, OpsTableModel::BytesAllocated);
}

AsyncTableView::Query OpsView::makeQuery(qint64 traceId, std::optional<TimeRange> range) {
    OpsFilter filter;
    filter.range = range;
    // A recording still running: its probe records, relational; rows merge in place.
    const bool live = session()->isLive();
    return [this, traceId, filter, live](Database& db) -> Apply {
        auto rows = std::make_shared<std::vector<OpRow>>(live ? queryLiveOps(db, traceId, filter)
                                                              : queryOps(db, traceId, filter));
        if (live) return [this, rows] { model_->mergeRows(std::move(*rows)); };
        return [this, rows] { model_->setRows(std::move(*rows)); };
    };
}

void OpsView::clearRows() { model_->setRows({}); }

QString OpsView::emptyReason() const {
    if (session()->summary().trace.format == format_id::kSnapshot)
        return tr("no allocation is in the snapshot's history (taken without "
                  "torch.cuda.memory._record_memory_history, or after its entries were dropped), so none names "
                  "its operator");
    return tr("no allocation of this trace names an operator");
}

} // namespace memviz

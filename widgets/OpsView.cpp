#include "widgets/OpsView.h"

#include <QHeaderView>
#include <QTableView>

#include "store/OpsQuery.h"
#include "widgets/OpsTableModel.h"

namespace memviz {

OpsView::OpsView(TraceSession* session, QWidget* parent)
    : AsyncTableView(session, tr("operators"), parent), model_(new OpsTableModel(this)) {
    setSourceModel(model_, OpsTableModel::Name, OpsTableModel::SortRole, OpsTableModel::BytesAllocated);
}

AsyncTableView::Query OpsView::makeQuery(qint64 traceId, std::optional<TimeRange> range) {
    OpsFilter filter;
    filter.range = range;
    return [this, traceId, filter](Database& db) -> Apply {
        auto rows = std::make_shared<std::vector<OpRow>>(queryOps(db, traceId, filter));
        return [this, rows] { model_->setRows(std::move(*rows)); };
    };
}

void OpsView::clearRows() { model_->setRows({}); }

} // namespace memviz

// SPDX-License-Identifier: MIT
#include "widgets/ProfilerOpsView.h"

#include <QCheckBox>
#include <QHBoxLayout>
#include <QItemSelectionModel>
#include <QSortFilterProxyModel>
#include <QTableView>
#include <algorithm>

#include "widgets/ProfilerOpsModel.h"
#include "widgets/TraceSession.h"

namespace memviz {

ProfilerOpsView::ProfilerOpsView(TraceSession* session, QWidget* parent)
    : AsyncTableView(session, tr("operators"), parent), model_(new ProfilerOpsModel(this)),
      groupByShapes_(new QCheckBox(tr("Group by input shapes"), this)) {
    groupByShapes_->setToolTip(tr("One row per operator and input shapes, like key_averages(group_by_input_shape=True)"));
    toolbar()->insertWidget(1, groupByShapes_);
    connect(groupByShapes_, &QCheckBox::toggled, this, &AsyncTableView::refresh);
    setSourceModel(model_, 0, ProfilerOpsModel::SortRole, 0);
    table()->sortByColumn(model_->firstDeviceColumn(), Qt::DescendingOrder);
    connect(table()->selectionModel(), &QItemSelectionModel::currentRowChanged, this, [this](const QModelIndex& current) {
        this->session()->setHighlightedOp(current.isValid() ? proxy()->index(current.row(), 0).data().toString() : QString());
    });
}

AsyncTableView::Query ProfilerOpsView::makeQuery(qint64 traceId, std::optional<TimeRange> range) {
    const bool grouped = groupByShapes_->isChecked();
    return [this, traceId, range, grouped](Database& db) -> Apply {
        auto table = std::make_shared<ProfilerOpsTable>(queryProfilerOps(db, traceId, range, grouped));
        return [this, table, grouped, traceId] {
            model_->setTable(std::move(*table), grouped);
            if (sortedTrace_ == traceId) return; // keep the user's sort order
            sortedTrace_ = traceId;
            // First sight of a trace: largest self memory on the busiest device first, like
            // key_averages().table(sort_by="self_<device>_memory_usage").
            const auto& t = model_->table();
            std::vector<std::int64_t> totals(t.devices.size(), 0);
            for (const auto& r : t.rows)
                for (std::size_t d = 0; d < r.memory.size(); ++d) totals[d] += r.memory[d].allocBytes;
            const auto busiest = static_cast<int>(std::max_element(totals.begin(), totals.end()) - totals.begin());
            if (!totals.empty()) this->table()->sortByColumn(model_->firstDeviceColumn() + busiest * 2 + 1, Qt::DescendingOrder);
        };
    };
}

void ProfilerOpsView::clearRows() { model_->setTable({}, groupByShapes_->isChecked()); }

} // namespace memviz

// SPDX-License-Identifier: MIT
#pragma once
// The heaptrack tab: heaptrack_print's headline figures, the bottom-up allocation sites
// (filterable, sortable) and the backtraces of the selected site.
#include <QWidget>

#include "formats/FormatIds.h"

class QLabel;
class QLineEdit;
class QSortFilterProxyModel;
class QTableView;
class QTreeView;

namespace memviz {

class AllocationSitesModel;
class SiteStacksModel;
class TraceSession;

class AllocationSitesView : public QWidget {
    Q_OBJECT
public:
    explicit AllocationSitesView(TraceSession* session, QWidget* parent = nullptr);

    // True for traces this view has something to show for (heaptrack imports).
    static bool appliesTo(const std::string& format) { return format == format_id::kHeaptrack; }

    AllocationSitesModel* sitesModel() const { return sites_; }
    SiteStacksModel* stacksModel() const { return stacks_; }
    QTableView* table() const { return table_; }
    QLabel* totalsLabel() const { return totals_; }
    // Shows the backtraces of the site in this row of the (sorted) table.
    void selectRow(int row);

private:
    void reload();
    void showStacksOf(const QModelIndex& proxyIndex);

    TraceSession* session_;
    AllocationSitesModel* sites_;
    SiteStacksModel* stacks_;
    QSortFilterProxyModel* proxy_;
    QTableView* table_;
    QTreeView* stackView_;
    QLineEdit* filter_;
    QLabel* totals_;
};

} // namespace memviz

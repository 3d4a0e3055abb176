// SPDX-License-Identifier: MIT
#pragma once
// The heaptrack tab: heaptrack_print's headline figures, the bottom-up allocation sites
// (filterable, sortable) and the backtraces of the selected site. Sites and backtraces are
// read on a worker (BackgroundQuery): a line says so meanwhile, and a newer trace or selected
// site supersedes a read still running.
#include <QWidget>

#include "formats/FormatIds.h"
#include "widgets/BackgroundQuery.h"

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
    // The sites or the selected site's backtraces are being read on the worker.
    bool isLoading() const { return sitesQuery_.isPending() || stacksQuery_.isPending(); }
    // "Reading the backtraces…", an error, or "" when the backtraces shown are current.
    QString stacksStatusText() const;
    // Blocks until the sites and the selected site's backtraces have landed (tests, screenshots).
    void waitForQuery();

signals:
    // The backtraces of this site landed in stacksModel().
    void stacksShown(qint64 siteId);

private:
    void reload();
    void showStacksOf(const QModelIndex& proxyIndex);
    void showStacksStatus(const QString& text, bool error = false);

    TraceSession* session_;
    AllocationSitesModel* sites_;
    SiteStacksModel* stacks_;
    QSortFilterProxyModel* proxy_;
    QTableView* table_;
    QTreeView* stackView_;
    QLineEdit* filter_;
    QLabel* totals_;
    QLabel* stacksStatus_;
    BackgroundQuery sitesQuery_;
    BackgroundQuery stacksQuery_;
};

} // namespace memviz

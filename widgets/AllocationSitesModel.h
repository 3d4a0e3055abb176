// SPDX-License-Identifier: MIT
#pragma once
// heaptrack's bottom-up allocation sites as a table: function, location, module, peak
// contribution, leaked bytes, allocation calls and temporary allocations. Display text is
// human-readable; SortRole holds raw numbers; tool tips give exact bytes.
#include <QAbstractTableModel>
#include <vector>

#include "formats/heaptrack/HeaptrackQueries.h"

namespace memviz {

class AllocationSitesModel : public QAbstractTableModel {
    Q_OBJECT
public:
    enum Column { Function, Location, Module, Peak, Leaked, Allocations, Temporary, ColumnCount };
    static constexpr int SortRole = Qt::UserRole + 1;
    static constexpr int SiteIdRole = Qt::UserRole + 2;

    explicit AllocationSitesModel(QObject* parent = nullptr);

    void setSites(std::vector<AllocationSite> sites);
    const std::vector<AllocationSite>& sites() const { return sites_; }

    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

private:
    std::vector<AllocationSite> sites_;
};

} // namespace memviz

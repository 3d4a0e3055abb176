// SPDX-License-Identifier: MIT
#pragma once
// The allocations alive at the chosen moment, as a table: address, block size, requested
// size, age, when it was allocated and where (the innermost Python frame). Display text is
// human-readable; StackRole holds the allocation's stack id. Rows come sorted (AliveRowsOrder).
#include <QAbstractTableModel>
#include <memory>
#include <optional>
#include <vector>

#include "formats/snapshot/SnapshotRows.h"

namespace memviz {

class SnapshotSession;

class AliveAllocationsModel : public QAbstractTableModel {
    Q_OBJECT
public:
    enum Column { Address, Size, Requested, Age, AllocatedAt, Site, ColumnCount };
    static constexpr int StackRole = Qt::UserRole + 2;
    static constexpr int OriginRole = Qt::UserRole + 3;

    explicit AliveAllocationsModel(const SnapshotSession* session, QObject* parent = nullptr);

    // Rows: indexes into the session's allocations (of its device), in the order shown: the
    // view sorts them on a worker (AliveRowsOrder) by sortColumn() and sortOrder().
    void setRows(std::vector<std::size_t> rows);
    // The header asks for an order: remembered, and orderRequested() tells the view.
    void sort(int column, Qt::SortOrder order) override;
    int sortColumn() const { return sortColumn_; }
    Qt::SortOrder sortOrder() const { return sortOrder_; }
    // The rank of every Site text of the session's catalog (see siteRankIndex), for sorting
    // by site: ranked once per catalog, on first use (on the GUI thread: a cost in the
    // catalog's stacks, as the search's allocationFilter).
    std::shared_ptr<const std::vector<int>> siteRanks() const;
    const SnapshotAllocationRow& allocation(int row) const;

    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

signals:
    void orderRequested();

private:
    QVariant display(const SnapshotAllocationRow& a, int column) const;
    QVariant toolTip(const SnapshotAllocationRow& a, int column) const;
    // Plain numbers for CSV export: bytes, and times in ns (entries for untimed traces).
    QVariant exportValue(const SnapshotAllocationRow& a, int column) const;
    std::optional<std::int64_t> age(const SnapshotAllocationRow& a) const;

    const SnapshotSession* session_;
    std::vector<std::size_t> rows_;
    mutable std::vector<QString> sites_; // per stack, filled on first use
    QString siteText(std::int32_t stack) const;
    int sortColumn_ = Requested;
    Qt::SortOrder sortOrder_ = Qt::DescendingOrder;
    mutable std::shared_ptr<const std::vector<int>> siteRanks_; // until the session reloads
};

} // namespace memviz

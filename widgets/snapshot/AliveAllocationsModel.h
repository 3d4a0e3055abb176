// SPDX-License-Identifier: MIT
#pragma once
// The allocations alive at the chosen moment, as a table: address, block size, requested
// size, age, when it was allocated and where (the innermost Python frame). Display text is
// human-readable; SortRole holds raw numbers; StackRole the allocation's stack id.
#include <QAbstractTableModel>
#include <optional>
#include <vector>

#include "formats/snapshot/SnapshotRows.h"

namespace memviz {

class SnapshotSession;

class AliveAllocationsModel : public QAbstractTableModel {
    Q_OBJECT
public:
    enum Column { Address, Size, Requested, Age, AllocatedAt, Site, ColumnCount };
    static constexpr int SortRole = Qt::UserRole + 1;
    static constexpr int StackRole = Qt::UserRole + 2;
    static constexpr int OriginRole = Qt::UserRole + 3;

    explicit AliveAllocationsModel(const SnapshotSession* session, QObject* parent = nullptr);

    // Rows: indexes into the session's allocations (of its device).
    void setRows(std::vector<std::size_t> rows);
    const SnapshotAllocationRow& allocation(int row) const;

    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

private:
    QVariant display(const SnapshotAllocationRow& a, int column) const;
    QVariant sortKey(const SnapshotAllocationRow& a, int column) const;
    QVariant toolTip(const SnapshotAllocationRow& a, int column) const;
    // Plain numbers for CSV export: bytes, and times in ns (entries for untimed traces).
    QVariant exportValue(const SnapshotAllocationRow& a, int column) const;
    std::optional<std::int64_t> age(const SnapshotAllocationRow& a) const;

    const SnapshotSession* session_;
    std::vector<std::size_t> rows_;
    mutable std::vector<QString> sites_; // per stack, filled on first use
};

} // namespace memviz

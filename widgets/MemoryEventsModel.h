// SPDX-License-Identifier: MIT
#pragma once
// Allocations paired with their frees: device, address, size, allocation and release time,
// lifetime, the innermost op on the allocating thread, the thread.
#include <QAbstractTableModel>
#include <vector>

#include "formats/profiler/ProfilerQuery.h"

namespace memviz {

class MemoryEventsModel : public QAbstractTableModel {
    Q_OBJECT
public:
    enum Column { Device, Address, Size, Allocated, Released, Lifetime, Operator, Thread, ColumnCount };
    static constexpr int SortRole = Qt::UserRole + 1;

    explicit MemoryEventsModel(QObject* parent = nullptr);
    void setRows(std::vector<AllocationRow> rows);
    const std::vector<AllocationRow>& rows() const { return rows_; }

    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

private:
    std::vector<AllocationRow> rows_;
};

} // namespace memviz

// SPDX-License-Identifier: MIT
#pragma once
// Per-operator memory as a table model. Display text is human-readable; SortRole holds the
// raw number so sorting is numeric; tool tips give exact bytes.
#include <QAbstractTableModel>
#include <vector>

#include "store/OpsQuery.h"

namespace memviz {

class OpsTableModel : public QAbstractTableModel {
    Q_OBJECT
public:
    enum Column { Name, Allocs, BytesAllocated, BytesFreed, NetBytes, LargestAlloc, ColumnCount };
    static constexpr int SortRole = Qt::UserRole + 1;

    explicit OpsTableModel(QObject* parent = nullptr);

    void setRows(std::vector<OpRow> rows);
    // Like setRows, but rows of operators already shown are updated in place and new ones
    // appended, so a table that refreshes while a recording runs keeps its selection.
    void mergeRows(std::vector<OpRow> rows);
    const std::vector<OpRow>& rows() const { return rows_; }

    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

private:
    std::vector<OpRow> rows_;
};

} // namespace memviz

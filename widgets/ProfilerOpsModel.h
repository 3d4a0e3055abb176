// SPDX-License-Identifier: MIT
#pragma once
// key_averages-style per-operator memory of a profiler trace: Name, [Input Shapes], Calls,
// then per device Mem and Self Mem, then per device TensorBoard's Allocation Count / Size and
// Self Allocation Count / Size. SortRole holds raw numbers.
#include <QAbstractTableModel>

#include "formats/profiler/ProfilerQuery.h"

namespace memviz {

class ProfilerOpsModel : public QAbstractTableModel {
    Q_OBJECT
public:
    static constexpr int SortRole = Qt::UserRole + 1;

    explicit ProfilerOpsModel(QObject* parent = nullptr);
    void setTable(ProfilerOpsTable table, bool grouped);
    const ProfilerOpsTable& table() const { return table_; }
    bool grouped() const { return grouped_; }
    // First column of device values.
    int firstDeviceColumn() const { return grouped_ ? 3 : 2; }

    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

private:
    struct Cell {
        qint64 value = 0;
        bool bytes = true;
    };
    Cell cell(const ProfilerOpRow& row, int column) const;

    ProfilerOpsTable table_;
    bool grouped_ = false;
};

} // namespace memviz

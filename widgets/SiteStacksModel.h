// SPDX-License-Identifier: MIT
#pragma once
// The backtraces behind one allocation site, as a tree: one row per backtrace (its calls
// and bytes), and under it the frames from the site outwards to main.
#include <QAbstractItemModel>
#include <vector>

#include "formats/heaptrack/HeaptrackQueries.h"

namespace memviz {

class SiteStacksModel : public QAbstractItemModel {
    Q_OBJECT
public:
    enum Column { Frame, Location, Module, ColumnCount };

    explicit SiteStacksModel(QObject* parent = nullptr);

    void setStacks(std::vector<SiteStack> stacks);
    const std::vector<SiteStack>& stacks() const { return stacks_; }

    QModelIndex index(int row, int column, const QModelIndex& parent = {}) const override;
    QModelIndex parent(const QModelIndex& child) const override;
    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

private:
    // Internal id 0 marks a backtrace row; frame rows carry their backtrace's row + 1.
    std::vector<SiteStack> stacks_;
};

} // namespace memviz

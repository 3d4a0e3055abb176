// SPDX-License-Identifier: MIT
#pragma once
// A call tree (model/trace/StackTree) as a Qt item model: heaptrack_gui's top-down tree, or,
// given invertedStackTree(), its bottom-up tree. Columns: frame, inclusive, self, location,
// module; SortRole gives raw numbers for a QSortFilterProxyModel. Children are listed largest
// first, as the tree stores them; each index's internal id is its node id.
#include <QAbstractItemModel>
#include <memory>

#include "trace/StackTree.h"

namespace memviz {

class StackTreeModel : public QAbstractItemModel {
    Q_OBJECT
public:
    enum Column { Frame, Inclusive, Self, Location, Module, ColumnCount };
    static constexpr int SortRole = Qt::UserRole + 1;
    static constexpr int NodeRole = Qt::UserRole + 2;

    explicit StackTreeModel(QObject* parent = nullptr);
    void setTree(std::shared_ptr<const StackTree> tree, bool bytes);
    const StackTree* tree() const { return tree_.get(); }
    // The index of a node (invalid for the root, which the model does not show as a row).
    QModelIndex indexOfNode(std::int32_t node) const;

    QModelIndex index(int row, int column, const QModelIndex& parent = {}) const override;
    QModelIndex parent(const QModelIndex& child) const override;
    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

private:
    std::int32_t nodeOf(const QModelIndex& index) const { return index.isValid() ? static_cast<std::int32_t>(index.internalId()) : 0; }
    int rowOf(std::int32_t node) const;

    std::shared_ptr<const StackTree> tree_;
    bool bytes_ = true;
};

} // namespace memviz

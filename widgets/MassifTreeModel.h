// SPDX-License-Identifier: MIT
#pragma once
// The heap tree of one massif snapshot: allocation function at the root, then the code that
// called it, each level sorted by bytes, with ms_print's share of the snapshot's total.
#include <QAbstractItemModel>
#include <vector>

#include "formats/massif/MassifQueries.h"

namespace memviz {

class MassifTreeModel : public QAbstractItemModel {
    Q_OBJECT
public:
    enum Column { Function, Bytes, Share, Location, ColumnCount };
    static constexpr int SortRole = Qt::UserRole + 1;

    explicit MassifTreeModel(QObject* parent = nullptr);

    // `totalBytes` (heap + extra heap + stacks) is what shares are relative to, as in ms_print.
    void setTree(MassifTree tree, std::int64_t totalBytes);
    const MassifTree& tree() const { return tree_; }

    QModelIndex index(int row, int column, const QModelIndex& parent = {}) const override;
    QModelIndex parent(const QModelIndex& child) const override;
    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

private:
    // An index's internal id is its node's position in tree_.nodes.
    MassifTree tree_;
    std::int64_t total_ = 0;
    std::vector<std::size_t> parentOf_; // node position -> parent position (root: itself)
    std::vector<int> rowOf_;            // node position -> row under its parent
};

} // namespace memviz

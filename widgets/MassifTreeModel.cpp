// SPDX-License-Identifier: MIT
#include "widgets/MassifTreeModel.h"

#include "words/Units.h"

namespace memviz {

MassifTreeModel::MassifTreeModel(QObject* parent) : QAbstractItemModel(parent) {}

void MassifTreeModel::setTree(MassifTree tree, std::int64_t totalBytes) {
    beginResetModel();
    tree_ = std::move(tree);
    total_ = totalBytes;
    parentOf_.assign(tree_.nodes.size(), 0);
    rowOf_.assign(tree_.nodes.size(), 0);
    for (std::size_t p = 0; p < tree_.nodes.size(); ++p) {
        const auto& children = tree_.nodes[p].children;
        for (std::size_t r = 0; r < children.size(); ++r) {
            parentOf_[children[r]] = p;
            rowOf_[children[r]] = static_cast<int>(r);
        }
    }
    endResetModel();
}

QModelIndex MassifTreeModel::index(int row, int column, const QModelIndex& parent) const {
    if (row < 0 || column < 0 || column >= ColumnCount || tree_.nodes.empty()) return {};
    if (!parent.isValid()) return row == 0 ? createIndex(0, column, quintptr(0)) : QModelIndex();
    const auto& children = tree_.nodes[parent.internalId()].children;
    if (row >= static_cast<int>(children.size())) return {};
    return createIndex(row, column, quintptr(children[static_cast<std::size_t>(row)]));
}

QModelIndex MassifTreeModel::parent(const QModelIndex& child) const {
    if (!child.isValid() || child.internalId() == 0) return {};
    const std::size_t p = parentOf_[child.internalId()];
    return createIndex(p == 0 ? 0 : rowOf_[p], 0, quintptr(p));
}

int MassifTreeModel::rowCount(const QModelIndex& parent) const {
    if (!parent.isValid()) return tree_.nodes.empty() ? 0 : 1;
    if (parent.column() != 0) return 0;
    return static_cast<int>(tree_.nodes[parent.internalId()].children.size());
}

int MassifTreeModel::columnCount(const QModelIndex&) const { return ColumnCount; }

QVariant MassifTreeModel::data(const QModelIndex& index, int role) const {
    if (!index.isValid()) return {};
    const MassifNode& n = tree_.nodes[index.internalId()];
    const double share = total_ > 0 ? 100.0 * static_cast<double>(n.bytes) / static_cast<double>(total_) : 0.0;
    switch (role) {
    case Qt::DisplayRole:
        switch (index.column()) {
        case Function: return QString::fromStdString(n.function);
        case Bytes: return QString::fromStdString(formatBytes(static_cast<double>(n.bytes)));
        case Share: return QStringLiteral("%1 %").arg(share, 0, 'f', 2);
        case Location: return QString::fromStdString(n.location);
        default: return {};
        }
    case SortRole:
        if (index.column() == Bytes || index.column() == Share) return QVariant::fromValue<qint64>(n.bytes);
        return data(index, Qt::DisplayRole);
    case Qt::ToolTipRole:
        if (index.column() == Bytes) return tr("%L1 bytes").arg(n.bytes);
        return QString::fromStdString(n.label);
    case Qt::TextAlignmentRole:
        if (index.column() == Bytes || index.column() == Share) return QVariant::fromValue(Qt::AlignRight | Qt::AlignVCenter);
        return {};
    default: return {};
    }
}

QVariant MassifTreeModel::headerData(int section, Qt::Orientation orientation, int role) const {
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole) return {};
    switch (section) {
    case Function: return tr("Allocated by");
    case Bytes: return tr("Bytes");
    case Share: return tr("Of total");
    case Location: return tr("Location");
    default: return {};
    }
}

} // namespace memviz

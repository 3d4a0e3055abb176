// SPDX-License-Identifier: MIT
#include "widgets/flame/StackTreeModel.h"

#include <QLocale>
#include <algorithm>

#include "words/Units.h"

namespace memviz {

StackTreeModel::StackTreeModel(QObject* parent) : QAbstractItemModel(parent) {}

void StackTreeModel::setTree(std::shared_ptr<const StackTree> tree, bool bytes) {
    beginResetModel();
    tree_ = std::move(tree);
    bytes_ = bytes;
    endResetModel();
}

int StackTreeModel::rowOf(std::int32_t node) const {
    return tree_->nodes[static_cast<std::size_t>(node)].row;
}

QModelIndex StackTreeModel::indexOfNode(std::int32_t node) const {
    if (!tree_ || node <= 0 || static_cast<std::size_t>(node) >= tree_->nodes.size()) return {};
    return createIndex(rowOf(node), 0, static_cast<quintptr>(node));
}

QModelIndex StackTreeModel::index(int row, int column, const QModelIndex& parent) const {
    if (!tree_ || row < 0 || column < 0 || column >= ColumnCount) return {};
    const auto& children = tree_->nodes[static_cast<std::size_t>(nodeOf(parent))].children;
    if (row >= static_cast<int>(children.size())) return {};
    return createIndex(row, column, static_cast<quintptr>(children[static_cast<std::size_t>(row)]));
}

QModelIndex StackTreeModel::parent(const QModelIndex& child) const {
    if (!tree_ || !child.isValid()) return {};
    const std::int32_t parent = tree_->nodes[static_cast<std::size_t>(nodeOf(child))].parent;
    if (parent <= 0) return {};
    return createIndex(rowOf(parent), 0, static_cast<quintptr>(parent));
}

int StackTreeModel::rowCount(const QModelIndex& parent) const {
    if (!tree_ || (parent.isValid() && parent.column() != 0)) return 0;
    return static_cast<int>(tree_->nodes[static_cast<std::size_t>(nodeOf(parent))].children.size());
}

int StackTreeModel::columnCount(const QModelIndex&) const { return ColumnCount; }

QVariant StackTreeModel::data(const QModelIndex& index, int role) const {
    if (!tree_ || !index.isValid()) return {};
    const std::int32_t node = nodeOf(index);
    const StackNode& n = tree_->nodes[static_cast<std::size_t>(node)];
    const StackFrameInfo& f = tree_->frameAt(node);
    if (role == NodeRole) return node;
    const auto value = [this](std::int64_t v) {
        return bytes_ ? QString::fromStdString(formatBytes(static_cast<double>(v))) : QLocale().toString(static_cast<qlonglong>(v));
    };
    if (role == SortRole) {
        switch (index.column()) {
        case Inclusive: return static_cast<qlonglong>(n.inclusive);
        case Self: return static_cast<qlonglong>(n.self);
        default: break;
        }
    }
    if (role != Qt::DisplayRole && role != SortRole) {
        if (role == Qt::TextAlignmentRole && (index.column() == Inclusive || index.column() == Self))
            return QVariant::fromValue(Qt::AlignRight | Qt::AlignVCenter);
        return {};
    }
    switch (index.column()) {
    case Frame: return QString::fromStdString(f.function);
    case Inclusive: return value(n.inclusive);
    case Self: return value(n.self);
    case Location:
        return f.file.empty() ? QString() : QString::fromStdString(f.file) + (f.line > 0 ? ":" + QString::number(f.line) : QString());
    case Module: return QString::fromStdString(f.module);
    default: return {};
    }
}

QVariant StackTreeModel::headerData(int section, Qt::Orientation orientation, int role) const {
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole) return {};
    switch (section) {
    case Frame: return tr("Frame");
    case Inclusive: return tr("Inclusive");
    case Self: return tr("Self");
    case Location: return tr("Location");
    case Module: return tr("Module");
    default: return {};
    }
}

} // namespace memviz

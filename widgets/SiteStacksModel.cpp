// SPDX-License-Identifier: MIT
#include "widgets/SiteStacksModel.h"

#include <QFileInfo>

#include "words/Units.h"

namespace memviz {

SiteStacksModel::SiteStacksModel(QObject* parent) : QAbstractItemModel(parent) {}

void SiteStacksModel::setStacks(std::vector<SiteStack> stacks) {
    beginResetModel();
    stacks_ = std::move(stacks);
    endResetModel();
}

QModelIndex SiteStacksModel::index(int row, int column, const QModelIndex& parent) const {
    if (row < 0 || column < 0 || column >= ColumnCount) return {};
    if (!parent.isValid()) {
        if (row >= static_cast<int>(stacks_.size())) return {};
        return createIndex(row, column, quintptr(0));
    }
    if (parent.internalId() != 0 || parent.row() >= static_cast<int>(stacks_.size())) return {};
    if (row >= static_cast<int>(stacks_[static_cast<std::size_t>(parent.row())].frames.size())) return {};
    return createIndex(row, column, quintptr(parent.row() + 1));
}

QModelIndex SiteStacksModel::parent(const QModelIndex& child) const {
    if (!child.isValid() || child.internalId() == 0) return {};
    return createIndex(static_cast<int>(child.internalId() - 1), 0, quintptr(0));
}

int SiteStacksModel::rowCount(const QModelIndex& parent) const {
    if (!parent.isValid()) return static_cast<int>(stacks_.size());
    if (parent.internalId() != 0 || parent.column() != 0) return 0;
    return static_cast<int>(stacks_[static_cast<std::size_t>(parent.row())].frames.size());
}

int SiteStacksModel::columnCount(const QModelIndex&) const { return ColumnCount; }

QVariant SiteStacksModel::data(const QModelIndex& index, int role) const {
    if (!index.isValid()) return {};
    if (index.internalId() == 0) {
        const SiteStack& k = stacks_[static_cast<std::size_t>(index.row())];
        if (role == Qt::DisplayRole && index.column() == Frame)
            return tr("%1 calls, %2 at the peak, %3 leaked, %4 temporary")
                .arg(k.allocations)
                .arg(QString::fromStdString(formatBytes(static_cast<double>(k.peakBytes))),
                     QString::fromStdString(formatBytes(static_cast<double>(k.leakedBytes))))
                .arg(k.temporary);
        return {};
    }
    const SiteStack& k = stacks_[static_cast<std::size_t>(index.internalId() - 1)];
    const StackFrame& f = k.frames[static_cast<std::size_t>(index.row())];
    if (role == Qt::DisplayRole) {
        switch (index.column()) {
        case Frame: {
            const QString name = QString::fromStdString(frameFunctionText(f.function, f.address));
            return f.inlined ? tr("%1 (inlined)").arg(name) : name;
        }
        case Location:
            return f.file.empty() ? QString()
                                  : QFileInfo(QString::fromStdString(f.file)).fileName() + ":" + QString::number(f.line);
        case Module: return QFileInfo(QString::fromStdString(f.module)).fileName();
        default: return {};
        }
    }
    if (role == Qt::ToolTipRole) {
        switch (index.column()) {
        case Frame: return QString::fromStdString(frameFunctionText(f.function, f.address));
        case Location: return f.file.empty() ? QString() : QString::fromStdString(f.file) + ":" + QString::number(f.line);
        case Module: return QString::fromStdString(f.module);
        default: return {};
        }
    }
    return {};
}

QVariant SiteStacksModel::headerData(int section, Qt::Orientation orientation, int role) const {
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole) return {};
    switch (section) {
    case Frame: return tr("Backtrace");
    case Location: return tr("Location");
    case Module: return tr("Module");
    default: return {};
    }
}

} // namespace memviz

// SPDX-License-Identifier: MIT
#include "widgets/OpsTableModel.h"

#include "words/Units.h"
#include "widgets/Export.h"

#include <unordered_map>

namespace memviz {

OpsTableModel::OpsTableModel(QObject* parent) : QAbstractTableModel(parent) {}

void OpsTableModel::setRows(std::vector<OpRow> rows) {
    beginResetModel();
    rows_ = std::move(rows);
    endResetModel();
}

void OpsTableModel::mergeRows(std::vector<OpRow> rows) {
    std::unordered_map<std::string, std::size_t> fresh;
    for (std::size_t i = 0; i < rows.size(); ++i) fresh.emplace(rows[i].name, i);
    for (int row = static_cast<int>(rows_.size()) - 1; row >= 0; --row) {
        if (fresh.count(rows_[static_cast<std::size_t>(row)].name)) continue;
        beginRemoveRows({}, row, row);
        rows_.erase(rows_.begin() + row);
        endRemoveRows();
    }
    std::unordered_map<std::string, std::size_t> shown;
    for (std::size_t i = 0; i < rows_.size(); ++i) {
        shown.emplace(rows_[i].name, i);
        const OpRow& now = rows[fresh.at(rows_[i].name)];
        const OpRow& old = rows_[i];
        if (now.allocs != old.allocs || now.frees != old.frees || now.bytesAllocated != old.bytesAllocated ||
            now.bytesFreed != old.bytesFreed || now.largestAlloc != old.largestAlloc) {
            rows_[i] = now; // a copy: `rows` is read again below
            emit dataChanged(index(static_cast<int>(i), 0), index(static_cast<int>(i), ColumnCount - 1));
        }
    }
    std::vector<OpRow> added;
    for (OpRow& r : rows)
        if (!shown.count(r.name)) added.push_back(std::move(r));
    if (added.empty()) return;
    const int first = static_cast<int>(rows_.size());
    beginInsertRows({}, first, first + static_cast<int>(added.size()) - 1);
    for (OpRow& r : added) rows_.push_back(std::move(r));
    endInsertRows();
}

int OpsTableModel::rowCount(const QModelIndex& parent) const { return parent.isValid() ? 0 : static_cast<int>(rows_.size()); }

int OpsTableModel::columnCount(const QModelIndex& parent) const { return parent.isValid() ? 0 : ColumnCount; }

QVariant OpsTableModel::data(const QModelIndex& index, int role) const {
    if (!index.isValid() || index.row() >= static_cast<int>(rows_.size()) || index.column() >= ColumnCount) return {};
    const OpRow& r = rows_[static_cast<std::size_t>(index.row())];
    qint64 value = 0;
    switch (index.column()) {
    case Name:
        if (role == Qt::DisplayRole || role == SortRole || role == Qt::ToolTipRole || role == exporting::kExportRole)
            return QString::fromStdString(r.name);
        return {};
    case Allocs: value = r.allocs; break;
    case BytesAllocated: value = r.bytesAllocated; break;
    case BytesFreed: value = r.bytesFreed; break;
    case NetBytes: value = r.netBytes(); break;
    case LargestAlloc: value = r.largestAlloc; break;
    default: return {};
    }
    switch (role) {
    case Qt::DisplayRole:
        return index.column() == Allocs ? QString::number(value)
                                        : QString::fromStdString(formatBytes(static_cast<double>(value)));
    case SortRole:
    case exporting::kExportRole: return value;
    case Qt::ToolTipRole: return index.column() == Allocs ? QString::number(value) : tr("%L1 bytes").arg(value);
    case Qt::TextAlignmentRole: return QVariant::fromValue(Qt::AlignRight | Qt::AlignVCenter);
    default: return {};
    }
}

QVariant OpsTableModel::headerData(int section, Qt::Orientation orientation, int role) const {
    if (orientation == Qt::Horizontal && role == exporting::kExportRole && section > Allocs && section < ColumnCount)
        return exporting::headerWithUnit(headerData(section, orientation, Qt::DisplayRole).toString(), exporting::bytesUnit());
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole) return {};
    switch (section) {
    case Name: return tr("Operator");
    case Allocs: return tr("Allocations");
    case BytesAllocated: return tr("Allocated");
    case BytesFreed: return tr("Freed");
    case NetBytes: return tr("Net");
    case LargestAlloc: return tr("Largest");
    default: return {};
    }
}

} // namespace memviz

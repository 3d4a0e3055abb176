#include "widgets/OpsTableModel.h"

#include "core/Units.h"

namespace memviz {

OpsTableModel::OpsTableModel(QObject* parent) : QAbstractTableModel(parent) {}

void OpsTableModel::setRows(std::vector<OpRow> rows) {
    beginResetModel();
    rows_ = std::move(rows);
    endResetModel();
}

int OpsTableModel::rowCount(const QModelIndex& parent) const {
    return parent.isValid() ? 0 : static_cast<int>(rows_.size());
}

int OpsTableModel::columnCount(const QModelIndex& parent) const { return parent.isValid() ? 0 : ColumnCount; }

QVariant OpsTableModel::data(const QModelIndex& index, int role) const {
    if (!index.isValid() || index.row() >= static_cast<int>(rows_.size()) || index.column() >= ColumnCount) return {};
    const OpRow& r = rows_[static_cast<std::size_t>(index.row())];
    qint64 value = 0;
    switch (index.column()) {
    case Name:
        if (role == Qt::DisplayRole || role == SortRole || role == Qt::ToolTipRole) return QString::fromStdString(r.name);
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
    case SortRole: return value;
    case Qt::ToolTipRole:
        return index.column() == Allocs ? QString::number(value) : tr("%L1 bytes").arg(value);
    case Qt::TextAlignmentRole: return QVariant::fromValue(Qt::AlignRight | Qt::AlignVCenter);
    default: return {};
    }
}

QVariant OpsTableModel::headerData(int section, Qt::Orientation orientation, int role) const {
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

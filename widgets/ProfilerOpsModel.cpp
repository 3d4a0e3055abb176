// SPDX-License-Identifier: MIT
#include "widgets/ProfilerOpsModel.h"
#include "widgets/Export.h"

#include "words/Units.h"

namespace memviz {

namespace {
constexpr int kMemColumnsPerDevice = 2;   // Mem, Self Mem
constexpr int kAllocColumnsPerDevice = 4; // Allocation Count, Allocation Size, Self ...
} // namespace

ProfilerOpsModel::ProfilerOpsModel(QObject* parent) : QAbstractTableModel(parent) {}

void ProfilerOpsModel::setTable(ProfilerOpsTable table, bool grouped) {
    beginResetModel();
    table_ = std::move(table);
    grouped_ = grouped;
    endResetModel();
}

int ProfilerOpsModel::rowCount(const QModelIndex& parent) const {
    return parent.isValid() ? 0 : static_cast<int>(table_.rows.size());
}

int ProfilerOpsModel::columnCount(const QModelIndex& parent) const {
    if (parent.isValid()) return 0;
    return firstDeviceColumn() + static_cast<int>(table_.devices.size()) * (kMemColumnsPerDevice + kAllocColumnsPerDevice);
}

ProfilerOpsModel::Cell ProfilerOpsModel::cell(const ProfilerOpRow& row, int column) const {
    const int devices = static_cast<int>(table_.devices.size());
    int c = column - firstDeviceColumn();
    if (c < devices * kMemColumnsPerDevice) {
        const OpMemory& m = row.memory[static_cast<std::size_t>(c / kMemColumnsPerDevice)];
        return {c % kMemColumnsPerDevice == 0 ? m.bytes : m.selfBytes, true};
    }
    c -= devices * kMemColumnsPerDevice;
    const OpMemory& m = row.memory[static_cast<std::size_t>(c / kAllocColumnsPerDevice)];
    switch (c % kAllocColumnsPerDevice) {
    case 0: return {m.allocs, false};
    case 1: return {m.allocBytes, true};
    case 2: return {m.selfAllocs, false};
    default: return {m.selfAllocBytes, true};
    }
}

QVariant ProfilerOpsModel::data(const QModelIndex& index, int role) const {
    if (!index.isValid() || index.row() >= rowCount() || index.column() >= columnCount()) return {};
    const ProfilerOpRow& row = table_.rows[static_cast<std::size_t>(index.row())];
    const int column = index.column();
    if (column == 0 || (grouped_ && column == 1)) {
        const QString text = QString::fromStdString(column == 0 ? row.name : row.shapes);
        if (role == Qt::DisplayRole || role == SortRole || role == Qt::ToolTipRole || role == exporting::kExportRole) return text;
        return {};
    }
    const bool callsColumn = column == firstDeviceColumn() - 1;
    const Cell c = callsColumn ? Cell{row.calls, false} : cell(row, column);
    switch (role) {
    case Qt::DisplayRole:
        return c.bytes ? QString::fromStdString(formatBytes(static_cast<double>(c.value))) : QString::number(c.value);
    case SortRole:
    case exporting::kExportRole: return c.value;
    case Qt::ToolTipRole: return c.bytes ? tr("%L1 bytes").arg(c.value) : QString::number(c.value);
    case Qt::TextAlignmentRole: return QVariant::fromValue(Qt::AlignRight | Qt::AlignVCenter);
    default: return {};
    }
}

QVariant ProfilerOpsModel::headerData(int section, Qt::Orientation orientation, int role) const {
    if (orientation == Qt::Horizontal && role == exporting::kExportRole) {
        const QString title = headerData(section, orientation, Qt::DisplayRole).toString();
        // Memory columns hold bytes; of the allocation columns, the sizes (count, size, ...).
        const int c = section - firstDeviceColumn();
        const int memColumns = static_cast<int>(table_.devices.size()) * kMemColumnsPerDevice;
        const bool bytes = c >= 0 && (c < memColumns || (c - memColumns) % kAllocColumnsPerDevice % 2 == 1);
        return bytes ? exporting::headerWithUnit(title, exporting::bytesUnit()) : title;
    }
    if (orientation != Qt::Horizontal || (role != Qt::DisplayRole && role != Qt::ToolTipRole)) return {};
    if (section == 0) return tr("Name");
    if (grouped_ && section == 1) return tr("Input Shapes");
    if (section == firstDeviceColumn() - 1) return tr("Calls");
    const int devices = static_cast<int>(table_.devices.size());
    int c = section - firstDeviceColumn();
    if (c < 0 || c >= devices * (kMemColumnsPerDevice + kAllocColumnsPerDevice)) return {};
    if (c < devices * kMemColumnsPerDevice) {
        const QString dev = QString::fromStdString(table_.devices[static_cast<std::size_t>(c / kMemColumnsPerDevice)]);
        if (role == Qt::ToolTipRole)
            return tr("Sum of Bytes of %1 memory events inside each call (Self: minus its children)").arg(dev);
        return c % kMemColumnsPerDevice == 0 ? tr("%1 Mem").arg(dev) : tr("Self %1 Mem").arg(dev);
    }
    c -= devices * kMemColumnsPerDevice;
    const QString dev = QString::fromStdString(table_.devices[static_cast<std::size_t>(c / kAllocColumnsPerDevice)]);
    if (role == Qt::ToolTipRole) return tr("Allocations (positive Bytes only) on %1").arg(dev);
    switch (c % kAllocColumnsPerDevice) {
    case 0: return tr("%1 Allocation Count").arg(dev);
    case 1: return tr("%1 Allocation Size").arg(dev);
    case 2: return tr("Self %1 Allocation Count").arg(dev);
    default: return tr("Self %1 Allocation Size").arg(dev);
    }
}

} // namespace memviz

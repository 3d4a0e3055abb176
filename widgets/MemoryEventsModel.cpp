// SPDX-License-Identifier: MIT
#include "widgets/MemoryEventsModel.h"

#include <limits>

#include "words/Units.h"
#include "widgets/Export.h"

namespace memviz {

MemoryEventsModel::MemoryEventsModel(QObject* parent) : QAbstractTableModel(parent) {}

void MemoryEventsModel::setRows(std::vector<AllocationRow> rows) {
    beginResetModel();
    rows_ = std::move(rows);
    endResetModel();
}

int MemoryEventsModel::rowCount(const QModelIndex& parent) const { return parent.isValid() ? 0 : static_cast<int>(rows_.size()); }
int MemoryEventsModel::columnCount(const QModelIndex& parent) const { return parent.isValid() ? 0 : ColumnCount; }

QVariant MemoryEventsModel::data(const QModelIndex& index, int role) const {
    if (!index.isValid() || index.row() >= rowCount() || index.column() >= ColumnCount) return {};
    const AllocationRow& r = rows_[static_cast<std::size_t>(index.row())];
    const auto time = [&](const std::optional<std::int64_t>& t, const QString& missing) -> QVariant {
        if (role == exporting::kExportRole) return t ? QVariant::fromValue<qint64>(*t) : QVariant(QString());
        if (role == SortRole)
            return t ? QVariant::fromValue<qint64>(*t) : QVariant::fromValue<qint64>(std::numeric_limits<qint64>::max());
        return t ? QString::fromStdString(formatDuration(static_cast<double>(*t))) : missing;
    };
    if (role == Qt::TextAlignmentRole)
        return index.column() == Device || index.column() == Operator || index.column() == Thread
                   ? QVariant::fromValue(Qt::AlignLeft | Qt::AlignVCenter)
                   : QVariant::fromValue(Qt::AlignRight | Qt::AlignVCenter);
    if (role != Qt::DisplayRole && role != SortRole && role != Qt::ToolTipRole && role != exporting::kExportRole) return {};
    switch (index.column()) {
    case Device: return QString::fromStdString(r.device);
    case Address:
        if (role == SortRole) return QVariant::fromValue<qulonglong>(static_cast<qulonglong>(r.address));
        // Exported as the hex text people search for.
        return QStringLiteral("0x%1").arg(static_cast<qulonglong>(r.address), 0, 16);
    case Size:
        if (role == SortRole || role == exporting::kExportRole) return QVariant::fromValue<qint64>(r.size);
        if (role == Qt::ToolTipRole) return tr("%L1 bytes").arg(r.size);
        return QString::fromStdString(formatBytes(static_cast<double>(r.size)));
    case Allocated: return time(r.allocTime, tr("before the trace"));
    case Released: return time(r.freeTime, tr("alive at the end"));
    case Lifetime: {
        const std::optional<std::int64_t> life = r.allocTime && r.freeTime
                                                     ? std::optional<std::int64_t>(*r.freeTime - *r.allocTime)
                                                     : std::nullopt;
        return time(life, QStringLiteral("\u2013"));
    }
    case Operator: return QString::fromStdString(r.op);
    case Thread: return QString::fromStdString(r.thread);
    default: return {};
    }
}

QVariant MemoryEventsModel::headerData(int section, Qt::Orientation orientation, int role) const {
    if (orientation == Qt::Horizontal && role == exporting::kExportRole) {
        const QString title = headerData(section, orientation, Qt::DisplayRole).toString();
        if (section == Size) return exporting::headerWithUnit(title, exporting::bytesUnit());
        if (section == Allocated || section == Released || section == Lifetime)
            return exporting::headerWithUnit(title, exporting::nsUnit());
        return title;
    }
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole) return {};
    switch (section) {
    case Device: return tr("Device");
    case Address: return tr("Address");
    case Size: return tr("Size");
    case Allocated: return tr("Allocated at");
    case Released: return tr("Released at");
    case Lifetime: return tr("Lifetime");
    case Operator: return tr("Operator (innermost, same thread)");
    case Thread: return tr("Thread");
    default: return {};
    }
}

} // namespace memviz

// SPDX-License-Identifier: MIT
#include "widgets/AllocationSitesModel.h"
#include "widgets/Export.h"

#include <QFileInfo>

#include "words/Units.h"

namespace memviz {

namespace {

QString locationText(const AllocationSite& s) {
    if (s.file.empty()) return {};
    return QFileInfo(QString::fromStdString(s.file)).fileName() + ":" + QString::number(s.line);
}

QString fullLocation(const AllocationSite& s) {
    if (s.file.empty()) return {};
    return QString::fromStdString(s.file) + ":" + QString::number(s.line);
}

} // namespace

AllocationSitesModel::AllocationSitesModel(QObject* parent) : QAbstractTableModel(parent) {}

void AllocationSitesModel::setSites(std::vector<AllocationSite> sites) {
    beginResetModel();
    sites_ = std::move(sites);
    endResetModel();
}

int AllocationSitesModel::rowCount(const QModelIndex& parent) const {
    return parent.isValid() ? 0 : static_cast<int>(sites_.size());
}

int AllocationSitesModel::columnCount(const QModelIndex& parent) const { return parent.isValid() ? 0 : ColumnCount; }

QVariant AllocationSitesModel::data(const QModelIndex& index, int role) const {
    if (!index.isValid() || index.row() >= static_cast<int>(sites_.size()) || index.column() >= ColumnCount) return {};
    const AllocationSite& s = sites_[static_cast<std::size_t>(index.row())];
    if (role == SiteIdRole) return QVariant::fromValue<qint64>(s.id);
    switch (index.column()) {
    case Function: {
        const QString text = QString::fromStdString(frameFunctionText(s.function, s.address));
        if (role == Qt::DisplayRole || role == SortRole || role == Qt::ToolTipRole || role == exporting::kExportRole) return text;
        return {};
    }
    case Location:
        if (role == exporting::kExportRole) return fullLocation(s);
        if (role == Qt::DisplayRole || role == SortRole) return locationText(s);
        if (role == Qt::ToolTipRole) return fullLocation(s);
        return {};
    case Module:
        if (role == exporting::kExportRole) return QString::fromStdString(s.module);
        if (role == Qt::DisplayRole || role == SortRole) return QFileInfo(QString::fromStdString(s.module)).fileName();
        if (role == Qt::ToolTipRole) return QString::fromStdString(s.module);
        return {};
    default: break;
    }
    const bool bytes = index.column() == Peak || index.column() == Leaked;
    const qint64 value = index.column() == Peak          ? s.peakBytes
                         : index.column() == Leaked      ? s.leakedBytes
                         : index.column() == Allocations ? s.allocations
                                                         : s.temporary;
    switch (role) {
    case Qt::DisplayRole: return bytes ? QString::fromStdString(formatBytes(static_cast<double>(value))) : QString::number(value);
    case SortRole:
    case exporting::kExportRole: return value;
    case Qt::ToolTipRole: return bytes ? tr("%L1 bytes").arg(value) : QString::number(value);
    case Qt::TextAlignmentRole: return QVariant::fromValue(Qt::AlignRight | Qt::AlignVCenter);
    default: return {};
    }
}

QVariant AllocationSitesModel::headerData(int section, Qt::Orientation orientation, int role) const {
    if (orientation != Qt::Horizontal) return {};
    if (role == exporting::kExportRole) {
        const QString title = headerData(section, orientation, Qt::DisplayRole).toString();
        return section == Peak || section == Leaked ? exporting::headerWithUnit(title, exporting::bytesUnit()) : title;
    }
    if (role == Qt::ToolTipRole) {
        switch (section) {
        case Peak: return tr("Bytes this site held when the heap was at its peak");
        case Leaked: return tr("Bytes never freed (heaptrack's leak suppressions applied)");
        case Allocations: return tr("Calls to allocation functions");
        case Temporary: return tr("Allocations freed right after they were made, with no other allocation between");
        default: return {};
        }
    }
    if (role != Qt::DisplayRole) return {};
    switch (section) {
    case Function: return tr("Allocation site");
    case Location: return tr("Location");
    case Module: return tr("Module");
    case Peak: return tr("Peak");
    case Leaked: return tr("Leaked");
    case Allocations: return tr("Allocations");
    case Temporary: return tr("Temporary");
    default: return {};
    }
}

} // namespace memviz

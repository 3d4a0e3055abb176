// SPDX-License-Identifier: MIT
#include "widgets/snapshot/SegmentsModel.h"

#include <QFont>

#include "words/Units.h"
#include "widgets/Export.h"

namespace memviz {

namespace {

std::int64_t bytesOf(const StateSegment& s, StateBlockKind kind) {
    std::int64_t sum = 0;
    for (const StateBlock& b : s.blocks)
        if (b.kind == kind) sum += b.size;
    return sum;
}

} // namespace

SegmentsModel::SegmentsModel(QObject* parent) : QAbstractTableModel(parent) {}

void SegmentsModel::setSegments(std::vector<StateSegment> segments) {
    beginResetModel();
    segments_ = std::move(segments);
    endResetModel();
}

int SegmentsModel::rowCount(const QModelIndex& parent) const { return parent.isValid() ? 0 : static_cast<int>(segments_.size()); }

int SegmentsModel::columnCount(const QModelIndex& parent) const { return parent.isValid() ? 0 : ColumnCount; }

QVariant SegmentsModel::data(const QModelIndex& index, int role) const {
    if (!index.isValid() || index.row() >= static_cast<int>(segments_.size()) || index.column() >= ColumnCount) return {};
    const StateSegment& s = segments_[static_cast<std::size_t>(index.row())];
    if (index.column() == Address) {
        if (role == Qt::DisplayRole || role == Qt::ToolTipRole) {
            QString text = QStringLiteral("0x%1").arg(static_cast<quint64>(s.address), 0, 16);
            if (s.expandable) text += tr(" (expandable)");
            return text;
        }
        if (role == SortRole) return static_cast<quint64>(s.address);
        if (role == Qt::FontRole) {
            QFont f;
            f.setFamily(QStringLiteral("monospace"));
            f.setStyleHint(QFont::Monospace);
            return f;
        }
        return {};
    }
    qint64 value = 0;
    switch (index.column()) {
    case Size: value = s.size; break;
    case Allocated: value = bytesOf(s, StateBlockKind::Allocated); break;
    case PendingFree: value = bytesOf(s, StateBlockKind::PendingFree); break;
    case Free: value = s.size - s.usedBytes(); break;
    case LargestFree: value = s.largestFree(); break;
    case Blocks: value = static_cast<qint64>(s.blocks.size()); break;
    case Stream: value = s.stream; break;
    default: return {};
    }
    const bool isBytes = index.column() != Blocks && index.column() != Stream;
    switch (role) {
    case Qt::DisplayRole:
        if (index.column() == Stream) return QStringLiteral("0x%1").arg(static_cast<quint64>(value), 0, 16);
        return isBytes ? QString::fromStdString(formatBytes(static_cast<double>(value))) : QString::number(value);
    case SortRole: return value;
    case exporting::kExportRole:
        if (index.column() == Stream) return QStringLiteral("0x%1").arg(static_cast<quint64>(value), 0, 16);
        return value;
    case Qt::ToolTipRole: return isBytes ? tr("%L1 bytes").arg(value) : QString::number(value);
    case Qt::TextAlignmentRole: return QVariant::fromValue(Qt::AlignRight | Qt::AlignVCenter);
    default: return {};
    }
}

QVariant SegmentsModel::headerData(int section, Qt::Orientation orientation, int role) const {
    if (orientation == Qt::Horizontal && role == exporting::kExportRole) {
        const QString title = headerData(section, orientation, Qt::DisplayRole).toString();
        const bool bytes = section != Address && section != Blocks && section != Stream;
        return bytes ? exporting::headerWithUnit(title, exporting::bytesUnit()) : title;
    }
    if (orientation != Qt::Horizontal) return {};
    if (role == Qt::ToolTipRole) {
        switch (section) {
        case PendingFree: return tr("Freed by the program, waiting for other streams' work before the allocator reuses it");
        case Free: return tr("Reserved but not in any block: reusable by the allocator, still held from other programs");
        case LargestFree: return tr("The largest request this segment could serve without reserving more memory");
        default: return {};
        }
    }
    if (role != Qt::DisplayRole) return {};
    switch (section) {
    case Address: return tr("Segment");
    case Size: return tr("Size");
    case Allocated: return tr("Allocated");
    case PendingFree: return tr("Pending free");
    case Free: return tr("Free");
    case LargestFree: return tr("Largest free");
    case Blocks: return tr("Blocks");
    case Stream: return tr("Stream");
    default: return {};
    }
}

} // namespace memviz

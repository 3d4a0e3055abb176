// SPDX-License-Identifier: MIT
#include "widgets/snapshot/AliveAllocationsModel.h"

#include <QColor>
#include <QFont>
#include <limits>

#include "core/Units.h"
#include "formats/snapshot/SnapshotQueries.h"
#include "trace/CudaAllocatorRules.h"
#include "widgets/Export.h"
#include "widgets/snapshot/SnapshotSession.h"
#include "words/UnitTexts.h"

namespace memviz {

namespace {
// The allocator's block for a request when the snapshot does not show it: CUDA's caching
// allocator rounds requests up to multiples of 512 bytes (its default, without
// roundup_power2_divisions), and a block can be larger still when a segment is not split.
std::int64_t blockFor(std::int64_t requested) { return cuda_allocator::roundSize(requested); }
} // namespace

namespace {

using words::bytes;
QString hexAddress(std::int64_t a) { return QStringLiteral("0x%1").arg(static_cast<quint64>(a), 0, 16); }

} // namespace

AliveAllocationsModel::AliveAllocationsModel(const SnapshotSession* session, QObject* parent)
    : QAbstractTableModel(parent), session_(session) {}

void AliveAllocationsModel::setRows(std::vector<std::size_t> rows) {
    beginResetModel();
    rows_ = std::move(rows);
    sites_.clear();
    endResetModel();
}

const SnapshotAllocationRow& AliveAllocationsModel::allocation(int row) const {
    return session_->allocations()[rows_[static_cast<std::size_t>(row)]];
}

int AliveAllocationsModel::rowCount(const QModelIndex& parent) const {
    return parent.isValid() ? 0 : static_cast<int>(rows_.size());
}

int AliveAllocationsModel::columnCount(const QModelIndex& parent) const { return parent.isValid() ? 0 : ColumnCount; }

// Time the allocation has been alive at the moment; none when its alloc was not recorded.
std::optional<std::int64_t> AliveAllocationsModel::age(const SnapshotAllocationRow& a) const {
    if (a.allocSeq < 0) return std::nullopt;
    if (!session_->timed()) return session_->moment() - a.allocSeq;
    if (!a.tAlloc || !session_->momentTime()) return std::nullopt;
    return *session_->momentTime() - *a.tAlloc;
}

QVariant AliveAllocationsModel::display(const SnapshotAllocationRow& a, int column) const {
    switch (column) {
    case Address: return hexAddress(a.address);
    case Size: return a.blockSize ? bytes(*a.blockSize) : QStringLiteral("\u2248 ") + bytes(blockFor(a.requestedSize));
    case Requested: return bytes(a.requestedSize);
    case Age: {
        const auto v = age(a);
        return v ? session_->formatSpan(*v) : tr("since before the trace");
    }
    case AllocatedAt: return a.allocSeq < 0 || !a.tAlloc ? tr("before the trace") : session_->formatTime(*a.tAlloc);
    case Site: {
        const std::int32_t stack = a.stack;
        if (stack < 0) return tr("(no stack recorded)");
        if (sites_.size() <= static_cast<std::size_t>(stack)) sites_.resize(static_cast<std::size_t>(stack) + 1);
        QString& site = sites_[static_cast<std::size_t>(stack)];
        if (site.isEmpty()) site = QString::fromStdString(session_->stacks().siteOf(stack));
        return a.origin == 1 ? tr("freed at %1").arg(site) : site;
    }
    default: return {};
    }
}

QVariant AliveAllocationsModel::sortKey(const SnapshotAllocationRow& a, int column) const {
    switch (column) {
    case Address: return static_cast<quint64>(a.address);
    case Size: return static_cast<qint64>(a.blockSize ? *a.blockSize : blockFor(a.requestedSize));
    case Requested: return static_cast<qint64>(a.requestedSize);
    case Age: {
        const auto v = age(a);
        return static_cast<qint64>(v ? *v : std::numeric_limits<qint64>::max());
    }
    case AllocatedAt: return static_cast<qint64>(a.allocSeq);
    case Site: return display(a, Site);
    default: return {};
    }
}

QVariant AliveAllocationsModel::exportValue(const SnapshotAllocationRow& a, int column) const {
    switch (column) {
    case Size: return static_cast<qint64>(a.blockSize ? *a.blockSize : blockFor(a.requestedSize));
    case Requested: return static_cast<qint64>(a.requestedSize);
    case Age: {
        const auto v = age(a);
        return v ? QVariant(static_cast<qint64>(*v)) : QVariant(QString());
    }
    case AllocatedAt:
        if (a.allocSeq < 0) return QString();
        if (!session_->timed()) return static_cast<qint64>(a.allocSeq);
        return a.tAlloc ? QVariant(static_cast<qint64>(*a.tAlloc)) : QVariant(QString());
    default: return display(a, column);
    }
}

QVariant AliveAllocationsModel::toolTip(const SnapshotAllocationRow& a, int column) const {
    switch (column) {
    case Size:
        return a.blockSize ? tr("%L1 bytes: the allocator's block, as the final segments show it").arg(*a.blockSize)
                           : tr("about %L1 bytes: the trace records only the requested size; the allocator rounds "
                                "requests up to multiples of 512 bytes (and may not split a larger block)")
                                 .arg(blockFor(a.requestedSize));
    case Requested: return tr("%L1 bytes asked for").arg(a.requestedSize);
    case Age:
    case AllocatedAt:
        return a.allocSeq < 0
                   ? tr("Allocated before the trace began (recording started later, or its ring buffer dropped the alloc). "
                        "It is part of the pre-existing baseline.")
                   : tr("Allocated by entry %L1").arg(a.allocSeq);
    default: return display(a, column);
    }
}

QVariant AliveAllocationsModel::data(const QModelIndex& index, int role) const {
    if (!index.isValid() || index.row() >= static_cast<int>(rows_.size()) || index.column() >= ColumnCount) return {};
    const SnapshotAllocationRow& a = allocation(index.row());
    switch (role) {
    case Qt::DisplayRole: return display(a, index.column());
    case SortRole: return sortKey(a, index.column());
    case exporting::kExportRole: return exportValue(a, index.column());
    case Qt::ToolTipRole: return toolTip(a, index.column());
    case StackRole: return a.stack;
    case OriginRole: return a.origin;
    case Qt::TextAlignmentRole:
        return index.column() == Site ? QVariant() : QVariant::fromValue(Qt::AlignRight | Qt::AlignVCenter);
    case Qt::ForegroundRole:
        if ((index.column() == Size && !a.blockSize) || a.allocSeq < 0) return QColor(110, 110, 110);
        return {};
    case Qt::FontRole:
        if (index.column() == Address) {
            QFont f;
            f.setFamily(QStringLiteral("monospace"));
            f.setStyleHint(QFont::Monospace);
            return f;
        }
        return {};
    default: return {};
    }
}

QVariant AliveAllocationsModel::headerData(int section, Qt::Orientation orientation, int role) const {
    if (orientation != Qt::Horizontal) return {};
    if (role == exporting::kExportRole) {
        const QString title = headerData(section, orientation, Qt::DisplayRole).toString();
        if (section == Size || section == Requested) return exporting::headerWithUnit(title, exporting::bytesUnit());
        if (section == Age || section == AllocatedAt)
            return exporting::headerWithUnit(title, session_->timed() ? exporting::nsUnit() : tr("entries"));
        return title;
    }
    if (role == Qt::ToolTipRole && section == Size)
        return tr("The allocator's block size; \u2248 marks an estimate from the requested size");
    if (role != Qt::DisplayRole) return {};
    switch (section) {
    case Address: return tr("Address");
    case Size: return tr("Size");
    case Requested: return tr("Requested");
    case Age: return tr("Age");
    case AllocatedAt: return tr("Allocated at");
    case Site: return tr("Allocated in");
    default: return {};
    }
}

} // namespace memviz

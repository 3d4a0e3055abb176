// SPDX-License-Identifier: MIT
#include "widgets/snapshot/AliveAllocationsModel.h"

#include <QColor>
#include <QFont>
#include <algorithm>
#include <limits>

#include "words/Units.h"
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
    : QAbstractTableModel(parent), session_(session) {
    // Another trace's catalog: its site texts and their ranks are made again. Connected before
    // the view's own reloaded() handler, which may sort by site at once.
    connect(session_, &SnapshotSession::reloaded, this, [this] {
        sites_.clear();
        siteRanks_.reset();
    });
}

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
        if (a.stack < 0) return tr("(no stack recorded)");
        const QString site = siteText(a.stack);
        return a.origin == 1 ? tr("freed at %1").arg(site) : site;
    }
    default: return {};
    }
}

QString AliveAllocationsModel::siteText(std::int32_t stack) const {
    if (sites_.size() <= static_cast<std::size_t>(stack)) sites_.resize(static_cast<std::size_t>(stack) + 1);
    QString& site = sites_[static_cast<std::size_t>(stack)];
    if (site.isEmpty()) site = QString::fromStdString(session_->stacks().siteOf(stack));
    return site;
}

void AliveAllocationsModel::sort(int column, Qt::SortOrder order) {
    if (column < 0 || column >= ColumnCount || (column == sortColumn_ && order == sortOrder_)) return;
    sortColumn_ = column;
    sortOrder_ = order;
    emit orderRequested();
}

std::shared_ptr<const std::vector<int>> AliveAllocationsModel::siteRanks() const {
    if (siteRanks_) return siteRanks_;
    const StackCatalog& catalog = session_->stacks();
    // The texts the Site column shows: per stack "site" and "freed at site", then no stack.
    const std::size_t stacks = catalog.stacks.size();
    std::vector<QString> texts;
    texts.reserve(2 * stacks + 1);
    for (std::size_t s = 0; s < stacks; ++s) {
        texts.push_back(siteText(static_cast<std::int32_t>(s)));
        texts.push_back(tr("freed at %1").arg(texts.back()));
    }
    texts.push_back(tr("(no stack recorded)"));
    std::vector<int> order(texts.size());
    for (std::size_t i = 0; i < order.size(); ++i) order[i] = static_cast<int>(i);
    std::sort(order.begin(), order.end(), [&](int x, int y) { return texts[static_cast<std::size_t>(x)] < texts[static_cast<std::size_t>(y)]; });
    auto ranks = std::make_shared<std::vector<int>>(texts.size());
    int rank = 0;
    for (std::size_t i = 0; i < order.size(); ++i) {
        if (i > 0 && texts[static_cast<std::size_t>(order[i])] != texts[static_cast<std::size_t>(order[i - 1])]) rank = static_cast<int>(i);
        (*ranks)[static_cast<std::size_t>(order[i])] = rank;
    }
    siteRanks_ = std::move(ranks);
    return siteRanks_;
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

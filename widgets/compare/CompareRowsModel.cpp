// SPDX-License-Identifier: MIT
#include "widgets/compare/CompareRowsModel.h"

#include <QColor>
#include <QFileInfo>

#include "words/UnitTexts.h"

namespace memviz {

namespace {

QString siteName(const SiteDiff& s) {
    const QString f = s.function.empty() ? "?? (" + QString::fromStdString(s.module) + ")" : QString::fromStdString(s.function);
    return s.file.empty() ? f : f + " — " + QFileInfo(QString::fromStdString(s.file)).fileName() + ":" + QString::number(s.line);
}

QString hex(std::int64_t v) { return "0x" + QString::number(v, 16); }

} // namespace

CompareRowsModel::CompareRowsModel(QObject* parent) : QAbstractTableModel(parent) {}

void CompareRowsModel::show(const TraceComparison* comparison, CompareRows rows) {
    beginResetModel();
    c_ = comparison;
    rows_ = rows;
    keyAverages_.clear();
    switch (rows) {
    case CompareRows::Sites:
        headers_ = {tr("Allocation site"), tr("Calls A"), tr("Calls B"), tr("Δ calls"), tr("Δ temporary"), tr("Δ peak"), tr("Δ leaked")};
        break;
    case CompareRows::Categories:
        headers_ = {tr("Memory category"), tr("Device"), tr("At peak A"), tr("At peak B"), tr("Δ at peak")};
        break;
    case CompareRows::Operators:
        headers_ = {tr("Operator"), tr("Allocated A"), tr("Allocated B"), tr("Δ allocated"), tr("Allocs A"), tr("Allocs B"), tr("Δ allocs")};
        break;
    case CompareRows::KeyAverages:
        headers_ = {tr("Operator"),    tr("Device"),      tr("Calls A"),     tr("Calls B"), tr("Δ calls"),
                    tr("Self mem A"), tr("Self mem B"), tr("Δ self mem"), tr("Δ mem")};
        if (c_)
            for (std::size_t i = 0; i < c_->keyAverages.size(); ++i)
                for (std::size_t d = 0; d < c_->keyAverages[i].devices.size(); ++d) keyAverages_.emplace_back(i, d);
        break;
    case CompareRows::AliveAtPeak:
        headers_ = {tr("Call site"), tr("Device"), tr("At peak A"), tr("At peak B"), tr("Δ at peak"), tr("Allocs A"), tr("Allocs B"), tr("Δ allocs")};
        break;
    case CompareRows::Blocks:
        headers_ = {tr("Call site"), tr("Device"), tr("Segment"), tr("Block"), tr("In"), tr("Size A"), tr("Size B"), tr("State A"), tr("State B")};
        break;
    case CompareRows::Segments:
        headers_ = {tr("Segment"), tr("Device"), tr("Size"), tr("In"), tr("Allocated A"), tr("Allocated B"), tr("Δ allocated")};
        break;
    }
    endResetModel();
}

int CompareRowsModel::rowCount(const QModelIndex& parent) const {
    if (parent.isValid() || !c_) return 0;
    switch (rows_) {
    case CompareRows::Sites: return static_cast<int>(c_->sites.size());
    case CompareRows::Categories: return static_cast<int>(c_->categories.size());
    case CompareRows::Operators: return static_cast<int>(c_->ops.size());
    case CompareRows::KeyAverages: return static_cast<int>(keyAverages_.size());
    case CompareRows::AliveAtPeak: return static_cast<int>(c_->peakSites.size());
    case CompareRows::Blocks: return static_cast<int>(c_->blocks.size());
    case CompareRows::Segments: return static_cast<int>(c_->segments.size());
    }
    return 0;
}

int CompareRowsModel::columnCount(const QModelIndex& parent) const { return parent.isValid() ? 0 : static_cast<int>(headers_.size()); }

QVariant CompareRowsModel::headerData(int section, Qt::Orientation orientation, int role) const {
    if (orientation == Qt::Horizontal && role == Qt::DisplayRole && section >= 0 && section < headers_.size()) return headers_[section];
    return QAbstractTableModel::headerData(section, orientation, role);
}

CompareRowsModel::Cell CompareRowsModel::cell(int row, int column, bool withText) const {
    const auto r = static_cast<std::size_t>(row);
    auto name = [&](const QString& text) { return Cell{text, text, false, false}; };
    auto nameOf = [&](const std::string& text) { return name(QString::fromStdString(text)); };
    auto bytes = [&](std::int64_t v) { return Cell{withText ? words::bytes(v) : QString(), static_cast<double>(v), true, false}; };
    auto count = [&](std::int64_t v) { return Cell{withText ? words::count(v) : QString(), static_cast<double>(v), true, false}; };
    auto signedBytes = [&](std::int64_t v) { return Cell{withText ? words::signedBytes(v) : QString(), static_cast<double>(v), true, true}; };
    auto signedCount = [&](std::int64_t v) { return Cell{withText ? words::signedCount(v) : QString(), static_cast<double>(v), true, true}; };
    // Columns k, k+1, k+2 of a figure: A, B, B - A.
    auto figure = [&](const DiffValue& v, int k, bool isBytes) {
        const int i = column - k;
        if (i == 2) return isBytes ? signedBytes(v.delta()) : signedCount(v.delta());
        const std::int64_t x = i == 0 ? v.a : v.b;
        return isBytes ? bytes(x) : count(x);
    };
    auto inWhich = [](bool a, bool b) { return a && b ? tr("both") : a ? tr("A only") : tr("B only"); };
    switch (rows_) {
    case CompareRows::Sites: {
        const SiteDiff& s = c_->sites[r];
        if (column == 0) return name(siteName(s));
        if (column <= 3) return figure(s.allocations, 1, false);
        if (column == 4) return signedCount(s.temporary.delta());
        return signedBytes(column == 5 ? s.peakBytes.delta() : s.leakedBytes.delta());
    }
    case CompareRows::Categories: {
        const CategoryDiff& d = c_->categories[r];
        if (column == 0) return nameOf(d.name);
        if (column == 1) return nameOf(d.device);
        return figure(d.atPeak, 2, true);
    }
    case CompareRows::Operators: {
        const OpDiff& o = c_->ops[r];
        if (column == 0) return nameOf(o.name);
        return column <= 3 ? figure(o.bytesAllocated, 1, true) : figure(o.allocs, 4, false);
    }
    case CompareRows::KeyAverages: {
        const ProfilerOpDiff& d = c_->keyAverages[keyAverages_[r].first];
        const OpMemoryDiff& m = d.devices[keyAverages_[r].second];
        if (column == 0) return nameOf(d.name);
        if (column == 1) return nameOf(m.device);
        if (column <= 4) return figure(d.calls, 2, false);
        if (column <= 7) return figure(m.selfMem, 5, true);
        return signedBytes(m.mem.delta());
    }
    case CompareRows::AliveAtPeak: {
        const auto& [device, p] = c_->peakSites[r];
        if (column == 0) return p.site.empty() ? name(tr("(no stack)")) : nameOf(p.site);
        if (column == 1) return nameOf(device);
        return column <= 4 ? figure(p.bytes, 2, true) : figure(p.allocations, 5, false);
    }
    case CompareRows::Blocks: {
        const TraceComparison::Block& b = c_->blocks[r];
        const BlockDiff& d = b.diff;
        auto size = [&](bool in, std::int64_t v) { return in ? bytes(v) : Cell{QStringLiteral("–"), -1.0, true, false}; };
        switch (column) {
        case 0: return nameOf(d.inA ? b.siteA : b.siteB);
        case 1: return nameOf(b.device);
        case 2: return name(hex(d.segmentAddress));
        case 3: return name(hex(d.address));
        case 4: return name(inWhich(d.inA, d.inB));
        case 5: return size(d.inA, d.size.a);
        case 6: return size(d.inB, d.size.b);
        case 7: return nameOf(d.stateA);
        default: return nameOf(d.stateB);
        }
    }
    case CompareRows::Segments: {
        const auto& [device, s] = c_->segments[r];
        switch (column) {
        case 0: return name(hex(s.address));
        case 1: return nameOf(device);
        case 2: return bytes(s.totalSize);
        case 3: return name(inWhich(s.inA, s.inB));
        default: return figure(s.allocatedBytes, 4, true);
        }
    }
    }
    return {};
}

QVariant CompareRowsModel::data(const QModelIndex& index, int role) const {
    if (!c_ || !index.isValid() || index.row() >= rowCount() || index.column() >= columnCount()) return {};
    switch (role) {
    case kSortRole: return cell(index.row(), index.column(), false).sort;
    case Qt::DisplayRole: return cell(index.row(), index.column(), true).text;
    case Qt::ToolTipRole: {
        Cell c = cell(index.row(), index.column(), true);
        return c.number ? QVariant() : QVariant(c.text);
    }
    case Qt::TextAlignmentRole:
        return cell(index.row(), index.column(), false).number ? QVariant(Qt::AlignRight | Qt::AlignVCenter) : QVariant();
    case Qt::ForegroundRole: {
        const Cell c = cell(index.row(), index.column(), false);
        const double v = c.sort.toDouble();
        if (!c.delta || v == 0) return {};
        return v > 0 ? QColor(190, 30, 30) : QColor(30, 130, 60); // red: B uses more
    }
    default: return {};
    }
}

std::optional<RowCurveRequest> CompareRowsModel::curveOf(int row, const std::string& plotDevice) const {
    if (!c_ || row < 0 || row >= rowCount()) return std::nullopt;
    const auto r = static_cast<std::size_t>(row);
    switch (rows_) {
    case CompareRows::Operators: return RowCurveRequest{RowCurveKind::Operator, c_->ops[r].name, plotDevice};
    case CompareRows::KeyAverages:
        return RowCurveRequest{RowCurveKind::Operator, c_->keyAverages[keyAverages_[r].first].name, plotDevice};
    case CompareRows::Categories: return RowCurveRequest{RowCurveKind::Category, c_->categories[r].name, c_->categories[r].device};
    case CompareRows::AliveAtPeak: return RowCurveRequest{RowCurveKind::SnapshotSite, c_->peakSites[r].second.site, c_->peakSites[r].first};
    case CompareRows::Blocks: {
        const TraceComparison::Block& b = c_->blocks[r];
        return RowCurveRequest{RowCurveKind::SnapshotSite, b.diff.inA ? b.siteA : b.siteB, b.device};
    }
    case CompareRows::Sites:
    case CompareRows::Segments: return std::nullopt;
    }
    return std::nullopt;
}

} // namespace memviz

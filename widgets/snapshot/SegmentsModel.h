// SPDX-License-Identifier: MIT
#pragma once
// The allocator's segments at the chosen moment as a table: address, size, bytes in allocated
// and pending-free blocks, free bytes, largest free gap, number of blocks, stream.
#include <QAbstractTableModel>

#include "trace/AllocatorState.h"

namespace memviz {

class SegmentsModel : public QAbstractTableModel {
    Q_OBJECT
public:
    enum Column { Address, Size, Allocated, PendingFree, Free, LargestFree, Blocks, Stream, ColumnCount };
    static constexpr int SortRole = Qt::UserRole + 1;

    explicit SegmentsModel(QObject* parent = nullptr);

    void setSegments(std::vector<StateSegment> segments);
    const std::vector<StateSegment>& segments() const { return segments_; }

    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

private:
    std::vector<StateSegment> segments_;
};

} // namespace memviz

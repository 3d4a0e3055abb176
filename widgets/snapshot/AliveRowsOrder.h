// SPDX-License-Identifier: MIT
#pragma once
// The order of the Allocations table's rows, computed on a worker with the rows themselves
// (the table sorted through a QSortFilterProxyModel on the GUI thread before: a cost in the
// alive rows, not in what is on screen). Keys are plain numbers; the Site column sorts by the
// rank of its text among every stack's texts, ranked once per catalog on the GUI thread.
#include <Qt>
#include <cstdint>
#include <memory>
#include <optional>
#include <vector>

#include "formats/snapshot/SnapshotRows.h"

namespace memviz {

struct AliveOrder {
    int column = 2; // AliveAllocationsModel::Column
    Qt::SortOrder order = Qt::DescendingOrder;
    // For the Age column: the moment (entry index) and its time.
    bool timed = true;
    std::int64_t moment = -1;
    std::optional<std::int64_t> momentTime;
    // For the Site column: the rank of each stack's text (see siteRankIndex).
    std::shared_ptr<const std::vector<int>> siteRanks;
};

// Where an allocation's Site text sits in AliveOrder::siteRanks: two per stack (made there;
// "freed at" there, for an allocation from before the trace), then one for no stack.
std::size_t siteRankIndex(const SnapshotAllocationRow& a, std::size_t stackCount);

// Sorts `rows` (indexes into `all`) by the column, as a stable sort: ties keep their order.
void sortAliveRows(std::vector<std::size_t>& rows, const std::vector<SnapshotAllocationRow>& all, const AliveOrder& order);

} // namespace memviz

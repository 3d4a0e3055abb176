// SPDX-License-Identifier: MIT
#include "widgets/snapshot/AliveRowsOrder.h"

#include <algorithm>
#include <limits>
#include <utility>

#include "trace/CudaAllocatorRules.h"
#include "widgets/snapshot/AliveAllocationsModel.h"

namespace memviz {

std::size_t siteRankIndex(const SnapshotAllocationRow& a, std::size_t stackCount) {
    if (a.stack < 0 || static_cast<std::size_t>(a.stack) >= stackCount) return 2 * stackCount;
    return 2 * static_cast<std::size_t>(a.stack) + (a.origin == 1 ? 1 : 0);
}

namespace {

// The column's value as a number that orders as the column does.
std::int64_t keyOf(const SnapshotAllocationRow& a, const AliveOrder& o) {
    constexpr std::int64_t kNone = std::numeric_limits<std::int64_t>::max();
    switch (o.column) {
    case AliveAllocationsModel::Address: // unsigned order, as a signed number
        return static_cast<std::int64_t>(static_cast<std::uint64_t>(a.address) ^ (std::uint64_t{1} << 63));
    case AliveAllocationsModel::Size: return a.blockSize ? *a.blockSize : cuda_allocator::roundSize(a.requestedSize);
    case AliveAllocationsModel::Requested: return a.requestedSize;
    case AliveAllocationsModel::Age:
        if (a.allocSeq < 0) return kNone;
        if (!o.timed) return o.moment - a.allocSeq;
        return a.tAlloc && o.momentTime ? *o.momentTime - *a.tAlloc : kNone;
    case AliveAllocationsModel::AllocatedAt: return a.allocSeq;
    case AliveAllocationsModel::Site: {
        if (!o.siteRanks || o.siteRanks->empty()) return 0;
        const std::size_t stacks = (o.siteRanks->size() - 1) / 2;
        return (*o.siteRanks)[siteRankIndex(a, stacks)];
    }
    default: return 0;
    }
}

} // namespace

void sortAliveRows(std::vector<std::size_t>& rows, const std::vector<SnapshotAllocationRow>& all, const AliveOrder& order) {
    std::vector<std::pair<std::int64_t, std::size_t>> keyed;
    keyed.reserve(rows.size());
    for (const std::size_t r : rows) keyed.emplace_back(keyOf(all[r], order), r);
    if (order.order == Qt::AscendingOrder)
        std::stable_sort(keyed.begin(), keyed.end(), [](const auto& x, const auto& y) { return x.first < y.first; });
    else
        std::stable_sort(keyed.begin(), keyed.end(), [](const auto& x, const auto& y) { return x.first > y.first; });
    for (std::size_t i = 0; i < rows.size(); ++i) rows[i] = keyed[i].second;
}

} // namespace memviz

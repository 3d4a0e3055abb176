// SPDX-License-Identifier: MIT
#pragma once
// Bulk inserts of integer rows (the relational tables importers fill: calls, allocations,
// ...) through one prepared statement, in batches run on the import's work queue.
#include <cstdint>
#include <limits>
#include <span>
#include <vector>

#include "store/Database.h"

namespace memviz {

class WorkQueue;

class RowAppender {
public:
    static constexpr std::int64_t kNull = std::numeric_limits<std::int64_t>::min();

    RowAppender(Database& db, WorkQueue& queue, std::string_view insertSql, int columns);

    // One row of `columns` values; kNull binds SQL NULL.
    void add(std::span<const std::int64_t> row);
    void add(std::initializer_list<std::int64_t> row) { add(std::span<const std::int64_t>(row.begin(), row.size())); }
    // Hands the buffered rows to the work queue.
    void flush();
    std::int64_t rowsAdded() const { return added_; }

private:
    WorkQueue& queue_;
    Statement insert_;
    int columns_;
    std::vector<std::int64_t> batch_;
    std::int64_t added_ = 0;
};

} // namespace memviz

// SPDX-License-Identifier: MIT
#include "store/RowAppender.h"

#include "core/Errors.h"
#include "store/WorkQueue.h"

namespace memviz {

namespace {
constexpr std::size_t kRowsPerBatch = 16384;
}

RowAppender::RowAppender(Database& db, WorkQueue& queue, std::string_view insertSql, int columns)
    : queue_(queue), insert_(db, insertSql), columns_(columns) {
    // Full-batch buffers only once a batch has filled (see flush()): most tables are small.
}

void RowAppender::add(std::span<const std::int64_t> row) {
    if (static_cast<int>(row.size()) != columns_) throw StoreError("row with the wrong number of columns");
    batch_.insert(batch_.end(), row.begin(), row.end());
    ++added_;
    if (batch_.size() >= kRowsPerBatch * static_cast<std::size_t>(columns_)) flush();
}

void RowAppender::flush() {
    if (batch_.empty()) return;
    const bool full = batch_.size() >= kRowsPerBatch * static_cast<std::size_t>(columns_);
    queue_.post([this, rows = std::move(batch_)] {
        const auto n = static_cast<std::size_t>(columns_);
        for (std::size_t r = 0; r < rows.size(); r += n) {
            for (std::size_t c = 0; c < n; ++c) {
                const std::int64_t v = rows[r + c];
                if (v == kNull) insert_.bindNull(static_cast<int>(c) + 1);
                else insert_.bind(static_cast<int>(c) + 1, v);
            }
            insert_.run();
        }
    });
    batch_ = {};
    if (full) batch_.reserve(kRowsPerBatch * static_cast<std::size_t>(columns_));
}

} // namespace memviz

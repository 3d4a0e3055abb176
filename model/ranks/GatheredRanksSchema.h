// SPDX-License-Identifier: MIT
#pragma once
// The tables of a gathered rank set (`memviz ranks --gather`, issue 55; GatheredRanks.h):
// schema version 13, registered in formats/FormatRegistry.cpp beside the formats' tables.
// One set per store; each rank's row keeps its curve as one chunk of points (codec 2).

namespace memviz {

inline constexpr const char* kGatheredRanksSchemaSql = R"sql(
CREATE TABLE ranks_gathered (
    id INTEGER PRIMARY KEY CHECK (id = 1),
    device TEXT NOT NULL,
    wall_clock INTEGER NOT NULL,
    curve_columns INTEGER NOT NULL,
    max_row INTEGER NOT NULL,
    min_row INTEGER NOT NULL,
    ratio REAL,
    spread_bytes INTEGER NOT NULL,
    imbalance_op TEXT,
    imbalance_op_bytes INTEGER NOT NULL,
    imbalance_op_paired INTEGER NOT NULL
);
CREATE TABLE ranks_gathered_rows (
    row INTEGER PRIMARY KEY,
    name TEXT NOT NULL,
    rank INTEGER,
    source TEXT NOT NULL,
    trace_id INTEGER NOT NULL,
    format TEXT NOT NULL,
    device TEXT NOT NULL,
    peak_bytes INTEGER NOT NULL,
    peak_time_ns INTEGER NOT NULL,
    final_bytes INTEGER NOT NULL,
    top_op TEXT,
    top_op_bytes INTEGER NOT NULL,
    top_op_paired INTEGER NOT NULL,
    start_offset_ns INTEGER NOT NULL,
    epoch_ns INTEGER,
    store_path TEXT NOT NULL,
    series_id INTEGER NOT NULL,
    curve BLOB NOT NULL
);
)sql";

} // namespace memviz

// SPDX-License-Identifier: MIT
#pragma once
// The curve of one row of a comparison in one trace: what the Compare window draws in both
// traces when a row of its table is chosen. Read off the GUI thread.
//   - an operator: the bytes its allocations on the device hold over time (allocated by it,
//     until freed by anyone: a free is matched to the allocation at its address);
//   - a memory category (memory-timeline exports): that stacked series of the device;
//   - a call site of a CUDA snapshot: the bytes its allocations hold over time (requested
//     sizes, from allocation to free; allocations made before the trace count from its start).
// Each is reduced to about `columns` pixel columns (first, min, max, last of each).
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "store/ChunkCodec.h"

namespace memviz {

class Database;
class Progress;

enum class RowCurveKind { Operator, Category, SnapshotSite };

struct RowCurveRequest {
    RowCurveKind kind = RowCurveKind::Operator;
    std::string name;   // the operator, category or call site as the table names it
    std::string device; // the device's name (case-insensitive)
};

// Empty when the trace has no such device or the row has no events in it.
std::vector<SeriesPoint> readRowCurve(Database& db, std::int64_t traceId, const RowCurveRequest& row, int columns,
                                      const Progress& progress);

} // namespace memviz

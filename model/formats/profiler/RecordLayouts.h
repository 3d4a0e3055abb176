// SPDX-License-Identifier: MIT
#pragma once
// Column layouts of the record streams in `record_chunks` (see RecordChunks.h), shared by
// the importers that write them and the queries that read them.
#include <cstddef>

namespace memviz {

// Allocation lifetimes: an allocation paired with its free. Either time may be absent
// (RowAppender-style kNull = INT64_MIN): freed but allocated before the trace, or alive at
// the end. Sorted by `Key` = the allocation time, else the free time.
namespace allocation_records {
constexpr const char* kKind = "allocations";
enum Column : std::size_t { Key, AllocTime, FreeTime, Device, Address, Size, Op, Thread, Columns };
} // namespace allocation_records

// Profiler op calls, sorted by start: then, per device of the trace, the six key_averages
// figures (bytes, self bytes, allocations, allocated bytes, self allocations, self allocated
// bytes). `Parent` is the index of the parent call in this order, -1 for roots.
namespace call_records {
constexpr const char* kKind = "profiler_calls";
enum Column : std::size_t { Start, Duration, Thread, Name, Shapes, Parent, Depth, FirstMemory };
constexpr std::size_t kMemoryValues = 6;
constexpr std::size_t columns(std::size_t devices) { return FirstMemory + devices * kMemoryValues; }
} // namespace call_records

} // namespace memviz

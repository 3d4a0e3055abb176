// SPDX-License-Identifier: MIT
#pragma once
// The op calls' rows of a profiler trace: every call with its key_averages memory per device
// (inclusive and self), the "[memory]" calls of memory events inside no call, their order by
// start, and the per-operator totals. They need only the scanned records and the call tree,
// so the builder computes them on a thread of their own while it writes the events (issue 33:
// the builder's main thread was the import's longest path); that thread also encodes their
// record chunks, a chunk's rows at a time, and the builder writes them afterwards.
#include <algorithm>
#include <atomic>
#include <cstdint>
#include <utility>
#include <vector>

#include "core/HugePages.h"

#include "formats/profiler/ProfilerRecords.h"
#include "formats/profiler/ProfilerTraceBuilder.h"
#include "store/RecordChunks.h"

namespace memviz {

class Progress;

// Traces are mostly in time order already: checking is one pass, sorting millions is seconds.
template <class Vector, class Less>
void sortStablyUnlessSorted(Vector& v, Less less) {
    if (!std::is_sorted(v.begin(), v.end(), less)) std::stable_sort(v.begin(), v.end(), less);
}

struct CallTable {
    std::size_t columns = 0;            // call_records::columns(devices)
    // The calls' record chunks (store/RecordChunks.h): by start (stably: the calls in file order,
    // then the "[memory]" calls), parents as indexes in this order.
    std::vector<EncodedRecordChunk> chunks;
    struct Total {
        std::int64_t name = 0, shapes = 0, calls = 0;
        std::vector<std::int64_t> sums; // per device, call_records::kMemoryValues each
    };
    std::vector<Total> totals; // per (name, shapes), in that order
};

// `deviceOf[i]`: the device index of s.memory[i] (its row in the store's devices), below
// `devices`. `memoryName` and `noShapes` name the "[memory]" calls. Throws ImportError when
// the memory sums pass int64, and Cancelled when `stop` is set or the user cancels.
CallTable computeCallTable(const ScannedTrace& s, const CallTree& tree, const std::vector<std::uint16_t>& deviceOf,
                           std::size_t devices, std::int32_t memoryName, std::int32_t noShapes, const Progress& progress,
                           const std::atomic<bool>& stop);

} // namespace memviz

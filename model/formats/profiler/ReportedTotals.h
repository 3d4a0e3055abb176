// SPDX-License-Identifier: MIT
#pragma once
// How a device's allocated line is drawn from the `Total Allocated` of its [memory] events.
//
// Total Allocated is the running total of the allocator that reported the event. With one
// allocator per device, each event's total is the previous one plus its Bytes. Some traces
// have two on one device (issue 30: the JeolKorpi Windows traces, whose 313,664- and 864-byte
// batch buffers come with Total Allocated 0 amid the CPU allocator's totals of megabytes);
// drawing each event's own total took the line down to 0 and back for a moment. So the line is
// the running sum of Bytes plus the offset (memory allocated before the trace) that most of the
// device's events agree with; when one allocator reports, that equals every event's total.
#include <cstddef>
#include <cstdint>
#include <unordered_map>

#include "core/WrappingMath.h"
#include "formats/profiler/ProfilerRecords.h"

namespace memviz {

struct ReportedTotals {
    std::int64_t offset = 0;          // allocated = running sum of Bytes + offset
    std::int64_t disagreeing = 0;     // events whose Total Allocated says another offset
    std::int64_t firstDisagreeingT = 0; // time of the first of them (ns)
    // The event's totals belong to the device's main allocator (its Total Reserved is drawn).
    bool agrees(std::int64_t runningSum, std::int64_t totalAllocated) const;
};

// Counts one device's records in time order, all with totals ([OutOfMemory] events are
// skipped, as the line skips them), as they come: no list of them is kept.
class ReportedTotalsCounter {
public:
    void add(const MemoryRecord& m);
    ReportedTotals result() const;

private:
    // Per offset: how many events say it, and the first of them.
    struct Seen {
        std::int64_t count = 0;
        std::size_t first = 0;   // the event's place among the device's events
        std::int64_t firstT = 0; // its time
    };
    std::unordered_map<std::int64_t, Seen> seen_;
    std::int64_t running_ = 0;
    std::size_t events_ = 0;
};

} // namespace memviz

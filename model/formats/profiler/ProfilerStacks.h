// SPDX-License-Identifier: MIT
#pragma once
// Call stacks for the memory events of a profiler trace recorded with_stack=True. The
// importer charges each [memory] event to the innermost op call open on its thread; its
// stack is that call's place in the program: the Python frames of the outermost enclosing
// call that carries an args["Call stack"] (outermost first), then the op calls from that one
// down to the innermost (aten::conv2d;aten::convolution;...;aten::empty). Traces with
// python_function events and no "Call stack" get the chain of calls alone (those events
// already name Python frames). Stacks are stored as NameKind::Stack names, frames separated
// by ';' (trace/EventStacks reads them: the Flame tab and `memviz stacks`).
#include <cstdint>
#include <vector>

#include "formats/StackSources.h"
#include "formats/profiler/ProfilerRecords.h"

namespace memviz {

class TraceWriter;

// The metrics of a profiler trace with stacks: "alive" needs the memory events' addresses
// (PyTorch 1.10 and later) to pair frees with allocations; older traces offer "allocated" only.
std::vector<StackMetric> profilerStackMetrics(Database& db, std::int64_t traceId);

class ProfilerStacks {
public:
    ProfilerStacks(const ScannedTrace& trace, std::span<const std::int32_t> parents, TraceWriter& out);
    // The stack name of a memory event charged to `call` (kNoName: none, or the trace has no stacks).
    std::int32_t ofCall(std::int32_t call);
    bool enabled() const { return enabled_; }

private:
    const ScannedTrace& trace_;
    std::span<const std::int32_t> parents_;
    TraceWriter& out_;
    bool enabled_ = false;
    std::vector<std::int32_t> byCall_; // -2: not computed yet
    std::vector<std::int32_t> chain_;
};

} // namespace memviz

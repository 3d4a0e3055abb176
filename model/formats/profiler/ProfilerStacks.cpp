// SPDX-License-Identifier: MIT
#include "formats/profiler/ProfilerStacks.h"

#include <string>
#include <string_view>

#include "formats/profiler/RecordLayouts.h"
#include "store/RecordChunks.h"
#include "store/TraceWriter.h"

namespace memviz {

namespace {
constexpr std::int32_t kNotYet = -2;
}

std::vector<StackMetric> profilerStackMetrics(Database& db, std::int64_t traceId) {
    std::vector<StackMetric> m;
    // Allocation lifetimes are recorded only for memory events with an address.
    if (countRecords(db, traceId, allocation_records::kKind) > 0) m.push_back({"alive", "Bytes alive at the moment", true, false, true});
    m.push_back({"allocated", "Bytes allocated in the range", true, true, false});
    return m;
}

ProfilerStacks::ProfilerStacks(const ScannedTrace& trace, std::span<const std::int32_t> parents, TraceWriter& out)
    : trace_(trace), parents_(parents), out_(out), enabled_(!trace.callStacks.empty() || trace.pythonFunctions) {
    if (enabled_) byCall_.assign(trace.ops.size(), kNotYet);
}

std::int32_t ProfilerStacks::ofCall(std::int32_t call) {
    if (!enabled_ || call < 0 || static_cast<std::size_t>(call) >= byCall_.size()) return kNoName;
    std::int32_t& cached = byCall_[static_cast<std::size_t>(call)];
    if (cached != kNotYet) return cached;
    // From the innermost call outwards; `top`: the outermost one with a Python stack.
    chain_.clear();
    std::size_t top = std::string::npos;
    for (std::int32_t c = call; c >= 0 && chain_.size() < 100000; c = parents_[static_cast<std::size_t>(c)]) {
        chain_.push_back(c);
        if (trace_.ops[static_cast<std::size_t>(c)].callStack >= 0) top = chain_.size() - 1;
    }
    if (top != std::string::npos) chain_.resize(top + 1);
    std::string text;
    if (top != std::string::npos) {
        // "file(line): func;..." innermost first, reversed frame by frame.
        const std::string_view python = trace_.callStacks[static_cast<std::size_t>(trace_.ops[static_cast<std::size_t>(chain_.back())].callStack)];
        std::vector<std::string_view> frames;
        for (std::size_t start = 0; start <= python.size();) {
            std::size_t end = python.find(';', start);
            if (end == std::string_view::npos) end = python.size();
            if (end > start) frames.push_back(python.substr(start, end - start));
            start = end + 1;
        }
        for (auto it = frames.rbegin(); it != frames.rend(); ++it) {
            if (!text.empty()) text += ';';
            text.append(*it);
        }
    }
    for (auto it = chain_.rbegin(); it != chain_.rend(); ++it) {
        const std::int32_t name = trace_.ops[static_cast<std::size_t>(*it)].name;
        const std::string& op = name >= 0 && static_cast<std::size_t>(name) < trace_.opNames.size()
                                    ? trace_.opNames[static_cast<std::size_t>(name)]
                                    : std::string();
        if (op.empty()) continue;
        if (!text.empty()) text += ';';
        text += op;
    }
    cached = text.empty() ? kNoName : out_.name(NameKind::Stack, text);
    return cached;
}

} // namespace memviz

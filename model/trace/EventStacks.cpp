// SPDX-License-Identifier: MIT
#include "trace/EventStacks.h"

#include <charconv>
#include <string_view>
#include <unordered_map>

#include "core/Progress.h"
#include "store/ChunkCodec.h"
#include "store/Database.h"
#include "store/TraceQueries.h"
#include "trace/Event.h"

namespace memviz {

bool eventsHaveStacks(Database& db, std::int64_t traceId) {
    Statement s(db, "SELECT 1 FROM names WHERE trace_id = ? AND kind = ? LIMIT 1");
    s.bind(1, traceId).bind(2, static_cast<int>(NameKind::Stack));
    return s.step();
}

namespace {

// A frame of a stack name: the PyTorch profiler's Python frames "path/file.py(54): forward"
// become function, file and line; anything else is a function name.
StackFrameInfo parseFrame(std::string_view frame) {
    const std::size_t colon = frame.find("): ");
    const std::size_t open = colon == std::string_view::npos ? colon : frame.rfind('(', colon);
    if (open != std::string_view::npos && open > 0 && colon > open + 1) {
        std::int64_t line = 0;
        const std::string_view digits = frame.substr(open + 1, colon - open - 1);
        if (std::from_chars(digits.data(), digits.data() + digits.size(), line).ptr == digits.data() + digits.size())
            return {std::string(frame.substr(colon + 3)), std::string(frame.substr(0, open)), line > 0 ? line : 0, {}};
    }
    return {std::string(frame), {}, 0, {}};
}

// A stack name's frames, outermost first, as frame ids of the builder.
std::vector<std::int32_t> parseStack(const std::string& text, StackTreeBuilder& builder) {
    std::vector<std::int32_t> out;
    std::size_t start = 0;
    while (start <= text.size()) {
        std::size_t end = text.find(';', start);
        if (end == std::string::npos) end = text.size();
        if (end > start) out.push_back(builder.frameId(parseFrame(std::string_view(text).substr(start, end - start))));
        start = end + 1;
    }
    return out;
}

} // namespace

StackTree eventStackTree(Database& db, std::int64_t traceId, const std::string& metric, const std::optional<TimeRange>& range,
                         const std::optional<std::int64_t>& at, const FrameFolder& folder, const Progress* progress) {
    StackTreeBuilder builder(folder);
    std::unordered_map<std::int64_t, std::vector<std::int32_t>> stacks;
    {
        Statement s(db, "SELECT id, name FROM names WHERE trace_id = ? AND kind = ?");
        s.bind(1, traceId).bind(2, static_cast<int>(NameKind::Stack));
        while (s.step()) stacks.emplace(s.int64(0), parseStack(s.text(1), builder));
    }
    const TraceSummary summary = loadSummary(db, traceId);
    std::unordered_map<int, std::int64_t> momentOf; // device -> time whose live allocations count
    std::size_t devicesWithData = 0;
    for (const DeviceSummary& d : summary.devices) {
        momentOf[d.device] = at.value_or(d.peakTimeNs);
        devicesWithData += d.allocs > 0 ? 1 : 0;
    }
    const bool alive = metric == "alive";
    // alive: replay per device until its moment; (device, address) -> (size, stack).
    struct Live {
        std::int64_t size;
        std::int32_t stack;
        int device;
    };
    std::unordered_map<std::uint64_t, Live> live;
    std::unordered_map<std::int64_t, std::int64_t> allocated;        // (device << 32 | stack) -> bytes
    const auto key = [](int device, std::int64_t address) {
        return (static_cast<std::uint64_t>(device) << 48) ^ static_cast<std::uint64_t>(address);
    };
    Statement s(db, "SELECT t_first, t_last, data FROM event_chunks WHERE trace_id = ? ORDER BY chunk");
    s.bind(1, traceId);
    while (s.step()) {
        if (progress) progress->checkCancelled();
        if (!alive && range && (s.int64(1) < range->begin || s.int64(0) > range->end)) continue;
        for (const Event& e : decodeEvents(s.blob(2))) {
            if (alive) {
                if (e.timeNs > momentOf[e.device]) continue;
                if (e.kind == EventKind::Alloc) {
                    live[key(e.device, e.address)] = {e.size, e.stack, e.device};
                } else if (e.kind == EventKind::Free)
                    live.erase(key(e.device, e.address));
            } else if (e.kind == EventKind::Alloc && (!range || range->contains(e.timeNs))) {
                allocated[(static_cast<std::int64_t>(e.device) << 32) | static_cast<std::uint32_t>(e.stack)] += e.size;
            }
        }
    }
    if (alive)
        for (const auto& [k, l] : live)
            allocated[(static_cast<std::int64_t>(l.device) << 32) | static_cast<std::uint32_t>(l.stack)] += l.size;

    std::unordered_map<int, std::string> deviceNames;
    for (const DeviceSummary& d : summary.devices) deviceNames[d.device] = d.name;
    std::vector<std::int32_t> frames;
    for (const auto& [k, bytes] : allocated) {
        const int device = static_cast<int>(k >> 32);
        const auto stack = static_cast<std::int32_t>(static_cast<std::uint32_t>(k & 0xffffffff));
        frames.clear();
        if (devicesWithData > 1) frames.push_back(builder.frameId({deviceNames[device], {}, 0, {}}));
        if (const auto it = stacks.find(stack); it != stacks.end()) frames.insert(frames.end(), it->second.begin(), it->second.end());
        if (frames.size() == (devicesWithData > 1 ? 1u : 0u)) frames.push_back(builder.noStackFrame()); // under its device
        builder.add(frames, bytes);
    }
    return builder.finish();
}

} // namespace memviz

// SPDX-License-Identifier: MIT
#pragma once
// The semantics of the memviz allocation log, shared by its CSV and JSON Lines readers:
// times become ns from the first record, frees pair with the live allocation at the same
// address on the same device, and every event moves that device's live-bytes series.
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "trace/LiveBytesTracker.h"

namespace memviz {

class TraceWriter;

struct AllocLogRecord {
    std::int64_t timeNs = 0; // in the file's clock, already converted to ns
    bool isAlloc = true;
    std::int64_t address = 0;
    std::optional<std::int64_t> size; // required for alloc, optional for free
    std::string_view device;          // empty = "cpu"
    std::string_view op, category, stack;
};

class AllocLogBuilder {
public:
    // `path` names the file in errors.
    AllocLogBuilder(TraceWriter& out, std::string path);

    // `line` locates the record in warnings and errors. Throws ImportError when the
    // allocations add up past 2^63 - 1 bytes (every byte count of the trace is below that).
    void add(const AllocLogRecord& r, std::int64_t line);

private:
    std::uint16_t deviceIndex(std::string_view name);
    // Consecutive records mostly repeat their op, category and stack: skip the hash lookup.
    struct LastName {
        std::string text;
        std::int32_t id = kNoName;
    };
    std::int32_t nameId(NameKind kind, std::string_view text, LastName& last);

    TraceWriter& out_;
    std::string path_;
    std::int64_t allocatedBytes_ = 0; // all allocations so far: bounds every sum of sizes
    LiveBytesTracker tracker_;
    std::vector<std::int64_t> liveSeries_; // per device
    std::string lastDeviceName_;
    std::uint16_t lastDevice_ = 0;
    bool haveDevice_ = false;
    LastName lastOp_, lastCategory_, lastStack_;
    std::optional<std::int64_t> origin_;
    std::int64_t lastTime_ = 0;
};

} // namespace memviz

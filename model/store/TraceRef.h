// SPDX-License-Identifier: MIT
#pragma once
// The one reader of what a user types to name a trace: FILE (a raw trace or a store; a store
// means its latest trace) or STORE#ID (trace ID of that store). Used by `memviz diff`,
// `memviz ranks`, `memviz check`, `memviz report` and the Ranks window.
#include <cstdint>
#include <string>

namespace memviz {

struct TraceRef {
    std::string path;
    std::int64_t traceId = 0; // 0: the store's latest trace (or a raw file)
};

// A path that exists as written is taken whole, so a file with '#' in its name still opens;
// otherwise the text after the last '#' must be a positive whole number (std::invalid_argument
// naming the argument when it is not). Says nothing about whether the path exists.
TraceRef parseTraceRef(const std::string& arg);

} // namespace memviz

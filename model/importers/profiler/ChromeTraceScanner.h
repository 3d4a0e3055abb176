#pragma once
// Reads a torch.profiler Chrome trace (object with traceEvents, or a bare array) with
// simdjson On-Demand and keeps its memory events and CPU-side op calls.
#include <string>

#include "importers/profiler/ProfilerRecords.h"

namespace memviz {

class Progress;
class TraceWriter;

// `json` must have 64 readable bytes past its end (capacity). Names and threads are interned
// through the writer. Throws ImportError naming the byte offset for malformed JSON.
ScannedTrace scanChromeTrace(const std::string& path, const std::string& json, TraceWriter& out,
                             const Progress& progress);

} // namespace memviz

// SPDX-License-Identifier: MIT
#pragma once
// Reads a torch.profiler Chrome trace (object with traceEvents, or a bare array) with
// simdjson On-Demand, batch by batch, and keeps its memory events and CPU-side op calls.
#include <string>

#include "formats/profiler/ProfilerRecords.h"

namespace memviz {

class InputFile;
class Progress;
class TraceWriter;

// Streams the file (JsonEventStream: bounded memory whatever its size). Names and threads are
// interned through the writer. Throws ImportError naming the byte offset for malformed JSON.
ScannedTrace scanChromeTrace(InputFile& in, TraceWriter& out, const Progress& progress);

} // namespace memviz

// SPDX-License-Identifier: MIT
#pragma once
// What the fuzz targets share: the input as a real file (an anonymous in-memory file, reached
// by its /proc/self/fd path, so InputFile opens, stats and reads it like any trace) and an
// in-memory store that every import writes into and that is emptied every 64 inputs.
#include <cstdint>
#include <functional>
#include <string>
#include <string_view>

#include "FuzzTargets.h"

namespace memviz {
class Database;
}

namespace memviz::fuzz {

// A disagreement the target found: printed, then abort() (libFuzzer records the input).
[[noreturn]] void finding(const std::string& what);

// The bytes as a file; the path stays valid until the next call (one file per process).
std::string asFile(std::string_view data);

// The process' scratch store (":memory:", created on first use).
Database& scratchStore();
// Called for the trace each input stored; empties the store now and then (see the .cpp).
void deleteTrace(std::int64_t traceId);

// Imports `data` with the importer `formatId` (empty: sniffed, as the window does) into the
// scratch store, exactly as importFile() does for a user's file.
// ImportError is a refusal; anything else escapes.
Outcome importBytes(std::string_view formatId, std::string_view data);
// The same, then `then(db, traceId)` on what an accepted input stored (queries over it).
Outcome importBytes(std::string_view formatId, std::string_view data, const std::function<void(Database&, std::int64_t)>& then);

} // namespace memviz::fuzz

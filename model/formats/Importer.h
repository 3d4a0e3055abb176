// SPDX-License-Identifier: MIT
#pragma once
// One class per trace format behind this interface: sniff by content, then stream records
// into a TraceWriter, reporting progress and honouring cancellation.
#include <string>
#include <string_view>
#include <vector>

namespace memviz {

class InputFile;
class Progress;
class TraceWriter;

class Importer {
public:
    virtual ~Importer() = default;

    // Stable id stored in the `traces.format` column: a formats/FormatIds.h format_id.
    virtual std::string id() const = 0;
    // For people: "memviz allocation log".
    virtual std::string displayName() const = 0;
    // File-dialog patterns, e.g. {"*.csv", "*.jsonl"}.
    virtual std::vector<std::string> filePatterns() const = 0;
    // 0 = not this format, 100 = certainly this format. `head` is the start of the
    // decompressed content; the file name is only a tie-breaker.
    virtual int sniff(std::string_view head, std::string_view fileName) const = 0;
    // Reads the whole file into the writer. Throws ImportError (naming what and where) for
    // bad input and Cancelled when the progress object says so; never commits.
    virtual void run(InputFile& in, TraceWriter& out, const Progress& progress) const = 0;
};

} // namespace memviz

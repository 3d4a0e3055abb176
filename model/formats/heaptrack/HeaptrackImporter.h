// SPDX-License-Identifier: MIT
#pragma once
// heaptrack data files (heaptrack 1.x, after heaptrack_interpret; zstd, gzip or plain;
// file format versions 1 to 3), imported with heaptrack_print's figures.
#include "formats/FormatIds.h"
#include "formats/Importer.h"

namespace memviz {

class HeaptrackImporter : public Importer {
public:
    std::string id() const override { return format_id::kHeaptrack; }
    std::string displayName() const override { return "heaptrack recording"; }
    std::vector<std::string> filePatterns() const override;
    int sniff(std::string_view head, std::string_view fileName) const override;
    void run(InputFile& in, TraceWriter& out, const Progress& progress) const override;
};

} // namespace memviz

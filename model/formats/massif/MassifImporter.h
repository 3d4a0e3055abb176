// SPDX-License-Identifier: MIT
#pragma once
// Valgrind massif output (massif.out.PID, also gzip or zstd compressed): snapshots become
// stacked heap / extra-heap / stacks series, detailed snapshots keep their heap trees.
#include "formats/FormatIds.h"
#include "formats/Importer.h"

namespace memviz {

class MassifImporter : public Importer {
public:
    std::string id() const override { return format_id::kMassif; }
    std::string displayName() const override { return "Valgrind massif output"; }
    std::vector<std::string> filePatterns() const override;
    int sniff(std::string_view head, std::string_view fileName) const override;
    void run(InputFile& in, TraceWriter& out, const Progress& progress) const override;
};

} // namespace memviz

// SPDX-License-Identifier: MIT
#pragma once
// memviz's own allocation log (docs/formats.md): CSV with a header line, or JSON Lines
// whose first line declares the format and time unit.
#include "formats/FormatIds.h"
#include "formats/Importer.h"

namespace memviz {

class AllocLogImporter final : public Importer {
public:
    std::string id() const override { return format_id::kAllocLog; }
    std::string displayName() const override { return "memviz allocation log"; }
    std::vector<std::string> filePatterns() const override;
    int sniff(std::string_view head, std::string_view fileName) const override;
    void run(InputFile& in, TraceWriter& out, const Progress& progress) const override;
};

} // namespace memviz

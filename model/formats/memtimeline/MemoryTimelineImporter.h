// SPDX-License-Identifier: MIT
#pragma once
// torch.profiler.profile.export_memory_timeline output: the `.json` form ([times_us, sizes],
// nine slots per row) and the `.raw.json[.gz]` form ([t_ns, action, bytes, category] rows).
// Shown as a stacked chart per memory category (docs/formats.md).
#include "formats/FormatIds.h"
#include "formats/Importer.h"

namespace memviz {

class MemoryTimelineImporter final : public Importer {
public:
    std::string id() const override { return format_id::kMemoryTimeline; }
    std::string displayName() const override { return "PyTorch memory timeline export"; }
    std::vector<std::string> filePatterns() const override;
    int sniff(std::string_view head, std::string_view fileName) const override;
    void run(InputFile& in, TraceWriter& out, const Progress& progress) const override;
};

// PyTorch's category names in index order (torch.profiler._memory_profiler.Category, then
// "unknown" for tensors it could not categorise).
extern const char* const kMemoryCategories[8];

} // namespace memviz

// SPDX-License-Identifier: MIT
#pragma once
// torch.profiler Chrome traces (export_chrome_trace, tensorboard_trace_handler's
// *.pt.trace.json[.gz]), every version family: see docs/formats.md.
#include "formats/FormatIds.h"
#include "formats/Importer.h"

namespace memviz {

class ChromeTraceImporter final : public Importer {
public:
    std::string id() const override { return format_id::kProfiler; }
    std::string displayName() const override { return "PyTorch profiler trace"; }
    std::vector<std::string> filePatterns() const override;
    int sniff(std::string_view head, std::string_view fileName) const override;
    void run(InputFile& in, TraceWriter& out, const Progress& progress) const override;
};

} // namespace memviz

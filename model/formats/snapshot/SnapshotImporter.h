// SPDX-License-Identifier: MIT
#pragma once
// CUDA memory snapshots: the pickles torch.cuda.memory._dump_snapshot() writes (and the older
// torch.cuda.memory_snapshot() segment lists), read with memviz's safe pickle reader.
// docs/formats-snapshot.md describes the format, its semantics and what memviz shows.
#include "formats/Importer.h"

namespace memviz {

class SnapshotImporter final : public Importer {
public:
    std::string id() const override;
    std::string displayName() const override { return "PyTorch CUDA memory snapshot"; }
    std::vector<std::string> filePatterns() const override;
    int sniff(std::string_view head, std::string_view fileName) const override;
    void run(InputFile& in, TraceWriter& out, const Progress& progress) const override;
};

} // namespace memviz

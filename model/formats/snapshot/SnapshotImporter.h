// SPDX-License-Identifier: MIT
#pragma once
// CUDA memory snapshots: the pickles torch.cuda.memory._dump_snapshot() writes (and the older
// torch.cuda.memory_snapshot() segment lists), read with memviz's safe pickle reader.
// docs/formats-snapshot.md describes the format, its semantics and what memviz shows.
// The pickle is read as a stream (SnapshotStream), in memory bounded by the records it gives
// rather than by the file; a pickle the stream cannot honour exactly is read whole instead.
#include <cstdint>

#include "formats/Importer.h"

namespace memviz {

class SnapshotImporter final : public Importer {
public:
    std::string id() const override;
    std::string displayName() const override { return "PyTorch CUDA memory snapshot"; }
    std::vector<std::string> filePatterns() const override;
    int sniff(std::string_view head, std::string_view fileName) const override;
    void run(InputFile& in, TraceWriter& out, const Progress& progress) const override;

    // Whether run() streams: yes unless the environment sets MEMVIZ_SNAPSHOT_STREAM=0 (which
    // reads the whole tree, as before issue 12: for comparisons and benchmarks).
    static bool streamingEnabled();
    // How many streamed imports in this process fell back to reading the whole tree.
    static int streamFallbacks();
    // How many trace entries streamed imports in this process handed on as they were read.
    static std::uint64_t streamedEntries();
    // How many of them were replayed beside the parse (ReplayFollower) rather than after it.
    static std::uint64_t entriesReplayedWhileReading();

private:
    static void readWhole(InputFile& in, TraceWriter& out, const Progress& progress, std::uint64_t memory);
};

} // namespace memviz

// SPDX-License-Identifier: MIT
#pragma once
// What a CUDA snapshot's trace entries say beside their frames: `compile_context` (what
// torch.compile was compiling, 'N/A' outside it), `user_metadata` (set by
// torch.cuda.memory._set_memory_metadata) and `forward_frames` (for an allocation made in the
// backward pass, the traceback of the forward code that created the tensor). Stored as
// interned texts and runs of consecutive entries that share them (schema step 7,
// docs/formats-snapshot.md); read back for the stack view and the flame graph's grouping.
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "formats/snapshot/SnapshotRows.h"

namespace memviz {

class Database;

// Consecutive entries [firstSeq, lastSeq] of a device with the same context texts (indexes
// into SnapshotContexts::texts, -1: none).
struct SnapshotContextRun {
    int device = 0;
    std::int64_t firstSeq = 0, lastSeq = 0;
    std::int32_t compileContext = -1, userMetadata = -1, forwardFrames = -1;

    bool sameTexts(const SnapshotContextRun& o) const {
        return compileContext == o.compileContext && userMetadata == o.userMetadata && forwardFrames == o.forwardFrames;
    }
    bool hasAny() const { return compileContext >= 0 || userMetadata >= 0 || forwardFrames >= 0; }
};

// An entry's context as text; a field PyTorch filled with its default ('N/A' compile
// context, '' metadata) or did not write is empty.
struct EntryContext {
    std::string compileContext, userMetadata, forwardFrames;
    bool empty() const { return compileContext.empty() && userMetadata.empty() && forwardFrames.empty(); }
};

// PyTorch writes 'N/A' for an allocation outside torch.compile.
bool isDefaultCompileContext(std::string_view text);

struct SnapshotContexts {
    std::vector<std::string> texts;
    std::vector<SnapshotContextRun> runs; // by device, then firstSeq

    // The context of entry `seq` of `device` (empty for -1: before the trace).
    EntryContext at(int device, std::int64_t seq) const;
    // The run holding entry `seq` of `device`; null when the entry has no context.
    const SnapshotContextRun* runAt(int device, std::int64_t seq) const;
    const std::string& text(std::int32_t id) const; // "" for -1
    // Whether some entry has a compile context other than 'N/A', user metadata, forward frames.
    bool hasCompileContext() const;
    bool hasUserMetadata() const;
    bool hasForwardFrames() const;
};

// Writes the texts and runs inside the import's transaction.
void writeSnapshotContexts(Database& db, std::int64_t traceId, const std::vector<std::string>& texts,
                           const std::vector<SnapshotContextRun>& runs);
SnapshotContexts loadSnapshotContexts(Database& db, std::int64_t traceId);

// A forward traceback as frames, outermost first: Python's traceback lines
// `  File "model.py", line 54, in forward` (the source line under each is skipped); a line
// in no such form becomes a frame of that text.
std::vector<FrameRow> parseForwardFrames(std::string_view text);

} // namespace memviz

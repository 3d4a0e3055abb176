// SPDX-License-Identifier: MIT
#pragma once
// The allocator replay (docs/costmodel.md, "Allocator replay"): a recorded CUDA snapshot's
// requests — allocations and frees in trace order, starting from the segments and blocks alive
// when the trace begins — are fed through the caching-allocator model (CudaCachingAllocator).
// The model sees the requests only (each on its stream), never the recorded segment events nor
// the final segments, except where a run of recorded segment frees/unmaps begins: there the
// program called empty_cache() or the allocator released its cache before an OOM retry (neither
// is an entry of its own), and the model releases its cache and decides what goes back.
// What it predicts (segment allocations and frees, reserved bytes after every entry, the final
// segments and their split blocks, where each block lands) is set beside what the file
// recorded. The same replay answers "why is reserved larger than allocated" at any entry
// (ReservedGap) and "which request would fail on a card of N bytes, and why".
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "core/Progress.h"
#include "costmodel/CudaCachingAllocator.h"
#include "trace/AllocatorState.h"
#include "trace/Event.h"

namespace memviz::costmodel {

// One block of the snapshot's final segments, free ones included (they show the splits).
struct RecordedBlock {
    std::int64_t address = 0, size = 0, requested = 0;
    enum class State : std::uint8_t { Allocated, PendingFree, Inactive } state = State::Inactive;
};

struct AllocatorReplayInput {
    std::vector<FinalSegment> segments; // the snapshot's segments (at its end)
    std::vector<RecordedBlock> blocks;  // their blocks
    std::vector<Event> entries;         // the device's trace entries, in order
    std::vector<std::int64_t> streams;  // each entry's CUDA stream; empty: not known (a store from
                                        // before schema 15): every request on the main stream
    bool legacyFrees = false;           // "free" entries instead of free_requested + free_completed
    AllocatorConfig config;
    std::int64_t gapAt = -2;     // report the gap after this entry (-1: at the start; -2: none)
    std::int64_t cardBytes = 0;  // > 0: also replay on a card of this many bytes
    const Progress* progress = nullptr; // checked for a cancel now and then (a view's worker)
};

// A reserved-bytes step: after entry `seq`, reserved is `reserved`. `request`: the allocation
// entry that made the allocator act (the file records a segment_alloc just before the alloc that
// needed it; -1: none followed).
struct ReservedStep {
    std::int64_t seq = 0, reserved = 0, request = -1;
};

struct PredictedAction {
    std::int64_t seq = 0; // the entry that caused it
    AllocatorAction action;
};

// An out-of-memory the file recorded, with the model's gap at that moment.
struct ReplayOom {
    std::int64_t seq = 0, requested = 0;
    std::optional<std::int64_t> deviceFree;
    ReservedGap gap;
};

// The first request that fails on the card, and the state it meets.
struct CardFailure {
    std::int64_t seq = 0;
    CudaCachingAllocator::Failure failure;
    ReservedGap gap;          // after the allocator gave back what it could
    std::int64_t cardBytes = 0;
    std::int64_t peakReservedBefore = 0;
};

struct AllocatorReplayResult {
    bool traced = false; // the device has allocation entries to replay
    std::int64_t entries = 0, allocs = 0, frees = 0;
    // Recorded by the file.
    std::int64_t startReserved = 0;
    std::int64_t recordedPeakReserved = 0, recordedEndReserved = 0, recordedSegmentEvents = 0;
    std::int64_t recordedSegments = 0;
    // Predicted by the model.
    std::int64_t predictedPeakReserved = 0, predictedEndReserved = 0;
    std::int64_t predictedSegments = 0;
    std::vector<PredictedAction> predictedActions;
    std::vector<ReservedStep> recordedSteps, predictedSteps; // only where reserved changes
    std::int64_t startSegments = 0, startBlocks = 0, startBlocksUnplaced = 0;
    std::int64_t startBlocksSizedByLanding = 0; // large blocks whose unsplit rest a later request's address shows
    std::int64_t placementsMatched = 0; // allocations the model put at the recorded address
    std::int64_t firstMisplacedSeq = -1;
    std::int64_t segmentsMatched = 0;   // final segments equal in address and size
    std::int64_t blocksRecorded = 0, blocksMatched = 0; // final blocks equal in address, size and use
    bool peakExact = false, endExact = false, finalSegmentsExact = false, finalBlocksExact = false;
    std::int64_t streams = 1, oomEntries = 0, unmatchedFrees = 0;
    std::int64_t releases = 0; // runs of recorded segment frees/unmaps: empty_cache() or an OOM retry
    bool expandable = false;
    std::vector<ReplayOom> ooms;
    std::optional<ReservedGap> gapAt;
    std::optional<CardFailure> cardFailure;
    std::int64_t cardPeakReserved = 0; // with a card: the peak reserved when nothing failed
    // Why the prediction may differ from the record, in words for the reader ("expandable
    // segments are not modelled", "3 oom entries: the allocator's retry freed cached segments").
    std::vector<std::string> notes;

    bool exact() const { return peakExact && endExact && finalSegmentsExact; }
};

AllocatorReplayResult replayAllocator(const AllocatorReplayInput& input);

// PYTORCH_CUDA_ALLOC_CONF from a snapshot's flattened allocator_settings ("max_split_size" ->
// "-1", "roundup_power2_divisions.4" -> "0", "expandable_segments" -> "False", ...).
AllocatorConfig allocatorConfigFromSettings(const std::vector<std::pair<std::string, std::string>>& settings);

} // namespace memviz::costmodel

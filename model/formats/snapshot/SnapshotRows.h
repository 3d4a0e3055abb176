// SPDX-License-Identifier: MIT
#pragma once
// Rows of the CUDA memory snapshot tables (schema step 4, docs/formats-snapshot.md), shared
// by the importer that writes them and the queries that read them.
#include <cstdint>
#include <optional>
#include <string>

#include "formats/FormatIds.h"

namespace memviz {

// The format id snapshot traces carry in `traces.format`.
inline constexpr const char* kSnapshotFormatId = format_id::kSnapshot;

struct SnapshotDeviceStats {
    int device = 0;
    std::string name;
    std::int64_t cudaDevice = 0; // -1: pinned host memory
    std::int64_t entries = 0;
    std::int64_t baselineBytes = 0; // allocated before the trace began (requested bytes)
    std::int64_t baselineBlocks = 0;
    std::int64_t baselineFreedBlocks = 0; // of those, freed during the trace
    std::int64_t peakSeq = -1;            // entry after which allocated bytes peak; -1: before any entry
    std::int64_t peakBytes = 0;
    std::int64_t finalReplayed = 0;         // allocated bytes replayed to the end
    std::int64_t finalActiveRequested = 0;  // requested bytes of active_allocated blocks at the end
    std::int64_t finalPendingRequested = 0; // ... of active_pending_free blocks
    std::int64_t finalActiveBytes = 0;      // allocator (rounded) bytes of active_allocated blocks
    std::int64_t unmatchedLive = 0;
    std::int64_t sizeMismatches = 0;
    std::int64_t reservedInitial = 0;
    std::int64_t reservedFinal = 0;
    std::int64_t segments = 0;

    bool consistent() const {
        return finalReplayed == finalActiveRequested + finalPendingRequested && unmatchedLive == 0 && sizeMismatches == 0;
    }
};

struct SnapshotSegmentRow {
    int device = 0;
    std::int64_t address = 0, totalSize = 0, allocatedSize = 0, activeSize = 0, requestedSize = 0, stream = 0;
    std::string segmentType, poolId;
    bool expandable = false;
    std::int32_t stack = -1;
};

struct SnapshotBlockRow {
    int device = 0;
    std::int64_t segmentAddress = 0, address = 0, size = 0, requestedSize = 0;
    std::string state; // active_allocated, active_pending_free, inactive
    std::int32_t stack = -1;
};

// One allocation's lifetime, in entry indexes of its device's trace.
struct SnapshotAllocationRow {
    int device = 0;
    std::int64_t address = 0;
    std::int64_t requestedSize = 0;
    std::optional<std::int64_t> blockSize; // known for blocks the final segments show
    std::int64_t allocSeq = -1;            // -1: allocated before the trace began
    std::optional<std::int64_t> freeSeq;   // none: alive at the end
    std::optional<std::int64_t> tAlloc, tFree;
    std::int32_t stack = -1, freeStack = -1;
    int origin = 0; // 0 traced, 1 before the trace (freed in it), 2 before the trace (alive at the end)
};

struct SnapshotOomRow {
    int device = 0;
    std::int64_t seq = 0, t = 0, requestedBytes = 0;
    std::optional<std::int64_t> deviceFreeBytes;
    std::int32_t stack = -1;
};

struct SnapshotAnnotationRow {
    std::optional<int> device;
    std::optional<std::int64_t> cudaDevice, t, timeUs;
    std::string stage, name;
};

struct FrameRow {
    std::string name, filename;
    std::int64_t line = 0;
};

} // namespace memviz

// SPDX-License-Identifier: MIT
#pragma once
// Read-side queries over the CUDA memory snapshot tables (docs/formats-snapshot.md): the
// per-device replay figures, allocator settings, OOMs and annotations; the allocations alive
// at any moment; the allocator state at any moment; call stacks. Widgets and the command line
// ask these; they never run SQL of their own.
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_set>
#include <utility>
#include <vector>

#include "formats/snapshot/SnapshotContext.h"
#include "formats/snapshot/SnapshotRows.h"
#include "trace/AllocatorState.h"
#include "trace/Event.h"

namespace memviz {

class Database;
struct StackCatalog;

struct SnapshotOverview {
    std::vector<SnapshotDeviceStats> devices;
    std::vector<std::pair<int, std::pair<std::string, std::int64_t>>> actionCounts; // (device, (action, count))
    std::vector<std::pair<std::string, std::string>> allocatorSettings;             // "max_split_size" -> "-1"
    std::vector<std::pair<std::string, std::string>> snapshotInfo;                  // layout, time source, ...
    std::vector<SnapshotOomRow> ooms;
    std::vector<SnapshotAnnotationRow> annotations;

    const SnapshotDeviceStats* device(int device) const;
};

// A labelled time span drawn on the timeline: an external annotation's START..END.
struct AnnotationSpan {
    std::optional<int> device;
    std::string name;
    std::int64_t begin = 0, end = 0;
    bool open = false; // START without END: runs to the end of the trace
};

bool isSnapshotTrace(Database& db, std::int64_t traceId);
SnapshotOverview loadSnapshotOverview(Database& db, std::int64_t traceId);
// START/END annotations paired by device and name, in time order; `traceEnd` closes open ones.
std::vector<AnnotationSpan> annotationSpans(const std::vector<SnapshotAnnotationRow>& rows, std::int64_t traceEnd);

// Every allocation of a device with its lifetime (entry indexes and times).
std::vector<SnapshotAllocationRow> loadAllocations(Database& db, std::int64_t traceId, int device);
// Indexes into `all` of the allocations alive after entry `moment` (-1: before the first
// entry), largest first.
std::vector<std::size_t> aliveAt(const std::vector<SnapshotAllocationRow>& all, std::int64_t moment);

// What the search box of the allocation list means: text starting with "0x" (or only
// decimal digits) looks for addresses containing those hex digits (or that decimal number);
// anything else looks for allocations whose stack has a frame containing the text.
struct AllocationSearch {
    std::string text;
    static bool isAddress(std::string_view text);
};
// Keeps the indexes (into `all`) that match; `stacks` answers frame-text searches.
std::vector<std::size_t> filterAllocations(const std::vector<SnapshotAllocationRow>& all, const std::vector<std::size_t>& indexes,
                                           const AllocationSearch& search, const StackCatalog& stacks);
// The same in two steps, for a worker: allocationFilter() looks up the stacks a frame-text
// search matches (in the catalog, on the thread that owns it; bounded by the catalog, not the
// allocations), and filterAllocations() with it needs no catalog.
struct AllocationFilter {
    std::string text; // trimmed; empty: everything matches
    bool address = false;
    std::unordered_set<std::int32_t> stacks; // a frame-text search: the stacks that match
};
AllocationFilter allocationFilter(const AllocationSearch& search, const StackCatalog& stacks);
std::vector<std::size_t> filterAllocations(const std::vector<SnapshotAllocationRow>& all, const std::vector<std::size_t>& indexes,
                                           const AllocationFilter& filter);
// The entry (index in the device's trace) in effect at time t: the last one at or before t;
// -1 before the first.
std::int64_t entryAtTime(Database& db, std::int64_t traceId, int device, std::int64_t t);
// The time of an entry (nullopt when out of range).
std::optional<std::int64_t> entryTime(Database& db, std::int64_t traceId, int device, std::int64_t seq);
// The device's entries with index >= fromSeq, in order, as stored events.
std::vector<Event> loadEntries(Database& db, std::int64_t traceId, int device, std::int64_t fromSeq);

std::vector<SnapshotSegmentRow> loadSegments(Database& db, std::int64_t traceId, int device);
std::vector<SnapshotBlockRow> loadBlocks(Database& db, std::int64_t traceId, int device);
// The allocator's segments and blocks after entry `moment` (-1: before the first entry).
AllocatorState allocatorStateAt(Database& db, std::int64_t traceId, int device, std::int64_t moment,
                                const std::vector<SnapshotAllocationRow>& allocations);

// Call stacks: all frames of the trace, each stack's frame ids (innermost first), and the
// stacks with a frame whose name or file contains `text` (case-insensitive); the entries'
// compile contexts, user metadata and forward stacks.
struct StackCatalog {
    std::vector<FrameRow> frames;
    std::vector<std::vector<std::int32_t>> stacks;
    SnapshotContexts contexts;

    std::vector<FrameRow> framesOf(std::int32_t stack) const;
    // "forward (model.py:54)": the innermost Python frame, else the innermost frame's name.
    std::string siteOf(std::int32_t stack) const;
    std::unordered_set<std::int32_t> stacksMatching(std::string_view text) const;
};
StackCatalog loadStackCatalog(Database& db, std::int64_t traceId);

} // namespace memviz

// SPDX-License-Identifier: MIT
#pragma once
// A CUDA memory snapshot (torch.cuda.memory._dump_snapshot) as plain C++ values, read from its
// pickle by SnapshotReader and turned into a trace by SnapshotBuilder. Frames are already
// interned: `stack` fields index the StackTable (kNoName = no frames recorded).
#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "core/HugePages.h"
#include "trace/Event.h"

namespace memviz::snapshot {

enum class Action : std::uint8_t {
    Alloc,
    FreeRequested,
    FreeCompleted,
    Free, // legacy: one record for free_requested + free_completed
    SegmentAlloc,
    SegmentFree,
    SegmentMap,
    SegmentUnmap,
    Snapshot,
    Oom,
    Annotate,
    Unknown, // an action this memviz does not know; counted and kept as a marker
};

const char* actionName(Action a);

// 32 bytes: a snapshot can hold tens of millions of entries, and their records are what a
// streamed import keeps (issue 12). The rare fields are in EntryExtras, per run of entries.
struct Entry {
    std::int64_t timeUs = 0; // valid when hasTime
    std::int64_t addr = 0;   // for oom: the device's free bytes (device_free), when known
    std::int64_t size = 0;   // bytes; the size the caller asked for (not the allocator's rounding)
    std::int32_t stack = kNoName;
    Action action = Action::Unknown;
    bool hasTime = false;
    bool hasAddr = false;
};

struct EntryExtras {
    std::int32_t unknownAction = -1; // index into SnapshotData::unknownActions for Action::Unknown
    // compile_context, user_metadata and forward_frames (as text), indexes into
    // SnapshotData::contextTexts; -1 when the entry has none (or an empty one).
    std::int32_t compileContext = -1, userMetadata = -1, forwardFrames = -1;
    std::int64_t stream = 0; // the CUDA stream the entry's block belongs to (0: the default stream)

    bool operator==(const EntryExtras&) const = default;
};

// The extras of entries firstSeq, firstSeq + 1, ... up to the next run (or the end).
struct ExtrasRun {
    std::int64_t firstSeq = 0;
    EntryExtras extras;
};

// One trace's entries, and their extras as runs: a new run only where they change (files
// have none, or one compile context for thousands of entries).
// In huge pages where the system allows them (core/HugePages.h): 13M entries are 416 MB, filled
// front to back while the pickle is read, and in 4 KiB pages their first touches were half of a
// 1 GB snapshot import's page faults (issue 33).
using EntryVector = HugeVector<Entry>;

struct TraceEntries {
    EntryVector entries;
    std::vector<ExtrasRun> extras; // by firstSeq; entries before the first run have none

    void push(const Entry& e, const EntryExtras& x) {
        if (extras.empty() ? x != EntryExtras{} : x != extras.back().extras)
            extras.push_back({static_cast<std::int64_t>(entries.size()), x});
        entries.push_back(e);
    }
    EntryExtras extrasAt(std::size_t k) const {
        EntryExtras x;
        for (auto lo = extras.begin(), hi = extras.end(); lo != hi;) {
            const auto mid = lo + (hi - lo) / 2;
            if (mid->firstSeq <= static_cast<std::int64_t>(k)) {
                x = mid->extras;
                lo = mid + 1;
            } else {
                hi = mid;
            }
        }
        return x;
    }
};

enum class BlockState : std::uint8_t { ActiveAllocated, ActivePendingFree, Inactive, Unknown };

const char* blockStateName(BlockState s);
inline bool isAllocatedState(BlockState s) { return s == BlockState::ActiveAllocated || s == BlockState::ActivePendingFree; }

struct Block {
    std::int64_t address = 0;
    std::int64_t size = 0;          // the allocator's block size
    std::int64_t requestedSize = 0; // what the caller asked for
    std::int32_t stack = kNoName;
    BlockState state = BlockState::Unknown;
};

// Device numbers: the CUDA device index, or kHostDevice for pinned host memory
// (host_segments / host_traces).
constexpr std::int64_t kHostDevice = -1;

// The memviz device name: "cuda:0", ..., "pinned host".
inline std::string deviceName(std::int64_t number) {
    return number == kHostDevice ? std::string("pinned host") : "cuda:" + std::to_string(number);
}

struct Segment {
    std::int64_t cudaDevice = 0;
    std::int64_t address = 0;
    std::int64_t totalSize = 0;
    std::int64_t allocatedSize = 0;
    std::int64_t activeSize = 0;
    std::int64_t requestedSize = 0;
    std::int64_t stream = 0;
    std::string segmentType; // "large" / "small"
    std::string poolId;      // "(0, 0)"
    bool expandable = false;
    std::int32_t stack = kNoName;
    std::vector<Block> blocks;
};

struct Annotation {
    std::optional<std::int64_t> cudaDevice;
    std::optional<std::int64_t> timeUs;
    std::string stage; // START / END
    std::string name;
};

struct SnapshotData {
    bool legacySegmentList = false; // a 2022 file: a bare list of segments
    std::vector<Segment> segments;
    std::vector<std::pair<std::int64_t, TraceEntries>> traces; // (device number, its entries)
    std::vector<Annotation> annotations;
    std::vector<std::pair<std::string, std::string>> settings; // allocator_settings, flattened
    std::vector<std::string> unknownActions;
    std::vector<std::string> otherTopLevelKeys; // keys memviz does not read
    std::vector<std::string> contextTexts;      // distinct compile contexts, user metadata, forward stacks
};

} // namespace memviz::snapshot

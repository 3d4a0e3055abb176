// SPDX-License-Identifier: MIT
#pragma once
// The snapshot reader's internals (SnapshotReader.cpp), shared with its streaming front
// (SnapshotStream.cpp): not for other files.
#include <cstdint>
#include <functional>
#include <span>
#include <string>
#include <unordered_map>

#include "formats/snapshot/KeyDispatch.h"
#include "formats/snapshot/SnapshotData.h"
#include "formats/snapshot/SnapshotReader.h"
#include "formats/snapshot/StackTable.h"
#include "pickle/PickleValue.h"

namespace memviz {
class Progress;
}

namespace memviz::snapshot {
class ReplayFollower;
}

namespace memviz::snapshot::detail {

using pickle::Document;
using pickle::Kind;
using pickle::Value;
using Where = std::function<std::string()>;

enum class EF : std::uint8_t { Unknown, Action, Addr, Size, TimeUs, Frames, DeviceFree, CompileContext, UserMetadata, ForwardFrames, Stream };
enum class SF : std::uint8_t {
    Unknown,
    Device,
    Address,
    TotalSize,
    AllocatedSize,
    ActiveSize,
    RequestedSize,
    Stream,
    SegmentType,
    PoolId,
    Expandable,
    Frames,
    Blocks,
};
enum class BF : std::uint8_t { Unknown, Address, Size, RequestedSize, State, Frames, History };

class Reader {
public:
    Reader(const Document& doc, StackTable& stacks, const Progress& progress, const WarnFn& warn)
        : doc_(doc), stacks_(stacks), progress_(progress), warn_(warn) {}

    SnapshotData run();

    // Streaming (SnapshotStream): the items of a list the pickle reader handed on, read right
    // away into records that run() then uses where the tree holds that list.
    void streamEntries(std::size_t list, std::span<const Value> items);
    void streamSegments(std::size_t list, std::span<const Value> items);
    // Entries the pickle reader read without building them (StreamSink::takeFlat): each one's
    // keys and values, dict i ending at ends[i].
    void streamFlatEntries(std::size_t list, std::span<const Value> keysAndValues, std::span<const std::uint32_t> ends);
    // See SnapshotStream::expectEntriesUpTo.
    void expectEntriesUpTo(std::uint64_t n) { entriesHint_ = n; }
    // Streamed entries are replayed by `follower` as they come (SnapshotStream owns it); null:
    // no more.
    void replayWith(ReplayFollower* follower) { follower_ = follower; }
    // The records of a streamed list of entries so far (until run() takes them).
    const EntryVector& streamedEntries(std::size_t list) const { return streamed_.at(list).entries.entries; }

private:
    struct StreamedList {
        bool trace = false;          // entries (else segments)
        std::size_t order = 0;       // handed on as the order-th streamed list
        TraceEntries entries;        // moved out at the first use
        std::vector<Segment> segments;
        bool used = false;
        std::size_t usedAt = 0;      // where the first use put them (out_.traces / out_.segments)
        std::size_t followed = 0;    // its slot in follower_
    };
    StreamedList* streamed(const Value& list, bool trace);
    StreamedList& streamedList(std::size_t list, bool trace); // created at its first items
    // Around appending `count` entries to a streamed list: room made first (its vector grows
    // only while the follower holds still), then the new count published to the follower.
    void makeRoom(StreamedList& s, std::size_t count);
    void publish(const StreamedList& s);
    void readTopDict(const Value& root);
    void readSegments(const Value& list, const std::string& name, std::optional<std::int64_t> forcedDevice);
    Segment readSegment(const Value& v, const Where& where);
    Block readBlock(const Value& v, std::int64_t runningAddress, const Where& where);
    TraceEntries readTrace(const Value& list, const std::string& name);
    Entry readEntry(const Value& v, const Where& where, EntryExtras& extras);
    Entry readEntryItems(std::span<const Value> keysAndValues, const Where& where, EntryExtras& extras);
    void readAnnotations(const Value& list);
    void flattenSettings(const std::string& prefix, const Value& v, int depth);
    void readHost(const Value* segments, const Value* traces);
    std::int32_t contextText(const Value& v, const Where& where, std::string_view field);

    const Document& doc_;
    StackTable& stacks_;
    const Progress& progress_;
    const WarnFn& warn_;
    SnapshotData out_;
    std::unordered_map<std::string, std::int32_t> unknownActions_;
    std::int64_t entriesRead_ = 0;
    std::uint64_t entriesHint_ = 0; // expectEntriesUpTo
    ReplayFollower* follower_ = nullptr;
    std::unordered_map<std::size_t, StreamedList> streamed_;
    std::size_t streamedLists_ = 0, firstUses_ = 0;

    KeyDispatch<EF, 10> entryKeys_{{{{"action", EF::Action},
                                    {"addr", EF::Addr},
                                    {"size", EF::Size},
                                    {"time_us", EF::TimeUs},
                                    {"frames", EF::Frames},
                                    {"device_free", EF::DeviceFree},
                                    {"compile_context", EF::CompileContext},
                                    {"user_metadata", EF::UserMetadata},
                                    {"forward_frames", EF::ForwardFrames},
                                    {"stream", EF::Stream}}},
                                  EF::Unknown};
    std::unordered_map<std::string, std::int32_t> contextIds_;
    std::unordered_map<std::int64_t, std::int32_t> contextByValue_; // str values by their place in the pickle
    KeyDispatch<Action, 11> actions_{{{{"alloc", Action::Alloc},
                                       {"free_requested", Action::FreeRequested},
                                       {"free_completed", Action::FreeCompleted},
                                       {"free", Action::Free},
                                       {"segment_alloc", Action::SegmentAlloc},
                                       {"segment_free", Action::SegmentFree},
                                       {"segment_map", Action::SegmentMap},
                                       {"segment_unmap", Action::SegmentUnmap},
                                       {"snapshot", Action::Snapshot},
                                       {"oom", Action::Oom},
                                       {"annotate", Action::Annotate}}},
                                     Action::Unknown};
    KeyDispatch<SF, 12> segmentKeys_{{{{"device", SF::Device},
                                       {"address", SF::Address},
                                       {"total_size", SF::TotalSize},
                                       {"allocated_size", SF::AllocatedSize},
                                       {"active_size", SF::ActiveSize},
                                       {"requested_size", SF::RequestedSize},
                                       {"stream", SF::Stream},
                                       {"segment_type", SF::SegmentType},
                                       {"segment_pool_id", SF::PoolId},
                                       {"is_expandable", SF::Expandable},
                                       {"frames", SF::Frames},
                                       {"blocks", SF::Blocks}}},
                                     SF::Unknown};
    KeyDispatch<BF, 6> blockKeys_{{{{"address", BF::Address},
                                    {"size", BF::Size},
                                    {"requested_size", BF::RequestedSize},
                                    {"state", BF::State},
                                    {"frames", BF::Frames},
                                    {"history", BF::History}}},
                                  BF::Unknown};
    KeyDispatch<BlockState, 3> states_{{{{"active_allocated", BlockState::ActiveAllocated},
                                         {"active_pending_free", BlockState::ActivePendingFree},
                                         {"inactive", BlockState::Inactive}}},
                                       BlockState::Unknown};
};

} // namespace memviz::snapshot::detail

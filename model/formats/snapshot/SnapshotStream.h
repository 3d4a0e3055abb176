// SPDX-License-Identifier: MIT
#pragma once
// Reads a CUDA snapshot pickle as a stream (issue 12): the pickle reader hands each segment of
// `segments` and each entry of `device_traces[d]` to this sink as soon as it is built; the
// sink turns it into its SnapshotData record at once and the pickle's values for it are
// released. Frame lists and frame dicts shared through the memo are recognised by identity
// (StackTable), so a released one met again still gives its stack. What is left of the tree
// (settings, annotations, pinned host memory) is read at the end, as readSnapshot() reads it.
// A pickle the stream cannot honour exactly (a released value read again, lists in an
// unexpected place or order, any error) ends in pickle::StreamFallback: the caller then reads
// the whole tree, which also gives the exact error message.
#include <cstdint>
#include <memory>
#include <span>
#include <unordered_map>
#include <vector>

#include "formats/snapshot/SnapshotReader.h"
#include "formats/snapshot/SnapshotReplay.h"
#include "pickle/PickleStream.h"

namespace memviz::snapshot {

namespace detail {
class Reader;
}
class ReplayFollower;
class SnapshotPreview;

class SnapshotStream : public pickle::StreamSink {
public:
    // Keeps a copy of `warn`; `progress` must outlive the stream (a temporary would dangle: the
    // fuzz harness passed Progress{} and a temporary callback, and crashed when a warning came).
    SnapshotStream(const pickle::Document& doc, StackTable& stacks, const Progress& progress, WarnFn warn);
    SnapshotStream(const pickle::Document& doc, StackTable& stacks, Progress&& progress, WarnFn warn) = delete;
    ~SnapshotStream() override;

    bool claim(const pickle::Document& doc, std::span<const pickle::Value> below) override;
    void take(const pickle::Document& doc, const pickle::Value& list, std::span<const pickle::Value> items) override;
    // Trace entries are read flat (the pickle reader's fast path); segments are built.
    bool acceptsFlat(const pickle::Document& doc, const pickle::Value& list) override;
    void takeFlat(const pickle::Document& doc, const pickle::Value& list, std::span<const pickle::Value> keysAndValues,
                  std::span<const std::uint32_t> ends) override;
    // Frames lists and frame dicts already interned: StackTable knows them again by identity.
    // Anything else inside an entry or segment (a pool id tuple, a history list) stays, as
    // PyTorch's pickler shares some of them and the end of the tree may read them.
    bool mayRelease(const pickle::Document& doc, const pickle::Value& container) override;
    void forget(std::size_t containerId) override;
    // A released frames list or frame dict: the stack table's id for it (StackTable::knownAs).
    std::optional<std::int64_t> knownAs(const pickle::Document& doc, const pickle::Value& container) override;

    // After the pickle reached STOP: reads the rest of the tree. Throws StreamFallback, ImportError.
    SnapshotData finish();
    // The trace entries' replays made while they were read (on a second thread), once finish()
    // returned: for SnapshotBuilder::useReplays.
    std::vector<ReplayedEntries> takeReplays() { return std::move(replays_); }
    // Trace entries handed on while the pickle was read.
    std::uint64_t streamedEntries() const { return entries_; }
    // The most entries a streamed trace is expected to hold (from the file's size): each one's
    // records are reserved that far at its first entry, so 13 million of them are not copied
    // from array to twice-as-large array on the way (address space only: untouched pages cost
    // no memory). A hint: a trace that holds more grows as before.
    void expectEntriesUpTo(std::uint64_t n);

private:
    enum class Role : std::uint8_t { Segments, Trace };
    bool claimed(Role role, std::int64_t device = 0);
    void previewNewEntries(std::size_t list, std::int64_t device, std::size_t count);
    void followWhileWorthIt();
    const pickle::Document& doc_;
    StackTable& stacks_;
    WarnFn warn_; // the reader refers to it
    std::unique_ptr<detail::Reader> reader_;
    std::unique_ptr<ReplayFollower> follower_; // after reader_: stops before its entries go; null once dropped
    std::vector<ReplayedEntries> replays_;
    struct Claim {
        Role role = Role::Segments;
        std::int64_t device = 0; // for a trace: its place in device_traces
    };
    std::unordered_map<std::size_t, Claim> roles_;
    Claim claimed_; // the list claimed last
    std::unique_ptr<SnapshotPreview> preview_;
    std::uint64_t entries_ = 0;
    std::uint64_t known_ = 0; // frames lists and frame dicts the memo now gives as Known values
};

} // namespace memviz::snapshot

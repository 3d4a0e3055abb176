// SPDX-License-Identifier: MIT
#include "formats/snapshot/SnapshotStream.h"

#include "core/Errors.h"
#include "formats/snapshot/ReplayFollower.h"
#include "formats/snapshot/SnapshotPreview.h"
#include "formats/snapshot/SnapshotReaderImpl.h"

namespace memviz::snapshot {

using pickle::Kind;
using pickle::Value;

SnapshotStream::SnapshotStream(const pickle::Document& doc, StackTable& stacks, const Progress& progress, WarnFn warn)
    : doc_(doc), stacks_(stacks), warn_(std::move(warn)), reader_(std::make_unique<detail::Reader>(doc, stacks, progress, warn_)),
      follower_(std::make_unique<ReplayFollower>()) {
    reader_->replayWith(follower_.get());
    if (PreviewSink* sink = previewSink()) preview_ = std::make_unique<SnapshotPreview>(*sink);
}

SnapshotStream::~SnapshotStream() = default;

void SnapshotStream::expectEntriesUpTo(std::uint64_t n) { reader_->expectEntriesUpTo(n); }

// The lists PyTorch writes, recognised by what is on the stack while they fill. Python's
// pickler writes the root dict, then its keys and values on the stack above it until SETITEMS:
// [root, key, value, ..., "segments", SEGMENTS] and [root, ..., "device_traces", TRACES,
// DEVICE_0, ..., DEVICE_d-1] under DEVICE_d. The 2022 form is a bare list of segments at the
// bottom. Device traces are streamed only after a streamed (or empty) segments list, so that
// stacks are numbered in the order the whole tree numbers them (segments first).
bool SnapshotStream::claim(const pickle::Document& doc, std::span<const Value> below) {
    const auto isKey = [&](const Value& v, std::string_view key) { return v.kind == Kind::Str && doc.text(v) == key; };
    if (below.empty()) return claimed(Role::Segments);
    if (below[0].kind != Kind::Dict) return false;
    // below[1], below[3], ... are keys; the value of the last key may be what is filling.
    bool segmentsDone = false;
    for (std::size_t k = 1; k < below.size(); k += 2) {
        if (below[k].kind != Kind::Str) return false;
        if (k + 1 == below.size()) return isKey(below[k], "segments") && claimed(Role::Segments);
        const Value& value = below[k + 1];
        if (isKey(below[k], "segments"))
            segmentsDone = value.kind == Kind::List && (doc.isStreamed(value) || doc.size(value) == 0);
        if (isKey(below[k], "device_traces") && value.kind == Kind::List) {
            for (std::size_t i = k + 2; i < below.size(); ++i)
                if (below[i].kind != Kind::List) return false;
            return segmentsDone && claimed(Role::Trace, static_cast<std::int64_t>(below.size() - (k + 2)));
        }
    }
    return false;
}

bool SnapshotStream::claimed(Role role, std::int64_t device) {
    claimed_ = {role, device}; // take() follows at once, for this list
    return true;
}

void SnapshotStream::take(const pickle::Document&, const Value& list, std::span<const Value> items) {
    const std::size_t id = doc_.containerId(list);
    auto it = roles_.find(id);
    if (it == roles_.end()) it = roles_.emplace(id, claimed_).first;
    try {
        if (it->second.role == Role::Segments) {
            reader_->streamSegments(id, items);
        } else {
            reader_->streamEntries(id, items);
            previewNewEntries(id, it->second.device, items.size());
        }
    } catch (const ImportError& e) {
        // The whole tree names the entry or segment and the problem exactly.
        throw pickle::StreamFallback(e.what());
    }
}

bool SnapshotStream::acceptsFlat(const pickle::Document&, const Value& list) {
    const auto it = roles_.find(doc_.containerId(list));
    return it != roles_.end() && it->second.role == Role::Trace;
}

void SnapshotStream::takeFlat(const pickle::Document&, const Value& list, std::span<const Value> keysAndValues,
                              std::span<const std::uint32_t> ends) {
    const std::size_t id = doc_.containerId(list);
    try {
        reader_->streamFlatEntries(id, keysAndValues, ends);
        previewNewEntries(id, roles_.at(id).device, ends.size());
    } catch (const ImportError& e) {
        throw pickle::StreamFallback(e.what());
    }
}

// The replay's allocations, made beside the parse, add to the document's memory where they
// would otherwise come after it is gone. That is cheap while the document stays small (the memo
// compacts behind the entries), not when it keeps something per entry: a frames list of its own
// that the memo must give again as a Known value (5 bytes each, besides the containers still
// taken), 170 MB of a 3 GB file's peak (issue 33). Then the builder replays after the parse.
void SnapshotStream::followWhileWorthIt() {
    if (!follower_) return;
    const std::uint64_t kept = known_ + doc_.containerCount();
    if (kept <= (1u << 16) || kept <= entries_ / 4) return;
    reader_->replayWith(nullptr);
    follower_.reset(); // stops its thread and frees its passes; not asked again
}

void SnapshotStream::previewNewEntries(std::size_t list, std::int64_t device, std::size_t count) {
    entries_ += count;
    followWhileWorthIt();
    if (!preview_) return;
    const auto& all = reader_->streamedEntries(list);
    preview_->add(device, std::span(all).last(count));
    preview_->flush();
}

bool SnapshotStream::mayRelease(const pickle::Document& doc, const Value& container) {
    return stacks_.interned(doc.containerId(container));
}

void SnapshotStream::forget(std::size_t containerId) { stacks_.forget(containerId); }

std::optional<std::int64_t> SnapshotStream::knownAs(const pickle::Document& doc, const Value& container) {
    const std::optional<std::int64_t> id = stacks_.knownAs(doc.containerId(container));
    known_ += id.has_value();
    return id;
}

SnapshotData SnapshotStream::finish() {
    if (preview_) preview_->finish();
    if (follower_) replays_ = follower_->finish(); // before run() moves the entries on
    try {
        return reader_->run();
    } catch (const ImportError& e) {
        throw pickle::StreamFallback(e.what());
    }
}

} // namespace memviz::snapshot

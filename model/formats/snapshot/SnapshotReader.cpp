// SPDX-License-Identifier: MIT
#include "formats/snapshot/SnapshotReader.h"

#include <charconv>
#include <new>
#include <unordered_map>

#include "core/Errors.h"
#include "core/Progress.h"
#include "formats/FormatIds.h"
#include "formats/snapshot/ReplayFollower.h"
#include "formats/snapshot/SnapshotReaderImpl.h"

namespace memviz::snapshot {

namespace {

using detail::Document;
using detail::Kind;
using detail::Value;
using detail::Where;

[[noreturn]] void wrongType(const Where& where, std::string_view field, const Value& v, const char* expected) {
    throw ImportError(where() + ": '" + std::string(field) + "' is " + pickle::kindWithArticle(v.kind) + ", not " + expected);
}

[[noreturn]] void outOfRange(const Where& where, std::string_view field, const Value& v, const char* range) {
    const std::string value = v.kind == Kind::UInt64 ? std::to_string(static_cast<std::uint64_t>(v.payload))
                                                     : std::to_string(v.payload);
    throw ImportError(where() + ": '" + std::string(field) + "' is out of range (" + value + "; expected " + range + ")");
}

// An int that fits int64: a value in [2^63, 2^64) is the right type but out of range.
std::int64_t signedInt(const Value& v, const Where& where, std::string_view field) {
    if (v.kind == Kind::UInt64) outOfRange(where, field, v, "at most 2^63 - 1");
    if (v.kind != Kind::Int) wrongType(where, field, v, "an int");
    return v.payload;
}

std::int64_t nonNegative(const Value& v, const Where& where, std::string_view field) {
    if (v.kind == Kind::Int || v.kind == Kind::UInt64) {
        if (v.kind == Kind::UInt64 || v.payload < 0) outOfRange(where, field, v, "0 to 2^63 - 1");
        return v.payload;
    }
    wrongType(where, field, v, "an int");
}

// Addresses and stream handles: any 64-bit pattern (a value >= 2^63 keeps its bits).
std::int64_t bits64(const Value& v, const Where& where, std::string_view field) {
    if (v.kind != Kind::Int && v.kind != Kind::UInt64) wrongType(where, field, v, "an int");
    return v.payload;
}

std::string textOf(const Document& doc, const Value& v) {
    char buf[64];
    switch (v.kind) {
    case Kind::Str: return std::string(doc.text(v));
    case Kind::Bool: return v.payload ? "True" : "False";
    case Kind::None: return "None";
    case Kind::Int: return std::to_string(v.payload);
    case Kind::UInt64: return std::to_string(static_cast<std::uint64_t>(v.payload));
    case Kind::Float: {
        const auto r = std::to_chars(buf, buf + sizeof buf, doc.real(v));
        return std::string(buf, r.ptr);
    }
    default: return pickle::debugString(doc, v, 16, 4096);
    }
}

} // namespace

namespace detail {

// compile_context (a str), user_metadata (a str, or a dict shown as "key: value" lines) and
// forward_frames (a list of str: the forward pass's traceback lines, joined as memory_viz
// does; a list of frame dicts is written as traceback lines too) as one interned text.
// None, '' and an empty list or dict are "none" (-1).
std::int32_t Reader::contextText(const Value& v, const Where& where, std::string_view field) {
    if (v.kind == Kind::None) return -1;
    // The pickler memoises strings: every entry's 'N/A' is one str object, read as text once.
    if (v.kind == Kind::Str)
        if (const auto it = contextByValue_.find(v.payload); it != contextByValue_.end()) return it->second;
    std::string text;
    if (v.kind == Kind::Str) {
        text = std::string(doc_.text(v));
    } else if (v.kind == Kind::Dict) {
        const auto kv = doc_.items(v);
        for (std::size_t i = 0; i + 1 < kv.size(); i += 2)
            text += (text.empty() ? "" : "\n") + textOf(doc_, kv[i]) + ": " + textOf(doc_, kv[i + 1]);
    } else if (v.kind == Kind::List || v.kind == Kind::Tuple) {
        for (const Value& item : doc_.items(v)) {
            if (item.kind == Kind::Str) {
                text += doc_.text(item);
            } else if (item.kind == Kind::Dict) {
                const Value* file = doc_.find(item, "filename");
                const Value* line = doc_.find(item, "line");
                const Value* name = doc_.find(item, "name");
                text += "  File \"" + (file ? textOf(doc_, *file) : std::string("??")) + "\", line " +
                        (line ? textOf(doc_, *line) : std::string("0")) + ", in " + (name ? textOf(doc_, *name) : std::string("??")) +
                        "\n";
            } else {
                wrongType(where, field, item, "a list of str or frame dicts");
            }
        }
    } else {
        wrongType(where, field, v, field == "forward_frames" ? "a list" : field == "user_metadata" ? "a str or a dict" : "a str");
    }
    while (!text.empty() && (text.back() == '\n' || text.back() == ' ')) text.pop_back();
    std::int32_t id = -1;
    if (!text.empty()) {
        auto [it, inserted] = contextIds_.try_emplace(text, static_cast<std::int32_t>(out_.contextTexts.size()));
        if (inserted) out_.contextTexts.push_back(text);
        id = it->second;
    }
    if (v.kind == Kind::Str) contextByValue_[v.payload] = id;
    return id;
}

Entry Reader::readEntry(const Value& v, const Where& where, EntryExtras& x) {
    if (v.kind != Kind::Dict)
        throw ImportError(where() + ": an entry that is " + pickle::kindWithArticle(v.kind) + ", not a dict");
    return readEntryItems(doc_.items(v), where, x);
}

Entry Reader::readEntryItems(std::span<const Value> kv, const Where& where, EntryExtras& x) {
    const Value *action = nullptr, *addr = nullptr, *size = nullptr, *time = nullptr, *frames = nullptr, *free = nullptr;
    const Value *compile = nullptr, *metadata = nullptr, *forward = nullptr, *stream = nullptr;
    for (std::size_t i = 0; i + 1 < kv.size(); i += 2) {
        switch (entryKeys_(doc_, kv[i])) {
        case EF::Action: action = &kv[i + 1]; break;
        case EF::Addr: addr = &kv[i + 1]; break;
        case EF::Size: size = &kv[i + 1]; break;
        case EF::TimeUs: time = &kv[i + 1]; break;
        case EF::Frames: frames = &kv[i + 1]; break;
        case EF::DeviceFree: free = &kv[i + 1]; break;
        case EF::CompileContext: compile = &kv[i + 1]; break;
        case EF::UserMetadata: metadata = &kv[i + 1]; break;
        case EF::ForwardFrames: forward = &kv[i + 1]; break;
        case EF::Stream: stream = &kv[i + 1]; break;
        case EF::Unknown: break;
        }
    }
    Entry e;
    x = {};
    if (!action) throw ImportError(where() + ": an entry without 'action'");
    if (action->kind != Kind::Str) wrongType(where, "action", *action, "a str");
    e.action = actions_(doc_, *action);
    if (e.action == Action::Unknown) {
        const std::string name(doc_.text(*action));
        auto [it, inserted] = unknownActions_.try_emplace(name, static_cast<std::int32_t>(out_.unknownActions.size()));
        if (inserted) out_.unknownActions.push_back(name);
        x.unknownAction = it->second;
    }
    const bool needsAddr = e.action != Action::Oom && e.action != Action::Snapshot && e.action != Action::Annotate &&
                           e.action != Action::Unknown;
    if (e.action == Action::Oom) {
        if (free) {
            e.addr = nonNegative(*free, where, "device_free");
            e.hasAddr = true;
        } else if (addr) { // older files kept the free bytes in 'addr'
            e.addr = nonNegative(*addr, where, "addr");
            e.hasAddr = true;
        }
    } else if (addr) {
        e.addr = bits64(*addr, where, "addr");
        e.hasAddr = true;
    } else if (needsAddr) {
        throw ImportError(where() + ": a '" + actionName(e.action) + "' entry without 'addr'");
    }
    if (size) e.size = nonNegative(*size, where, "size");
    else if (needsAddr || e.action == Action::Oom)
        throw ImportError(where() + ": a '" + actionName(e.action) + "' entry without 'size'");
    if (time) {
        e.timeUs = signedInt(*time, where, "time_us");
        e.hasTime = true;
    }
    if (frames) e.stack = stacks_.intern(*frames, [&] { return where() + ".frames"; });
    if (compile) x.compileContext = contextText(*compile, where, "compile_context");
    if (metadata) x.userMetadata = contextText(*metadata, where, "user_metadata");
    if (forward) x.forwardFrames = contextText(*forward, where, "forward_frames");
    if (stream && stream->kind != Kind::None) x.stream = bits64(*stream, where, "stream");
    return e;
}

// A list the streaming reader handed on: its records, or null for a list read from the tree.
// First uses must come in the order the lists were streamed (stacks, unknown actions and
// context texts are numbered in the order they are met), or the whole tree is read instead.
Reader::StreamedList* Reader::streamed(const Value& list, bool trace) {
    if (!doc_.isStreamed(list)) return nullptr;
    StreamedList& s = streamed_.at(doc_.containerId(list));
    if (s.trace != trace) throw pickle::StreamFallback("a streamed list read as another kind");
    if (!s.used && s.order != firstUses_++) throw pickle::StreamFallback("streamed lists used out of order");
    return &s;
}

Reader::StreamedList& Reader::streamedList(std::size_t list, bool trace) {
    auto [it, inserted] = streamed_.try_emplace(list);
    if (inserted) {
        it->second.trace = trace;
        it->second.order = streamedLists_++;
        if (trace && entriesHint_) {
            try {
                it->second.entries.entries.reserve(static_cast<std::size_t>(entriesHint_));
            } catch (const std::bad_alloc&) {
                // A hint: the records grow as they come.
            }
        }
        // At most one allocation per entry (and per block at the end: those few may grow).
        if (trace && follower_) it->second.followed = follower_->follow(it->second.entries.entries.capacity());
    }
    return it->second;
}

void Reader::makeRoom(StreamedList& s, std::size_t count) {
    EntryVector& v = s.entries.entries;
    if (!follower_ || v.capacity() - v.size() >= count) return;
    follower_->regrow(s.followed, [&] {
        v.reserve(std::max(v.capacity() * 2, v.size() + count));
        return v.data();
    });
}

void Reader::publish(const StreamedList& s) {
    if (follower_) follower_->published(s.followed, s.entries.entries.data(), s.entries.entries.size(),
                                       s.entries.entries.capacity());
}

void Reader::streamEntries(std::size_t list, std::span<const Value> items) {
    StreamedList& s = streamedList(list, true);
    makeRoom(s, items.size());
    TraceEntries& entries = s.entries;
    EntryExtras extras;
    for (const Value& item : items) {
        // Errors fall back to the whole tree, which names the entry; this name is not shown.
        const Entry e = readEntry(
            item, [] { return std::string("device_traces"); }, extras);
        entries.push(e, extras);
        if ((++entriesRead_ & 0xffff) == 0) progress_.checkCancelled();
    }
    publish(s);
}

void Reader::streamFlatEntries(std::size_t list, std::span<const Value> keysAndValues, std::span<const std::uint32_t> ends) {
    StreamedList& s = streamedList(list, true);
    makeRoom(s, ends.size());
    TraceEntries& entries = s.entries;
    EntryExtras extras;
    const Where where = [] { return std::string("device_traces"); }; // not shown, as in streamEntries
    std::uint32_t from = 0;
    for (const std::uint32_t end : ends) {
        entries.push(readEntryItems(keysAndValues.subspan(from, end - from), where, extras), extras);
        from = end;
        if ((++entriesRead_ & 0xffff) == 0) progress_.checkCancelled();
    }
    publish(s);
}

void Reader::streamSegments(std::size_t list, std::span<const Value> items) {
    std::vector<Segment>& segments = streamedList(list, false).segments;
    for (const Value& item : items) segments.push_back(readSegment(item, [] { return std::string("segments"); }));
}

TraceEntries Reader::readTrace(const Value& list, const std::string& name) {
    TraceEntries entries;
    if (list.kind == Kind::None) return entries;
    if (StreamedList* s = streamed(list, true)) {
        if (s->used) return out_.traces[s->usedAt].second; // the same list again (a copy, as the tree reads it twice)
        s->used = true;
        s->usedAt = out_.traces.size(); // both callers append the result next
        return std::move(s->entries);
    }
    if (list.kind != Kind::List)
        throw ImportError(name + ": " + std::string(pickle::kindWithArticle(list.kind)) + ", not a list");
    const auto items = doc_.items(list);
    entries.entries.reserve(items.size());
    EntryExtras extras;
    for (std::size_t i = 0; i < items.size(); ++i) {
        const Entry e = readEntry(
            items[i], [&] { return name + "[" + std::to_string(i) + "]"; }, extras);
        entries.push(e, extras);
        if ((++entriesRead_ & 0xffff) == 0) progress_.checkCancelled();
    }
    return entries;
}

Block Reader::readBlock(const Value& v, std::int64_t runningAddress, const Where& where) {
    if (v.kind != Kind::Dict)
        throw ImportError(where() + ": a block that is " + pickle::kindWithArticle(v.kind) + ", not a dict");
    Block b;
    b.address = runningAddress;
    const Value *requested = nullptr, *history = nullptr, *frames = nullptr;
    bool haveSize = false;
    const auto kv = doc_.items(v);
    for (std::size_t i = 0; i + 1 < kv.size(); i += 2) {
        const Value& x = kv[i + 1];
        switch (blockKeys_(doc_, kv[i])) {
        case BF::Address: b.address = bits64(x, where, "address"); break;
        case BF::Size:
            b.size = nonNegative(x, where, "size");
            haveSize = true;
            break;
        case BF::RequestedSize: requested = &x; break;
        case BF::State:
            if (x.kind != Kind::Str) wrongType(where, "state", x, "a str");
            b.state = states_(doc_, x);
            break;
        case BF::Frames: frames = &x; break;
        case BF::History: history = &x; break;
        case BF::Unknown: break;
        }
    }
    if (!haveSize) throw ImportError(where() + ": a block without 'size'");
    // Old files: no requested_size, and frames in history[0] (see docs/formats-snapshot.md).
    const Value* first = history && history->kind == Kind::List && !doc_.items(*history).empty() ? &doc_.items(*history)[0]
                                                                                                 : nullptr;
    if (history && history->kind != Kind::List && history->kind != Kind::None) wrongType(where, "history", *history, "a list");
    if (requested) b.requestedSize = nonNegative(*requested, where, "requested_size");
    else if (const Value* real = first ? doc_.find(*first, "real_size") : nullptr)
        b.requestedSize = nonNegative(
            *real, [&] { return where() + ".history[0]"; }, "real_size");
    else b.requestedSize = b.size;
    if (frames) b.stack = stacks_.intern(*frames, [&] { return where() + ".frames"; });
    else if (const Value* hf = first ? doc_.find(*first, "frames") : nullptr)
        b.stack = stacks_.intern(*hf, [&] { return where() + ".history[0].frames"; });
    return b;
}

Segment Reader::readSegment(const Value& v, const Where& where) {
    if (v.kind != Kind::Dict)
        throw ImportError(where() + ": a segment that is " + pickle::kindWithArticle(v.kind) + ", not a dict");
    Segment s;
    const Value* blocks = nullptr;
    bool haveAddress = false, haveTotal = false;
    const auto kv = doc_.items(v);
    for (std::size_t i = 0; i + 1 < kv.size(); i += 2) {
        const Value& x = kv[i + 1];
        switch (segmentKeys_(doc_, kv[i])) {
        case SF::Device: s.cudaDevice = nonNegative(x, where, "device"); break;
        case SF::Address:
            s.address = bits64(x, where, "address");
            haveAddress = true;
            break;
        case SF::TotalSize:
            s.totalSize = nonNegative(x, where, "total_size");
            haveTotal = true;
            break;
        case SF::AllocatedSize: s.allocatedSize = nonNegative(x, where, "allocated_size"); break;
        case SF::ActiveSize: s.activeSize = nonNegative(x, where, "active_size"); break;
        case SF::RequestedSize: s.requestedSize = nonNegative(x, where, "requested_size"); break;
        case SF::Stream: s.stream = bits64(x, where, "stream"); break;
        case SF::SegmentType: s.segmentType = textOf(doc_, x); break;
        case SF::PoolId: s.poolId = textOf(doc_, x); break;
        case SF::Expandable: s.expandable = x.kind == Kind::Bool && x.payload; break;
        case SF::Frames: s.stack = stacks_.intern(x, [&] { return where() + ".frames"; }); break;
        case SF::Blocks: blocks = &x; break;
        case SF::Unknown: break;
        }
    }
    if (!haveAddress) throw ImportError(where() + ": a segment without 'address'");
    if (!haveTotal) throw ImportError(where() + ": a segment without 'total_size'");
    if (!blocks) throw ImportError(where() + ": a segment without 'blocks'");
    if (blocks->kind != Kind::List) wrongType(where, "blocks", *blocks, "a list");
    const auto items = doc_.items(*blocks);
    s.blocks.reserve(items.size());
    std::int64_t running = s.address;
    for (std::size_t i = 0; i < items.size(); ++i) {
        s.blocks.push_back(readBlock(items[i], running, [&] { return where() + ".blocks[" + std::to_string(i) + "]"; }));
        // Wraps like the allocator's own uintptr arithmetic; only a fallback for blocks without 'address'.
        running = static_cast<std::int64_t>(static_cast<std::uint64_t>(s.blocks.back().address) +
                                            static_cast<std::uint64_t>(s.blocks.back().size));
    }
    return s;
}

void Reader::readSegments(const Value& list, const std::string& name, std::optional<std::int64_t> forcedDevice) {
    if (list.kind == Kind::None) return;
    if (list.kind != Kind::List)
        throw ImportError(name + ": " + std::string(pickle::kindWithArticle(list.kind)) + ", not a list");
    if (StreamedList* s = streamed(list, false)) {
        const std::size_t from = out_.segments.size();
        if (s->used) {
            const std::size_t n = s->segments.size();
            out_.segments.insert(out_.segments.end(), out_.segments.begin() + static_cast<std::ptrdiff_t>(s->usedAt),
                                 out_.segments.begin() + static_cast<std::ptrdiff_t>(s->usedAt + n));
        } else {
            s->used = true;
            s->usedAt = from;
            out_.segments.insert(out_.segments.end(), s->segments.begin(), s->segments.end());
        }
        if (forcedDevice)
            for (std::size_t i = from; i < out_.segments.size(); ++i) out_.segments[i].cudaDevice = *forcedDevice;
        return;
    }
    const auto items = doc_.items(list);
    for (std::size_t i = 0; i < items.size(); ++i) {
        out_.segments.push_back(readSegment(items[i], [&] { return name + "[" + std::to_string(i) + "]"; }));
        if (forcedDevice) out_.segments.back().cudaDevice = *forcedDevice;
    }
}

void Reader::readAnnotations(const Value& list) {
    if (list.kind != Kind::List) {
        warn_("annotations_unreadable", "external_annotations", "external_annotations is not a list; ignored");
        return;
    }
    for (const Value& a : doc_.items(list)) {
        if (a.kind != Kind::Dict) continue;
        Annotation out;
        if (const Value* s = doc_.find(a, "stage")) out.stage = textOf(doc_, *s);
        if (const Value* n = doc_.find(a, "name")) out.name = textOf(doc_, *n);
        if (const Value* d = doc_.find(a, "device"); d && d->kind == Kind::Int) out.cudaDevice = d->payload;
        if (const Value* t = doc_.find(a, "time_us"); t && t->kind == Kind::Int) out.timeUs = t->payload;
        out_.annotations.push_back(std::move(out));
    }
}

void Reader::flattenSettings(const std::string& prefix, const Value& v, int depth) {
    if (v.kind != Kind::Dict || depth > 4) {
        out_.settings.emplace_back(prefix, textOf(doc_, v));
        return;
    }
    const auto kv = doc_.items(v);
    for (std::size_t i = 0; i + 1 < kv.size(); i += 2) flattenSettings(prefix + "." + textOf(doc_, kv[i]), kv[i + 1], depth + 1);
}

// Pinned host memory (record_pinned_host_memory=True) is new and optional: it becomes one more
// device, and a layout memviz does not understand is a warning, not a failed import.
void Reader::readHost(const Value* segments, const Value* traces) {
    const std::size_t segmentsBefore = out_.segments.size();
    try {
        if (segments) readSegments(*segments, "host_segments", kHostDevice);
        if (traces) {
            const auto items = doc_.items(*traces);
            const bool nested = !items.empty() && items[0].kind == Kind::List;
            if (nested && items.size() == 1) out_.traces.emplace_back(kHostDevice, readTrace(items[0], "host_traces[0]"));
            else if (!nested) out_.traces.emplace_back(kHostDevice, readTrace(*traces, "host_traces"));
            else throw ImportError("host_traces: several lists of entries");
        }
    } catch (const ImportError& e) {
        out_.segments.resize(segmentsBefore);
        if (!out_.traces.empty() && out_.traces.back().first == kHostDevice) out_.traces.pop_back();
        warn_("host_memory_unreadable", "host_segments/host_traces",
              std::string("pinned host memory in a layout memviz does not read; ignored (") + e.what() + ")");
    }
}

void Reader::readTopDict(const Value& root) {
    const Value *segments = nullptr, *traces = nullptr, *hostSegments = nullptr, *hostTraces = nullptr;
    const auto kv = doc_.items(root);
    for (std::size_t i = 0; i + 1 < kv.size(); i += 2) {
        const std::string key = textOf(doc_, kv[i]);
        const Value& v = kv[i + 1];
        if (key == "segments") segments = &v;
        else if (key == "device_traces") traces = &v;
        else if (key == "allocator_settings") flattenSettings(metadata_key::kAllocatorSettings, v, 0);
        else if (key == "external_annotations") readAnnotations(v);
        else if (key == "host_segments") hostSegments = &v;
        else if (key == "host_traces") hostTraces = &v;
        else out_.otherTopLevelKeys.push_back(key);
    }
    if (!segments) {
        std::string keys;
        for (std::size_t i = 0; i + 1 < kv.size() && keys.size() < 200; i += 2)
            keys += (i ? ", " : "") + pickle::debugString(doc_, kv[i], 1, 60);
        throw ImportError("not a CUDA memory snapshot: the pickle holds a dict without 'segments' (keys: " +
                          (keys.empty() ? std::string("none") : keys) + ")");
    }
    readSegments(*segments, "segments", std::nullopt);
    if (traces) {
        if (traces->kind != Kind::List) wrongType([] { return std::string("snapshot"); }, "device_traces", *traces, "a list");
        const auto lists = doc_.items(*traces);
        for (std::size_t d = 0; d < lists.size(); ++d)
            out_.traces.emplace_back(static_cast<std::int64_t>(d),
                                     readTrace(lists[d], "device_traces[" + std::to_string(d) + "]"));
    }
    if (hostSegments || hostTraces) readHost(hostSegments, hostTraces);
}

SnapshotData Reader::run() {
    const Value& root = doc_.root();
    if (root.kind == Kind::Dict) {
        readTopDict(root);
    } else if (root.kind == Kind::List) {
        out_.legacySegmentList = true; // PyTorch 1.13 (2022): torch.cuda.memory_snapshot() itself
        readSegments(root, "segments", std::nullopt);
    } else {
        throw ImportError(std::string("not a CUDA memory snapshot: the pickle holds ") + pickle::kindWithArticle(root.kind) +
                          ", not a dict with 'segments' and 'device_traces'");
    }
    // A streamed list the tree does not hold where run() reads: its records would be missing,
    // and its stacks or texts numbered where the whole tree would not number them.
    for (const auto& [id, s] : streamed_)
        if (!s.used) throw pickle::StreamFallback("a streamed list is not where the snapshot is read");
    return std::move(out_);
}

} // namespace detail

const char* actionName(Action a) {
    switch (a) {
    case Action::Alloc: return "alloc";
    case Action::FreeRequested: return "free_requested";
    case Action::FreeCompleted: return "free_completed";
    case Action::Free: return "free";
    case Action::SegmentAlloc: return "segment_alloc";
    case Action::SegmentFree: return "segment_free";
    case Action::SegmentMap: return "segment_map";
    case Action::SegmentUnmap: return "segment_unmap";
    case Action::Snapshot: return "snapshot";
    case Action::Oom: return "oom";
    case Action::Annotate: return "annotate";
    case Action::Unknown: return "unknown";
    }
    return "unknown";
}

const char* blockStateName(BlockState s) {
    switch (s) {
    case BlockState::ActiveAllocated: return "active_allocated";
    case BlockState::ActivePendingFree: return "active_pending_free";
    case BlockState::Inactive: return "inactive";
    case BlockState::Unknown: return "unknown";
    }
    return "unknown";
}

SnapshotData readSnapshot(const pickle::Document& doc, StackTable& stacks, const Progress& progress, const WarnFn& warn) {
    detail::Reader reader(doc, stacks, progress, warn);
    return reader.run();
}

} // namespace memviz::snapshot

// SPDX-License-Identifier: MIT
#include "formats/snapshot/SnapshotQueries.h"

#include <algorithm>
#include <cctype>
#include <cstdio>
#include <cstring>
#include <map>

#include "core/Errors.h"
#include "formats/FormatIds.h"
#include "formats/snapshot/SnapshotCodec.h"
#include "store/ChunkCodec.h"
#include "store/Database.h"
#include "trace/StackSite.h"

namespace memviz {

namespace {

std::optional<std::int64_t> optionalInt(const Statement& s, int column) {
    if (s.isNull(column)) return std::nullopt;
    return s.int64(column);
}

std::string lower(std::string_view s) {
    std::string out(s);
    for (char& c : out) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    return out;
}

} // namespace

const SnapshotDeviceStats* SnapshotOverview::device(int d) const {
    for (const SnapshotDeviceStats& s : devices)
        if (s.device == d) return &s;
    return nullptr;
}

bool isSnapshotTrace(Database& db, std::int64_t traceId) {
    Statement s(db, "SELECT format FROM traces WHERE id = ?");
    s.bind(1, traceId);
    return s.step() && s.text(0) == format_id::kSnapshot;
}

SnapshotOverview loadSnapshotOverview(Database& db, std::int64_t traceId) {
    SnapshotOverview o;
    Statement d(db, "SELECT s.device, v.name, s.cuda_device, s.entries, s.baseline_bytes, s.baseline_blocks, "
                    "s.baseline_freed_blocks, s.peak_seq, s.peak_bytes, s.final_replayed_bytes, "
                    "s.final_active_requested_bytes, s.final_pending_requested_bytes, s.final_active_bytes, "
                    "s.unmatched_live_allocations, s.size_mismatches, s.reserved_initial_bytes, s.reserved_final_bytes, "
                    "s.segments FROM snapshot_devices s JOIN devices v ON v.trace_id = s.trace_id AND v.device = s.device "
                    "WHERE s.trace_id = ? ORDER BY s.device");
    d.bind(1, traceId);
    while (d.step()) {
        SnapshotDeviceStats x;
        x.device = static_cast<int>(d.int64(0));
        x.name = d.text(1);
        x.cudaDevice = d.int64(2);
        x.entries = d.int64(3);
        x.baselineBytes = d.int64(4);
        x.baselineBlocks = d.int64(5);
        x.baselineFreedBlocks = d.int64(6);
        x.peakSeq = d.int64(7);
        x.peakBytes = d.int64(8);
        x.finalReplayed = d.int64(9);
        x.finalActiveRequested = d.int64(10);
        x.finalPendingRequested = d.int64(11);
        x.finalActiveBytes = d.int64(12);
        x.unmatchedLive = d.int64(13);
        x.sizeMismatches = d.int64(14);
        x.reservedInitial = d.int64(15);
        x.reservedFinal = d.int64(16);
        x.segments = d.int64(17);
        o.devices.push_back(std::move(x));
    }
    Statement a(db, "SELECT device, action, count FROM snapshot_action_counts WHERE trace_id = ? ORDER BY device, action");
    a.bind(1, traceId);
    while (a.step()) o.actionCounts.push_back({static_cast<int>(a.int64(0)), {a.text(1), a.int64(2)}});
    Statement m(db, "SELECT key, value FROM trace_metadata WHERE trace_id = ? ORDER BY key");
    m.bind(1, traceId);
    const std::string settingsPrefix = std::string(metadata_key::kAllocatorSettings) + ".",
                      infoPrefix = metadata_key::kSnapshotInfoPrefix;
    while (m.step()) {
        const std::string key = m.text(0);
        if (key.starts_with(settingsPrefix)) o.allocatorSettings.emplace_back(key.substr(settingsPrefix.size()), m.text(1));
        else if (key.starts_with(infoPrefix)) o.snapshotInfo.emplace_back(key.substr(infoPrefix.size()), m.text(1));
    }
    Statement oom(db, "SELECT device, seq, t, requested_bytes, device_free_bytes, stack FROM snapshot_ooms "
                      "WHERE trace_id = ? ORDER BY t, device, seq");
    oom.bind(1, traceId);
    while (oom.step())
        o.ooms.push_back({static_cast<int>(oom.int64(0)), oom.int64(1), oom.int64(2), oom.int64(3), optionalInt(oom, 4),
                          static_cast<std::int32_t>(oom.int64(5))});
    Statement an(db, "SELECT device, cuda_device, t, time_us, stage, name FROM snapshot_annotations WHERE trace_id = ? "
                     "ORDER BY t IS NULL, t, rowid");
    an.bind(1, traceId);
    while (an.step()) {
        SnapshotAnnotationRow r;
        if (!an.isNull(0)) r.device = static_cast<int>(an.int64(0));
        r.cudaDevice = optionalInt(an, 1);
        r.t = optionalInt(an, 2);
        r.timeUs = optionalInt(an, 3);
        r.stage = an.text(4);
        r.name = an.text(5);
        o.annotations.push_back(std::move(r));
    }
    return o;
}

std::vector<AnnotationSpan> annotationSpans(const std::vector<SnapshotAnnotationRow>& rows, std::int64_t traceEnd) {
    std::vector<AnnotationSpan> spans;
    std::map<std::pair<int, std::string>, std::vector<std::size_t>> open; // (device, name) -> open spans
    for (const SnapshotAnnotationRow& r : rows) {
        if (!r.t) continue;
        const auto key = std::make_pair(r.device.value_or(-1), r.name);
        const std::string stage = lower(r.stage);
        if (stage == "start") {
            open[key].push_back(spans.size());
            spans.push_back({r.device, r.name, *r.t, traceEnd, true});
        } else if (stage == "end") {
            auto& stack = open[key];
            if (stack.empty()) { // END without START: from the start of the trace
                spans.push_back({r.device, r.name, 0, *r.t, false});
                continue;
            }
            AnnotationSpan& s = spans[stack.back()];
            stack.pop_back();
            s.end = std::max(s.begin, *r.t);
            s.open = false;
        }
    }
    return spans;
}

std::vector<SnapshotAllocationRow> loadAllocations(Database& db, std::int64_t traceId, int device) {
    Statement count(db, "SELECT coalesce(sum(row_count), 0) FROM snapshot_allocation_chunks WHERE trace_id = ? AND device = ?");
    count.bind(1, traceId).bind(2, device);
    std::vector<SnapshotAllocationRow> all;
    if (count.step() && count.int64(0) > 0 && count.int64(0) < (std::int64_t{1} << 32))
        all.reserve(static_cast<std::size_t>(count.int64(0)));
    Statement s(db, "SELECT data FROM snapshot_allocation_chunks WHERE trace_id = ? AND device = ? ORDER BY chunk");
    s.bind(1, traceId).bind(2, device);
    while (s.step()) decodeAllocations(s.blob(0), device, all);
    return all;
}

std::vector<std::size_t> aliveAt(const std::vector<SnapshotAllocationRow>& all, std::int64_t moment) {
    std::vector<std::size_t> alive;
    for (std::size_t i = 0; i < all.size(); ++i) {
        const SnapshotAllocationRow& a = all[i];
        if (a.allocSeq <= moment && (!a.freeSeq || *a.freeSeq > moment)) alive.push_back(i);
    }
    std::stable_sort(alive.begin(), alive.end(),
                     [&all](std::size_t x, std::size_t y) { return all[x].requestedSize > all[y].requestedSize; });
    return alive;
}

bool AllocationSearch::isAddress(std::string_view text) {
    if (text.starts_with("0x") || text.starts_with("0X")) return true;
    return !text.empty() && std::all_of(text.begin(), text.end(), [](char c) { return c >= '0' && c <= '9'; });
}

AllocationFilter allocationFilter(const AllocationSearch& search, const StackCatalog& stacks) {
    AllocationFilter f;
    f.text = search.text;
    while (!f.text.empty() && std::isspace(static_cast<unsigned char>(f.text.back()))) f.text.pop_back();
    while (!f.text.empty() && std::isspace(static_cast<unsigned char>(f.text.front()))) f.text.erase(f.text.begin());
    if (f.text.empty()) return f;
    f.address = AllocationSearch::isAddress(f.text);
    if (!f.address) f.stacks = stacks.stacksMatching(f.text);
    return f;
}

std::vector<std::size_t> filterAllocations(const std::vector<SnapshotAllocationRow>& all, const std::vector<std::size_t>& indexes,
                                           const AllocationFilter& filter) {
    if (filter.text.empty()) return indexes;
    std::vector<std::size_t> out;
    if (filter.address) {
        const std::string& text = filter.text;
        const bool hex = text.size() > 1 && (text[1] == 'x' || text[1] == 'X');
        const std::string needle = lower(hex ? text.substr(2) : text);
        char buf[32];
        for (const std::size_t i : indexes) {
            const auto address = static_cast<unsigned long long>(all[i].address);
            std::snprintf(buf, sizeof buf, hex ? "%llx" : "%llu", address);
            if (std::string_view(buf).find(needle) != std::string_view::npos) out.push_back(i);
        }
        return out;
    }
    for (const std::size_t i : indexes)
        if (filter.stacks.count(all[i].stack) || filter.stacks.count(all[i].freeStack)) out.push_back(i);
    return out;
}

std::vector<std::size_t> filterAllocations(const std::vector<SnapshotAllocationRow>& all, const std::vector<std::size_t>& indexes,
                                           const AllocationSearch& search, const StackCatalog& stacks) {
    return filterAllocations(all, indexes, allocationFilter(search, stacks));
}

namespace {

// The events of a snapshot_entry_chunks row: its own (codec 2, or 1 before schema version 8), or
// those of the event chunk it names (kCodecEntriesInEventChunk).
std::vector<Event> entryChunkEvents(Database& db, std::int64_t traceId, std::int64_t codec, std::span<const unsigned char> data) {
    if (codec != kCodecEntriesInEventChunk) return decodeEvents(data);
    std::int64_t chunk;
    if (data.size() != 8) throw StoreError("damaged entry chunk in the store (an event chunk reference of " +
                                           std::to_string(data.size()) + " bytes)");
    std::memcpy(&chunk, data.data(), 8);
    Statement s(db, "SELECT data FROM event_chunks WHERE trace_id = ? AND chunk = ?");
    s.bind(1, traceId).bind(2, chunk);
    if (!s.step()) throw StoreError("damaged entry chunk in the store (it names event chunk " + std::to_string(chunk) +
                                    ", which the trace does not have)");
    return decodeEvents(s.blob(0));
}

} // namespace

std::int64_t entryAtTime(Database& db, std::int64_t traceId, int device, std::int64_t t) {
    // The last chunk that starts at or before t holds the answer (or it is its last entry).
    Statement s(db, "SELECT first_seq, codec, data FROM snapshot_entry_chunks WHERE trace_id = ? AND device = ? AND "
                    "t_first <= ? ORDER BY chunk DESC LIMIT 1");
    s.bind(1, traceId).bind(2, device).bind(3, t);
    if (!s.step()) return -1;
    const std::int64_t first = s.int64(0);
    const std::vector<Event> events = entryChunkEvents(db, traceId, s.int64(1), s.blob(2));
    const auto after = std::upper_bound(events.begin(), events.end(), t,
                                        [](std::int64_t v, const Event& e) { return v < e.timeNs; });
    return first + static_cast<std::int64_t>(after - events.begin()) - 1;
}

std::optional<std::int64_t> entryTime(Database& db, std::int64_t traceId, int device, std::int64_t seq) {
    if (seq < 0) return std::nullopt;
    Statement s(db, "SELECT first_seq, codec, data FROM snapshot_entry_chunks WHERE trace_id = ? AND device = ? AND "
                    "first_seq <= ? AND first_seq + entry_count > ?");
    s.bind(1, traceId).bind(2, device).bind(3, seq).bind(4, seq);
    if (!s.step()) return std::nullopt;
    const std::vector<Event> events = entryChunkEvents(db, traceId, s.int64(1), s.blob(2));
    const auto i = static_cast<std::size_t>(seq - s.int64(0));
    return i < events.size() ? std::optional<std::int64_t>(events[i].timeNs) : std::nullopt;
}

std::vector<Event> loadEntries(Database& db, std::int64_t traceId, int device, std::int64_t fromSeq) {
    Statement s(db, "SELECT first_seq, codec, data FROM snapshot_entry_chunks WHERE trace_id = ? AND device = ? AND "
                    "first_seq + entry_count > ? ORDER BY chunk");
    s.bind(1, traceId).bind(2, device).bind(3, fromSeq);
    std::vector<Event> out;
    while (s.step()) {
        const std::int64_t first = s.int64(0);
        const std::vector<Event> events = entryChunkEvents(db, traceId, s.int64(1), s.blob(2));
        const std::size_t skip = fromSeq > first ? static_cast<std::size_t>(fromSeq - first) : 0;
        if (skip < events.size()) out.insert(out.end(), events.begin() + static_cast<std::ptrdiff_t>(skip), events.end());
    }
    return out;
}

std::vector<SnapshotSegmentRow> loadSegments(Database& db, std::int64_t traceId, int device) {
    Statement s(db, "SELECT address, total_size, allocated_size, active_size, requested_size, stream, segment_type, pool_id, "
                    "is_expandable, stack FROM snapshot_segments WHERE trace_id = ? AND device = ? ORDER BY address");
    s.bind(1, traceId).bind(2, device);
    std::vector<SnapshotSegmentRow> out;
    while (s.step())
        out.push_back({device, s.int64(0), s.int64(1), s.int64(2), s.int64(3), s.int64(4), s.int64(5), s.text(6), s.text(7),
                       s.int64(8) != 0, static_cast<std::int32_t>(s.int64(9))});
    return out;
}

std::vector<SnapshotBlockRow> loadBlocks(Database& db, std::int64_t traceId, int device) {
    Statement s(db, "SELECT segment_address, address, size, requested_size, state, stack FROM snapshot_blocks "
                    "WHERE trace_id = ? AND device = ? ORDER BY address");
    s.bind(1, traceId).bind(2, device);
    std::vector<SnapshotBlockRow> out;
    while (s.step())
        out.push_back({device, s.int64(0), s.int64(1), s.int64(2), s.int64(3), s.text(4), static_cast<std::int32_t>(s.int64(5))});
    return out;
}

AllocatorState allocatorStateAt(Database& db, std::int64_t traceId, int device, std::int64_t moment,
                                const std::vector<SnapshotAllocationRow>& allocations) {
    std::vector<FinalSegment> segments;
    for (const SnapshotSegmentRow& s : loadSegments(db, traceId, device))
        segments.push_back({s.address, s.totalSize, s.stream, s.stack, s.expandable});
    std::vector<FinalBlock> blocks;
    for (const SnapshotBlockRow& b : loadBlocks(db, traceId, device)) {
        if (b.state != "active_allocated" && b.state != "active_pending_free") continue;
        blocks.push_back({b.address, b.size, b.requestedSize, b.stack,
                          b.state == "active_allocated" ? StateBlockKind::Allocated : StateBlockKind::PendingFree});
    }
    const std::int64_t from = moment + 1;
    std::vector<Event> later = loadEntries(db, traceId, device, from);
    // A block the trace brings back is shown with the stack of its allocation, not of its free.
    for (const SnapshotAllocationRow& a : allocations)
        if (a.freeSeq && *a.freeSeq >= from && static_cast<std::size_t>(*a.freeSeq - from) < later.size())
            later[static_cast<std::size_t>(*a.freeSeq - from)].stack = a.stack;
    Statement legacy(db, "SELECT count(*) FROM snapshot_action_counts WHERE trace_id = ? AND device = ? AND action = 'free'");
    legacy.bind(1, traceId).bind(2, device);
    const bool legacyFrees = legacy.step() && legacy.int64(0) > 0;
    return reconstructState(segments, blocks, later, legacyFrees);
}

std::vector<FrameRow> StackCatalog::framesOf(std::int32_t stack) const {
    std::vector<FrameRow> out;
    if (stack < 0 || static_cast<std::size_t>(stack) >= stacks.size()) return out;
    for (const std::int32_t id : stacks[static_cast<std::size_t>(stack)])
        if (id >= 0 && static_cast<std::size_t>(id) < frames.size()) out.push_back(frames[static_cast<std::size_t>(id)]);
    return out;
}

std::string StackCatalog::siteOf(std::int32_t stack) const {
    const std::vector<FrameRow> f = framesOf(stack);
    std::string site = stackSite(f, [](const FrameRow& r) -> const FrameRow& { return r; });
    if (site.empty() && !f.empty()) site = f.front().name;
    return site;
}

std::unordered_set<std::int32_t> StackCatalog::stacksMatching(std::string_view text) const {
    const std::string needle = lower(text);
    std::vector<bool> frameMatches(frames.size());
    for (std::size_t i = 0; i < frames.size(); ++i)
        frameMatches[i] = lower(frames[i].name).find(needle) != std::string::npos ||
                          lower(frames[i].filename).find(needle) != std::string::npos;
    std::unordered_set<std::int32_t> out;
    for (std::size_t s = 0; s < stacks.size(); ++s)
        for (const std::int32_t id : stacks[s])
            if (id >= 0 && static_cast<std::size_t>(id) < frameMatches.size() && frameMatches[static_cast<std::size_t>(id)]) {
                out.insert(static_cast<std::int32_t>(s));
                break;
            }
    return out;
}

StackCatalog loadStackCatalog(Database& db, std::int64_t traceId) {
    StackCatalog c;
    Statement f(db, "SELECT id, name, filename, line FROM frames WHERE trace_id = ? ORDER BY id");
    f.bind(1, traceId);
    while (f.step()) {
        const auto id = static_cast<std::size_t>(f.int64(0));
        if (id >= c.frames.size()) c.frames.resize(id + 1);
        c.frames[id] = {f.text(1), f.text(2), f.int64(3)};
    }
    Statement s(db, "SELECT stack, frame FROM stack_frames WHERE trace_id = ? ORDER BY stack, depth");
    s.bind(1, traceId);
    while (s.step()) {
        const auto stack = static_cast<std::size_t>(s.int64(0));
        if (stack >= c.stacks.size()) c.stacks.resize(stack + 1);
        c.stacks[stack].push_back(static_cast<std::int32_t>(s.int64(1)));
    }
    c.contexts = loadSnapshotContexts(db, traceId);
    return c;
}

} // namespace memviz

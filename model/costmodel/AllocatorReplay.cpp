// SPDX-License-Identifier: MIT
#include "costmodel/AllocatorReplay.h"

#include <algorithm>
#include <charconv>
#include <limits>
#include <cstdlib>
#include <map>
#include <set>
#include <span>
#include <string_view>
#include <tuple>
#include <unordered_map>

namespace memviz::costmodel {

namespace {

using Kind = CudaCachingAllocator::BlockState;

bool isRelease(EventKind k) { return k == EventKind::SegmentFree || k == EventKind::SegmentUnmap; }

// The stream most final segments are on: the trace entries do not say which stream a request
// used, so every request is replayed on it.
std::int64_t mainStream(const std::vector<FinalSegment>& segments, std::int64_t& streams) {
    std::map<std::int64_t, std::int64_t> count;
    for (const FinalSegment& s : segments) ++count[s.stream];
    streams = std::max<std::int64_t>(1, static_cast<std::int64_t>(count.size()));
    std::int64_t best = 0, n = -1;
    for (const auto& [stream, c] : count)
        if (c > n) best = stream, n = c;
    return best;
}

// Where the trace shows block boundaries: the first entry that allocates at each address, and
// for each address the first entry that frees a block the trace did not allocate before.
struct TraceAddresses {
    std::map<std::int64_t, std::int64_t> firstAlloc;                 // address -> entry
    std::unordered_map<std::int64_t, std::int64_t> firstPreexistingFree; // address -> entry

    explicit TraceAddresses(const std::vector<Event>& entries) {
        std::unordered_map<std::int64_t, bool> allocated;
        for (std::size_t k = 0; k < entries.size(); ++k) {
            const Event& e = entries[k];
            if (e.kind == EventKind::Alloc) {
                firstAlloc.emplace(e.address, static_cast<std::int64_t>(k));
                allocated[e.address] = true;
            } else if (e.kind == EventKind::Free && !allocated.count(e.address)) {
                firstPreexistingFree.emplace(e.address, static_cast<std::int64_t>(k));
            }
        }
    }
    // The lowest address in (from, to] where a request landed before entry `before`.
    std::optional<std::int64_t> landing(std::int64_t from, std::int64_t to, std::int64_t before) const {
        for (auto it = firstAlloc.upper_bound(from); it != firstAlloc.end() && it->first <= to; ++it)
            if (it->second < before) return it->first;
        return std::nullopt;
    }
};

// The model at the trace's start: the segments alive then, and the blocks in use in them. A
// block that the trace frees has only its requested size on record; its allocator size is the
// request rounded, and in the large pool a rest of 1 MiB or less after it may be its own (the
// allocator splits a large block only when more than 1 MiB remains): it is when the free space
// after it is that small, or when, while the block is alive, a request lands within 1 MiB
// after its rounded end (a block boundary the file shows there).
void seed(CudaCachingAllocator& m, const AllocatorState& start, std::optional<std::int64_t> stream, const TraceAddresses& trace,
          std::unordered_map<std::int64_t, int>& live, AllocatorReplayResult* r) {
    for (const StateSegment& s : start.segments) {
        // An expandable run's pool: large when a block in it is, or when it is no whole number
        // of 20 MiB pages (small-pool pages are 2 MiB).
        bool small = s.size == CudaCachingAllocator::kSmallBuffer && !s.expandable;
        if (s.expandable) {
            small = s.size % CudaCachingAllocator::kLargeBuffer != 0;
            for (const StateBlock& b : s.blocks) small = small && b.size <= CudaCachingAllocator::kSmallSize;
        }
        const std::int64_t onStream = stream && s.stream == 0 && *stream != 0 ? *stream : s.stream;
        const int seg = s.expandable ? m.addExpandableSegment(s.address, s.size, onStream, small)
                                     : m.addSegment(s.address, s.size, onStream, small);
        for (std::size_t i = 0; i < s.blocks.size(); ++i) {
            const StateBlock& b = s.blocks[i];
            const std::int64_t next = i + 1 < s.blocks.size() ? s.blocks[i + 1].address : s.address + s.size;
            std::int64_t size = b.size;
            if (b.sizeFromTrace) {
                size = m.roundRequest(b.requestedSize);
                const std::int64_t end = b.address + size, rest = next - end;
                if (rest < 0 || (!small && rest <= CudaCachingAllocator::kSmallSize)) {
                    size = next - b.address;
                } else if (!small) {
                    const auto freed = trace.firstPreexistingFree.find(b.address);
                    const std::int64_t until = freed == trace.firstPreexistingFree.end() ? std::numeric_limits<std::int64_t>::max() : freed->second;
                    if (const auto at = trace.landing(end, end + CudaCachingAllocator::kSmallSize, until)) {
                        size = *at - b.address;
                        if (r) ++r->startBlocksSizedByLanding;
                    }
                }
            }
            const int id = m.placeBlock(seg, b.address, size, b.requestedSize,
                                        b.kind == StateBlockKind::Allocated ? Kind::Allocated : Kind::PendingFree);
            if (r) ++r->startBlocks;
            if (id < 0) {
                if (r) ++r->startBlocksUnplaced;
                continue;
            }
            live[b.address] = id;
        }
    }
}

void compareFinal(const CudaCachingAllocator& m, const AllocatorReplayInput& in, AllocatorReplayResult& r) {
    std::set<std::pair<std::int64_t, std::int64_t>> recorded, predicted;
    for (const FinalSegment& s : in.segments) recorded.insert({s.address, s.size});
    std::set<std::tuple<std::int64_t, std::int64_t, bool>> recordedBlocks, predictedBlocks;
    for (const RecordedBlock& b : in.blocks) recordedBlocks.insert({b.address, b.size, b.state != RecordedBlock::State::Inactive});
    for (const auto& run : m.runs()) {
        predicted.insert({run.address, run.size});
        for (const int id : run.blocks) {
            const auto& b = m.block(id);
            predictedBlocks.insert({b.address, b.size, b.state != Kind::Free});
        }
    }
    r.recordedSegments = static_cast<std::int64_t>(recorded.size());
    r.predictedSegments = static_cast<std::int64_t>(predicted.size());
    for (const auto& s : predicted) r.segmentsMatched += recorded.count(s) ? 1 : 0;
    r.finalSegmentsExact = recorded == predicted;
    r.blocksRecorded = static_cast<std::int64_t>(recordedBlocks.size());
    for (const auto& b : predictedBlocks) r.blocksMatched += recordedBlocks.count(b) ? 1 : 0;
    r.finalBlocksExact = recordedBlocks == predictedBlocks;
}

void replayOnCard(const AllocatorReplayInput& in, const AllocatorState& start, std::int64_t stream, AllocatorReplayResult& r) {
    CudaCachingAllocator m(in.config);
    std::unordered_map<std::int64_t, int> live;
    seed(m, start, in.streams.empty() ? std::optional<std::int64_t>(stream) : std::nullopt, TraceAddresses(in.entries), live, nullptr);
    m.setCapacity(in.cardBytes);
    std::int64_t peak = m.reserved();
    if (m.reserved() > in.cardBytes) {
        m.emptyCache();
        if (m.reserved() > in.cardBytes) {
            r.cardFailure = CardFailure{-1, {0, 0, 0, m.reserved(), m.gap().largestFreeBlock}, m.gap(), in.cardBytes, peak};
            return;
        }
    }
    for (std::size_t k = 0; k < in.entries.size(); ++k) {
        const Event& e = in.entries[k];
        if (e.kind == EventKind::Alloc) {
            const int id = m.allocate(e.size, in.streams.empty() ? stream : in.streams[k], e.address);
            if (id < 0) {
                r.cardFailure = CardFailure{static_cast<std::int64_t>(k), *m.lastFailure(), m.gap(), in.cardBytes, peak};
                return;
            }
            live[e.address] = id;
        } else if (e.kind == EventKind::Free && !(e.flags & kFlagUnmatched)) {
            if (const auto it = live.find(e.address); it != live.end()) {
                m.free(it->second);
                live.erase(it);
            }
        } else if (isRelease(e.kind) && (k == 0 || !isRelease(in.entries[k - 1].kind))) {
            m.emptyCache();
        }
        peak = std::max(peak, m.reserved());
    }
    r.cardPeakReserved = peak;
}

} // namespace

AllocatorReplayResult replayAllocator(const AllocatorReplayInput& in) {
    AllocatorReplayResult r;
    r.entries = static_cast<std::int64_t>(in.entries.size());
    const std::int64_t stream = mainStream(in.segments, r.streams);
    std::vector<FinalBlock> finalBlocks;
    for (const RecordedBlock& b : in.blocks)
        if (b.state != RecordedBlock::State::Inactive)
            finalBlocks.push_back({b.address, b.size, b.requested, kNoName,
                                   b.state == RecordedBlock::State::Allocated ? StateBlockKind::Allocated : StateBlockKind::PendingFree});
    const AllocatorState start = reconstructState(in.segments, finalBlocks, in.entries, in.legacyFrees);
    for (const FinalSegment& s : in.segments) r.expandable = r.expandable || s.expandable;
    r.expandable = r.expandable || in.config.expandableSegments;

    CudaCachingAllocator m(in.config);
    std::unordered_map<std::int64_t, int> live;
    const bool streamsKnown = in.streams.size() == in.entries.size();
    seed(m, start, streamsKnown ? std::nullopt : std::optional<std::int64_t>(stream), TraceAddresses(in.entries), live, &r);
    r.startSegments = static_cast<std::int64_t>(start.segments.size());
    r.startReserved = m.reserved();
    std::int64_t recorded = r.startReserved;
    r.recordedPeakReserved = r.predictedPeakReserved = recorded;
    if (in.gapAt == -1) r.gapAt = m.gap();

    for (std::size_t k = 0; k < in.entries.size(); ++k) {
        const Event& e = in.entries[k];
        const auto seq = static_cast<std::int64_t>(k);
        if (in.progress && (k & 4095) == 0) in.progress->checkCancelled();
        switch (e.kind) {
        case EventKind::Alloc: {
            ++r.allocs;
            const int id = m.allocate(e.size, streamsKnown ? in.streams[k] : stream, e.address);
            if (m.block(id).address == e.address) ++r.placementsMatched;
            else if (r.firstMisplacedSeq < 0) r.firstMisplacedSeq = seq;
            live[e.address] = id;
            break;
        }
        case EventKind::FreeRequested:
            if (const auto it = live.find(e.address); it != live.end()) m.markPendingFree(it->second);
            break;
        case EventKind::Free:
            if (const auto it = live.find(e.address); it != live.end() && !(e.flags & kFlagUnmatched)) {
                ++r.frees;
                m.free(it->second);
                live.erase(it);
            } else {
                ++r.unmatchedFrees;
            }
            break;
        case EventKind::SegmentAlloc:
        case EventKind::SegmentMap:
            recorded += e.size;
            ++r.recordedSegmentEvents;
            r.recordedSteps.push_back({seq, recorded});
            break;
        case EventKind::SegmentFree:
        case EventKind::SegmentUnmap:
            // The first of a run of releases: the program called empty_cache(), or a request
            // failed on the card and the allocator released its cache before retrying (an oom
            // entry follows when the retry failed too). Neither call is a trace entry of its
            // own; the model decides what goes back.
            if (k == 0 || !isRelease(in.entries[k - 1].kind)) {
                m.emptyCache();
                ++r.releases;
            }
            recorded -= e.size;
            ++r.recordedSegmentEvents;
            r.recordedSteps.push_back({seq, recorded});
            break;
        case EventKind::Oom:
            ++r.oomEntries;
            r.ooms.push_back({seq, e.size, e.address > 0 ? std::optional<std::int64_t>(e.address) : std::nullopt, m.gap()});
            break;
        default: break;
        }
        const std::vector<AllocatorAction> actions = m.takeActions();
        for (const AllocatorAction& a : actions) r.predictedActions.push_back({seq, a});
        if (!actions.empty()) r.predictedSteps.push_back({seq, m.reserved(), e.kind == EventKind::Alloc ? seq : -1});
        r.recordedPeakReserved = std::max(r.recordedPeakReserved, recorded);
        r.predictedPeakReserved = std::max(r.predictedPeakReserved, m.reserved());
        if (in.gapAt == seq) r.gapAt = m.gap();
    }
    // A recorded segment event belongs to the next allocation (the request that needed it).
    std::int64_t nextAlloc = -1;
    auto step = r.recordedSteps.rbegin();
    for (auto k = static_cast<std::int64_t>(in.entries.size()) - 1; k >= 0 && step != r.recordedSteps.rend(); --k) {
        if (in.entries[static_cast<std::size_t>(k)].kind == EventKind::Alloc) nextAlloc = k;
        while (step != r.recordedSteps.rend() && step->seq == k) (step++)->request = nextAlloc;
    }
    r.traced = r.allocs > 0 || r.frees > 0;
    r.recordedEndReserved = recorded;
    r.predictedEndReserved = m.reserved();
    r.peakExact = r.recordedPeakReserved == r.predictedPeakReserved;
    r.endExact = r.recordedEndReserved == r.predictedEndReserved;
    compareFinal(m, in, r);
    if (in.cardBytes > 0) replayOnCard(in, start, stream, r);

    if (r.expandable && !r.exact())
        r.notes.push_back("expandable segments: pages are mapped per stream and pool, so the figures can differ by up to one page (20 MiB large, 2 MiB small) per stream and pool");
    if (streamsKnown) {
        std::set<std::int64_t> used;
        for (std::size_t k = 0; k < in.entries.size(); ++k)
            if (in.entries[k].kind == EventKind::Alloc) used.insert(in.streams[k]);
        r.streams = std::max<std::int64_t>(1, static_cast<std::int64_t>(used.size()));
    } else if (r.streams > 1)
        r.notes.push_back("segments on " + std::to_string(r.streams) + " streams: the entries do not say which stream a request used; all replayed on one");
    if (r.oomEntries > 0)
        r.notes.push_back(std::to_string(r.oomEntries) + " oom entries: the failed request is not in the trace; the release before it is replayed, the card's size is not known");
    if (r.startBlocksUnplaced > 0)
        r.notes.push_back(std::to_string(r.startBlocksUnplaced) + " blocks alive at the trace's start overlap others (inconsistent record)");
    std::int64_t recordedFrees = 0;
    for (const Event& e : in.entries) recordedFrees += e.kind == EventKind::SegmentFree || e.kind == EventKind::SegmentUnmap ? 1 : 0;
    if (r.releases > 0)
        r.notes.push_back(std::to_string(r.releases) + " releases (" + std::to_string(recordedFrees) +
                          " segment frees or unmaps recorded): empty_cache() or an OOM retry, replayed where the file shows them");
    return r;
}

AllocatorConfig allocatorConfigFromSettings(const std::vector<std::pair<std::string, std::string>>& settings) {
    AllocatorConfig c;
    auto number = [](const std::string& text, std::int64_t& out) {
        const auto [p, ec] = std::from_chars(text.data(), text.data() + text.size(), out);
        return ec == std::errc() && p == text.data() + text.size();
    };
    static constexpr std::string_view kDivisions = "roundup_power2_divisions.";
    for (const auto& [key, value] : settings) {
        std::int64_t n = 0;
        if (key == "max_split_size" && number(value, n) && n > 0) c.maxSplitSize = n;
        else if (key == "expandable_segments") c.expandableSegments = value == "True" || value == "true" || value == "1";
        else if (key == "garbage_collection_threshold") c.garbageCollectionThreshold = std::strtod(value.c_str(), nullptr);
        else if (key == "roundup_power2_divisions" && number(value, n)) c.roundupDivisions.assign(16, static_cast<int>(n));
        else if (key.starts_with(kDivisions)) {
            std::int64_t mib = 0;
            if (!number(key.substr(kDivisions.size()), mib) || mib <= 0 || !number(value, n)) continue;
            int index = 0;
            while ((std::int64_t{2} << index) <= mib && index < 15) ++index;
            if (c.roundupDivisions.size() < 16) c.roundupDivisions.resize(16, 0);
            c.roundupDivisions[static_cast<std::size_t>(index)] = static_cast<int>(n);
        }
    }
    return c;
}

} // namespace memviz::costmodel

// SPDX-License-Identifier: MIT
#include "costmodel/CudaCachingAllocator.h"

#include <algorithm>
#include <bit>

namespace memviz::costmodel {

namespace {

// roundup_power2_divisions: the size's power-of-two interval between 1 MiB and 32 GiB.
int divisionsFor(const std::vector<int>& divisions, std::int64_t size) {
    if (divisions.empty() || size <= 0) return 0;
    const int logSize = 63 - std::countl_zero(static_cast<std::uint64_t>(size));
    const int index = std::clamp(logSize - 20, 0, 15);
    return static_cast<std::size_t>(index) < divisions.size() ? divisions[static_cast<std::size_t>(index)] : 0;
}

std::int64_t nextDivision(std::int64_t size, int divisions) {
    const auto u = static_cast<std::uint64_t>(size);
    if (std::has_single_bit(u)) return size;
    const std::uint64_t floor = std::bit_floor(u);
    const std::uint64_t step = floor >> (63 - std::countl_zero(static_cast<std::uint64_t>(divisions)));
    if (step == 0) return static_cast<std::int64_t>(floor << 1);
    const std::uint64_t down = u & ~(step - 1);
    return static_cast<std::int64_t>(down == u ? u : down + step);
}

} // namespace

CudaCachingAllocator::CudaCachingAllocator(AllocatorConfig config) : config_(std::move(config)) {}

std::int64_t CudaCachingAllocator::roundRequest(std::int64_t bytes) const {
    if (bytes < kMinBlockSize) return kMinBlockSize;
    const int divisions = divisionsFor(config_.roundupDivisions, bytes);
    if (divisions > 1 && bytes > kMinBlockSize * divisions) return nextDivision(bytes, divisions);
    return roundSize(bytes);
}

int CudaCachingAllocator::newBlock(const Block& b) {
    if (!recycled_.empty()) {
        const int id = recycled_.back();
        recycled_.pop_back();
        blocks_[static_cast<std::size_t>(id)] = b;
        return id;
    }
    blocks_.push_back(b);
    return static_cast<int>(blocks_.size()) - 1;
}

void CudaCachingAllocator::insertFree(int id) {
    const Block& b = blocks_[static_cast<std::size_t>(id)];
    const Segment& s = segments_[static_cast<std::size_t>(b.segment)];
    pool(s.small).insert({s.stream, b.size, b.address, id});
}

void CudaCachingAllocator::eraseFree(int id) {
    const Block& b = blocks_[static_cast<std::size_t>(id)];
    const Segment& s = segments_[static_cast<std::size_t>(b.segment)];
    pool(s.small).erase({s.stream, b.size, b.address, id});
}

int CudaCachingAllocator::neighbour(int id, bool next) const {
    const Block& b = blocks_[static_cast<std::size_t>(id)];
    const Segment& s = segments_[static_cast<std::size_t>(b.segment)];
    auto it = s.blocks.find({b.address, id});
    if (next) return ++it == s.blocks.end() ? -1 : it->second;
    return it == s.blocks.begin() ? -1 : std::prev(it)->second;
}

int CudaCachingAllocator::findFree(std::int64_t size, std::int64_t stream, bool small) {
    auto& free = pool(small);
    auto it = free.lower_bound({stream, size, std::numeric_limits<std::int64_t>::min(), -1});
    if (it == free.end() || std::get<0>(*it) != stream) return -1;
    const auto inExpandable = [&](const FreeKey& k) {
        return segments_[static_cast<std::size_t>(blocks_[static_cast<std::size_t>(std::get<3>(k))].segment)].expandable;
    };
    if (config_.expandableSegments && inExpandable(*it)) {
        // get_free_block: a free block before unmapped space counts as the size it can grow to,
        // so a larger block that cannot grow is preferred to it.
        const auto growable = [&](const FreeKey& k) {
            const int n = neighbour(std::get<3>(k), true);
            const bool unmapped = n >= 0 && blocks_[static_cast<std::size_t>(n)].state == BlockState::Unmapped;
            return std::get<1>(k) + (unmapped ? blocks_[static_cast<std::size_t>(n)].size : 0);
        };
        for (auto next = std::next(it); inExpandable(*it) && next != free.end() && std::get<0>(*next) == stream && growable(*next) < growable(*it);)
            it = next++;
    }
    const std::int64_t found = std::get<1>(*it);
    // Oversize blocks (max_split_size) go neither to smaller requests nor to much smaller large ones.
    if (size < config_.maxSplitSize && found >= config_.maxSplitSize) return -1;
    if (size >= config_.maxSplitSize && found >= size + kLargeBuffer) return -1;
    return std::get<3>(*it);
}

bool CudaCachingAllocator::shouldSplit(const Block& b, std::int64_t size) const {
    const std::int64_t remaining = b.size - size;
    if (segments_[static_cast<std::size_t>(b.segment)].small || config_.expandableSegments) return remaining >= kMinBlockSize;
    return size < config_.maxSplitSize && remaining > kSmallSize;
}

int CudaCachingAllocator::addSegment(std::int64_t address, std::int64_t size, std::int64_t stream, bool small) {
    segments_.push_back(Segment{address, size, stream, small, true, false, {}});
    const int seg = static_cast<int>(segments_.size()) - 1;
    const int id = newBlock(Block{seg, address, size, 0, BlockState::Free});
    segments_.back().blocks.insert({address, id});
    insertFree(id);
    reserved_ += size;
    nextAddress_ = std::max(nextAddress_, address + size + kRoundLarge);
    return seg;
}

int CudaCachingAllocator::addExpandableSegment(std::int64_t address, std::int64_t mapped, std::int64_t stream, bool small) {
    segments_.push_back(Segment{address, kExpandableSpace, stream, small, true, true, {}});
    const int seg = static_cast<int>(segments_.size()) - 1;
    if (mapped > 0) {
        const int id = newBlock(Block{seg, address, mapped, 0, BlockState::Free});
        segments_.back().blocks.insert({address, id});
        insertFree(id);
    }
    const int rest = newBlock(Block{seg, address + mapped, kExpandableSpace - mapped, 0, BlockState::Unmapped});
    segments_.back().blocks.insert({address + mapped, rest});
    reserved_ += mapped;
    nextAddress_ = std::max(nextAddress_, address + kExpandableSpace + kRoundLarge);
    return seg;
}

// The device's address, unless it overlaps memory the model holds (then one of the model's own).
std::int64_t CudaCachingAllocator::freeAddress(std::int64_t size, std::optional<std::int64_t> address) const {
    if (!address) return nextAddress_;
    const std::int64_t at = *address;
    for (const Run& r : runs())
        if (at < r.address + r.size && r.address < at + size) return nextAddress_;
    return at;
}

int CudaCachingAllocator::newSegment(std::int64_t size, std::int64_t stream, bool small, std::optional<std::int64_t> address) {
    const std::int64_t at = freeAddress(size, address);
    const int seg = addSegment(at, size, stream, small);
    actions_.push_back({AllocatorAction::Kind::SegmentAlloc, at, size, stream});
    return seg;
}

int CudaCachingAllocator::placeBlock(int segment, std::int64_t address, std::int64_t size, std::int64_t requested, BlockState state) {
    Segment& s = segments_[static_cast<std::size_t>(segment)];
    auto it = s.blocks.upper_bound({address, std::numeric_limits<int>::max()});
    if (it == s.blocks.begin()) return -1;
    --it;
    const int id = it->second;
    const Block hole = blocks_[static_cast<std::size_t>(id)];
    if (hole.state != BlockState::Free || address < hole.address || address + size > hole.address + hole.size) return -1;
    eraseFree(id);
    s.blocks.erase(it);
    recycled_.push_back(id);
    auto piece = [&](std::int64_t a, std::int64_t n, std::int64_t req, BlockState st) {
        const int p = newBlock(Block{segment, a, n, req, st});
        s.blocks.insert({a, p});
        if (st == BlockState::Free) insertFree(p);
        return p;
    };
    if (address > hole.address) piece(hole.address, address - hole.address, 0, BlockState::Free);
    const int placed = piece(address, size, requested, state);
    if (address + size < hole.address + hole.size) piece(address + size, hole.address + hole.size - address - size, 0, BlockState::Free);
    if (state == BlockState::Allocated) allocated_ += size;
    return placed;
}

int CudaCachingAllocator::allocate(std::int64_t bytes) { return allocate(bytes, 0, std::nullopt); }

int CudaCachingAllocator::allocate(std::int64_t bytes, std::int64_t stream, std::optional<std::int64_t> newSegmentAddress) {
    const std::int64_t size = roundRequest(bytes);
    const bool small = size <= kSmallSize;
    int id = findFree(size, stream, small);
    if (id < 0 && config_.expandableSegments) {
        // alloc_block with expandable segments: map pages of the stream's segment, and on
        // failure the same retry (oversize cached blocks, then every free page).
        id = tryExpandable(size, stream, small, newSegmentAddress);
        if (id < 0 && releaseCached(true, stream)) id = tryExpandable(size, stream, small, newSegmentAddress);
        if (id < 0 && releaseCached(false, stream)) id = tryExpandable(size, stream, small, newSegmentAddress);
        if (id < 0) {
            std::int64_t largest = 0;
            for (const auto& p : {&freeSmall_, &freeLarge_})
                for (const FreeKey& k : *p) largest = std::max(largest, std::get<1>(k));
            const std::int64_t g = small ? kSmallBuffer : kLargeBuffer;
            lastFailure_ = Failure{bytes, size, (size + g - 1) / g * g, reserved_, largest};
            return -1;
        }
    }
    if (id < 0) {
        const std::int64_t seg = segmentSize(size);
        const auto fits = [&] { return capacity_ <= 0 || reserved_ + seg <= capacity_; };
        if (!fits()) {
            // The allocator's retry: oversize cached blocks of the stream, then every whole free segment.
            if (!(releaseCached(true, stream) && fits()) && !(releaseCached(false, stream) && fits())) {
                std::int64_t largest = 0;
                for (const auto& p : {&freeSmall_, &freeLarge_})
                    for (const FreeKey& k : *p) largest = std::max(largest, std::get<1>(k));
                lastFailure_ = Failure{bytes, size, seg, reserved_, largest};
                return -1;
            }
        }
        const int s = newSegment(seg, stream, small, newSegmentAddress);
        id = segments_[static_cast<std::size_t>(s)].blocks.begin()->second;
    }
    eraseFree(id);
    Block& b = blocks_[static_cast<std::size_t>(id)];
    if (shouldSplit(b, size)) { // the rest stays a free block
        const Block rest{b.segment, b.address + size, b.size - size, 0, BlockState::Free};
        b.size = size;
        const int restId = newBlock(rest);
        segments_[static_cast<std::size_t>(rest.segment)].blocks.insert({rest.address, restId});
        insertFree(restId);
    }
    Block& used = blocks_[static_cast<std::size_t>(id)];
    used.state = BlockState::Allocated;
    used.requested = bytes;
    allocated_ += used.size;
    return id;
}

void CudaCachingAllocator::markPendingFree(int id) {
    Block& b = blocks_[static_cast<std::size_t>(id)];
    if (b.state != BlockState::Allocated) return;
    b.state = BlockState::PendingFree;
    allocated_ -= b.size;
}

void CudaCachingAllocator::free(int id) {
    Block& b = blocks_[static_cast<std::size_t>(id)];
    if (b.state == BlockState::Free) return;
    if (b.state == BlockState::Allocated) allocated_ -= b.size;
    b.state = BlockState::Free;
    b.requested = 0;
    Segment& seg = segments_[static_cast<std::size_t>(b.segment)];
    auto it = seg.blocks.find({b.address, id});
    if (auto next = std::next(it); next != seg.blocks.end() && blocks_[static_cast<std::size_t>(next->second)].state == BlockState::Free) {
        const int n = next->second;
        eraseFree(n);
        blocks_[static_cast<std::size_t>(id)].size += blocks_[static_cast<std::size_t>(n)].size;
        recycled_.push_back(n);
        seg.blocks.erase(next);
    }
    if (it != seg.blocks.begin()) {
        const auto prev = std::prev(it);
        const int p = prev->second;
        if (blocks_[static_cast<std::size_t>(p)].state == BlockState::Free) {
            eraseFree(p);
            blocks_[static_cast<std::size_t>(p)].size += blocks_[static_cast<std::size_t>(id)].size;
            recycled_.push_back(id);
            seg.blocks.erase(it);
            id = p;
        }
    }
    insertFree(id);
}

void CudaCachingAllocator::releaseSegment(int segment) {
    Segment& s = segments_[static_cast<std::size_t>(segment)];
    const int id = s.blocks.begin()->second;
    eraseFree(id);
    recycled_.push_back(id);
    s.blocks.clear();
    s.alive = false;
    reserved_ -= s.size;
    actions_.push_back({AllocatorAction::Kind::SegmentFree, s.address, s.size, s.stream});
}

bool CudaCachingAllocator::releaseCached(bool oversizeOnly, std::int64_t stream) {
    if (oversizeOnly && config_.maxSplitSize == std::numeric_limits<std::int64_t>::max()) return false;
    std::vector<int> whole;
    bool unmapped = false;
    if (!oversizeOnly) { // release_blocks: expandable free blocks lose their whole pages (large pool, then small)
        std::vector<int> toUnmap;
        for (const auto* p : {&freeLarge_, &freeSmall_})
            for (const FreeKey& k : *p)
                if (segments_[static_cast<std::size_t>(blocks_[static_cast<std::size_t>(std::get<3>(k))].segment)].expandable)
                    toUnmap.push_back(std::get<3>(k));
        const std::int64_t before = reserved_;
        for (const int id : toUnmap) unmapBlock(id);
        unmapped = reserved_ != before;
    }
    for (std::size_t i = 0; i < segments_.size(); ++i) {
        const Segment& s = segments_[i];
        if (s.expandable && s.alive && s.blocks.size() == 1 && blocks_[static_cast<std::size_t>(s.blocks.begin()->second)].state == BlockState::Unmapped) {
            // release_expandable_segment: nothing mapped any more; the address space goes back
            recycled_.push_back(s.blocks.begin()->second);
            segments_[i].blocks.clear();
            segments_[i].alive = false;
            continue;
        }
        if (s.expandable || !s.alive || s.blocks.size() != 1 || blocks_[static_cast<std::size_t>(s.blocks.begin()->second)].state != BlockState::Free)
            continue;
        if (oversizeOnly && (s.stream != stream || s.size < config_.maxSplitSize)) continue;
        whole.push_back(static_cast<int>(i));
    }
    for (const int s : whole) releaseSegment(s);
    return !whole.empty() || unmapped;
}

void CudaCachingAllocator::emptyCache() { releaseCached(false, 0); }

// ---- expandable segments (PyTorch 2.x ExpandableSegment, find_expandable_block, map_block,
// unmap_block): a segment is address space; blocks of state Unmapped have no memory behind them.

std::vector<CudaCachingAllocator::Run> CudaCachingAllocator::runs() const {
    std::vector<Run> out;
    for (std::size_t i = 0; i < segments_.size(); ++i) {
        const Segment& s = segments_[i];
        if (!s.alive) continue;
        if (!s.expandable) {
            Run r{static_cast<int>(i), s.address, s.size, {}};
            for (const auto& [address, id] : s.blocks) r.blocks.push_back(id);
            out.push_back(std::move(r));
            continue;
        }
        bool open = false;
        for (const auto& [address, id] : s.blocks) {
            const Block& b = blocks_[static_cast<std::size_t>(id)];
            if (b.state == BlockState::Unmapped) {
                open = false;
                continue;
            }
            if (!open) out.push_back(Run{static_cast<int>(i), b.address, 0, {}});
            open = true;
            out.back().size += b.size;
            out.back().blocks.push_back(id);
        }
    }
    return out;
}

bool CudaCachingAllocator::allocatable(int id) const {
    if (id < 0) return false;
    const BlockState st = blocks_[static_cast<std::size_t>(id)].state;
    return st == BlockState::Free || st == BlockState::Unmapped;
}

int CudaCachingAllocator::mergeInto(int id, int other) {
    Block& a = blocks_[static_cast<std::size_t>(id)];
    Block& b = blocks_[static_cast<std::size_t>(other)];
    Segment& s = segments_[static_cast<std::size_t>(a.segment)];
    const int low = a.address < b.address ? id : other, high = low == id ? other : id;
    Block& keep = blocks_[static_cast<std::size_t>(low)];
    keep.size += blocks_[static_cast<std::size_t>(high)].size;
    s.blocks.erase({blocks_[static_cast<std::size_t>(high)].address, high});
    recycled_.push_back(high);
    return low;
}

// The first unmapped space of the stream's pool (lowest address), with the free block before
// it, that holds `size` bytes; else a new segment of address space.
int CudaCachingAllocator::findExpandable(std::int64_t size, std::int64_t stream, bool small, std::optional<std::int64_t> address) {
    std::vector<std::pair<std::int64_t, int>> unmapped;
    for (const Segment& s : segments_)
        if (s.alive && s.expandable && s.stream == stream && s.small == small)
            for (const auto& [a, id] : s.blocks)
                if (blocks_[static_cast<std::size_t>(id)].state == BlockState::Unmapped) unmapped.push_back({a, id});
    std::sort(unmapped.begin(), unmapped.end());
    for (const auto& [a, u] : unmapped) {
        int c = u;
        if (const int prev = neighbour(u, false); prev >= 0 && blocks_[static_cast<std::size_t>(prev)].state == BlockState::Free) c = prev;
        std::int64_t bytes = 0;
        for (int b = c; bytes < size && allocatable(b); b = neighbour(b, true)) bytes += blocks_[static_cast<std::size_t>(b)].size;
        if (bytes >= size) return c;
    }
    const std::int64_t granule = small ? kSmallBuffer : kLargeBuffer;
    segments_.push_back(Segment{freeAddress(granule, address), kExpandableSpace, stream, small, true, true, {}});
    Segment& s = segments_.back();
    const int seg = static_cast<int>(segments_.size()) - 1;
    const int id = newBlock(Block{seg, s.address, kExpandableSpace, 0, BlockState::Unmapped});
    s.blocks.insert({s.address, id});
    nextAddress_ = std::max(nextAddress_, s.address + kExpandableSpace + kRoundLarge);
    return id;
}

// Maps the pages under the first `size` bytes of an unmapped block; the mapped part becomes a
// free block merged with free neighbours. False when the card has no room for them.
bool CudaCachingAllocator::mapBlock(int id, std::int64_t size) {
    Block& b = blocks_[static_cast<std::size_t>(id)];
    const Segment& s = segments_[static_cast<std::size_t>(b.segment)];
    const std::int64_t g = s.granule();
    const std::int64_t bytes = std::min(b.size, (size + g - 1) / g * g);
    if (capacity_ > 0 && reserved_ + bytes > capacity_) return false;
    if (bytes < b.size) {
        const int rest = newBlock(Block{b.segment, b.address + bytes, b.size - bytes, 0, BlockState::Unmapped});
        Block& m = blocks_[static_cast<std::size_t>(id)];
        segments_[static_cast<std::size_t>(m.segment)].blocks.insert({m.address + bytes, rest});
        m.size = bytes;
    }
    Block& m = blocks_[static_cast<std::size_t>(id)];
    m.state = BlockState::Free;
    reserved_ += bytes;
    actions_.push_back({AllocatorAction::Kind::SegmentMap, m.address, bytes, s.stream});
    int kept = id;
    for (const bool next : {false, true})
        if (const int n = neighbour(kept, next); n >= 0 && blocks_[static_cast<std::size_t>(n)].state == BlockState::Free) {
            eraseFree(n);
            kept = mergeInto(kept, n);
        }
    insertFree(kept);
    return true;
}

int CudaCachingAllocator::tryExpandable(std::int64_t size, std::int64_t stream, bool small, std::optional<std::int64_t> address) {
    int c = findExpandable(size, stream, small, address);
    const auto mapped = [&](int unmapped, std::int64_t bytes) {
        const int prev = neighbour(unmapped, false);
        const bool prevFree = prev >= 0 && blocks_[static_cast<std::size_t>(prev)].state == BlockState::Free;
        const std::int64_t at = blocks_[static_cast<std::size_t>(unmapped)].address;
        if (!mapBlock(unmapped, bytes)) return -1;
        // the block that now holds `at`: the free one before it when they merged
        const Segment& s = segments_[static_cast<std::size_t>(blocks_[static_cast<std::size_t>(prevFree ? prev : unmapped)].segment)];
        auto it = s.blocks.upper_bound({at, std::numeric_limits<int>::max()});
        return std::prev(it)->second;
    };
    if (blocks_[static_cast<std::size_t>(c)].state == BlockState::Unmapped)
        if ((c = mapped(c, std::min(blocks_[static_cast<std::size_t>(c)].size, size))) < 0) return -1;
    while (blocks_[static_cast<std::size_t>(c)].size < size) {
        const int next = neighbour(c, true);
        const std::int64_t remaining = size - blocks_[static_cast<std::size_t>(c)].size;
        if (mapped(next, std::min(remaining, blocks_[static_cast<std::size_t>(next)].size)) < 0) return -1;
    }
    return c;
}

// The whole pages inside a free block go back to the device; the free rests before and after
// them stay free blocks.
void CudaCachingAllocator::unmapBlock(int id) {
    const Block b = blocks_[static_cast<std::size_t>(id)];
    Segment& s = segments_[static_cast<std::size_t>(b.segment)];
    const std::int64_t g = s.granule();
    const std::int64_t begin = s.address + (b.address - s.address + g - 1) / g * g;
    const std::int64_t end = s.address + (b.address + b.size - s.address) / g * g;
    if (end <= begin) return;
    eraseFree(id);
    s.blocks.erase({b.address, id});
    if (begin > b.address) {
        const int before = newBlock(Block{b.segment, b.address, begin - b.address, 0, BlockState::Free});
        s.blocks.insert({b.address, before});
        insertFree(before);
    }
    if (end < b.address + b.size) {
        const int after = newBlock(Block{b.segment, end, b.address + b.size - end, 0, BlockState::Free});
        s.blocks.insert({end, after});
        insertFree(after);
    }
    Block& u = blocks_[static_cast<std::size_t>(id)];
    u.address = begin;
    u.size = end - begin;
    u.state = BlockState::Unmapped;
    s.blocks.insert({begin, id});
    reserved_ -= end - begin;
    actions_.push_back({AllocatorAction::Kind::SegmentUnmap, begin, end - begin, s.stream});
    int kept = id;
    for (const bool next : {false, true})
        if (const int n = neighbour(kept, next); n >= 0 && blocks_[static_cast<std::size_t>(n)].state == BlockState::Unmapped)
            kept = mergeInto(kept, n);
}

std::vector<AllocatorAction> CudaCachingAllocator::takeActions() {
    std::vector<AllocatorAction> out;
    out.swap(actions_);
    return out;
}

ReservedGap CudaCachingAllocator::gap() const {
    ReservedGap g;
    for (const Run& r : runs()) {
        const Segment& s = segments_[static_cast<std::size_t>(r.segment)];
        ++g.segments;
        g.reserved += r.size;
        const bool whole = r.blocks.size() == 1 && blocks_[static_cast<std::size_t>(r.blocks.front())].state == BlockState::Free;
        if (whole) {
            g.cachedSegments += r.size;
            ++g.cachedSegmentCount;
        }
        for (const int id : r.blocks) {
            const Block& b = blocks_[static_cast<std::size_t>(id)];
            switch (b.state) {
            case BlockState::Allocated:
                g.allocated += b.size;
                g.requested += b.requested;
                break;
            case BlockState::PendingFree: g.pendingFree += b.size; break;
            case BlockState::Free:
                g.largestFreeBlock = std::max(g.largestFreeBlock, b.size);
                if (!whole) (s.small ? g.splitFreeSmall : g.splitFreeLarge) += b.size;
                break;
            case BlockState::Unmapped: break;
            }
        }
    }
    g.rounding = g.allocated - g.requested;
    return g;
}

} // namespace memviz::costmodel

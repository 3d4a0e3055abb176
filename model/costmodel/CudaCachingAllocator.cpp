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

int CudaCachingAllocator::findFree(std::int64_t size, std::int64_t stream, bool small) {
    auto& free = pool(small);
    const auto it = free.lower_bound({stream, size, std::numeric_limits<std::int64_t>::min(), -1});
    if (it == free.end() || std::get<0>(*it) != stream) return -1;
    const std::int64_t found = std::get<1>(*it);
    // Oversize blocks (max_split_size) go neither to smaller requests nor to much smaller large ones.
    if (size < config_.maxSplitSize && found >= config_.maxSplitSize) return -1;
    if (size >= config_.maxSplitSize && found >= size + kLargeBuffer) return -1;
    return std::get<3>(*it);
}

bool CudaCachingAllocator::shouldSplit(const Block& b, std::int64_t size) const {
    const std::int64_t remaining = b.size - size;
    if (segments_[static_cast<std::size_t>(b.segment)].small) return remaining >= kMinBlockSize;
    return size < config_.maxSplitSize && remaining > kSmallSize;
}

int CudaCachingAllocator::addSegment(std::int64_t address, std::int64_t size, std::int64_t stream, bool small) {
    segments_.push_back(Segment{address, size, stream, small, true, {}});
    const int seg = static_cast<int>(segments_.size()) - 1;
    const int id = newBlock(Block{seg, address, size, 0, BlockState::Free});
    segments_.back().blocks.insert({address, id});
    insertFree(id);
    reserved_ += size;
    nextAddress_ = std::max(nextAddress_, address + size + kRoundLarge);
    return seg;
}

int CudaCachingAllocator::newSegment(std::int64_t size, std::int64_t stream, bool small, std::optional<std::int64_t> address) {
    std::int64_t at = nextAddress_;
    if (address) { // the device's address, unless it overlaps a segment the model holds
        at = *address;
        for (const Segment& s : segments_)
            if (s.alive && at < s.address + s.size && s.address < at + size) {
                at = nextAddress_;
                break;
            }
    }
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
    for (std::size_t i = 0; i < segments_.size(); ++i) {
        const Segment& s = segments_[i];
        if (!s.alive || s.blocks.size() != 1 || blocks_[static_cast<std::size_t>(s.blocks.begin()->second)].state != BlockState::Free)
            continue;
        if (oversizeOnly && (s.stream != stream || s.size < config_.maxSplitSize)) continue;
        whole.push_back(static_cast<int>(i));
    }
    for (const int s : whole) releaseSegment(s);
    return !whole.empty();
}

void CudaCachingAllocator::emptyCache() { releaseCached(false, 0); }

std::vector<AllocatorAction> CudaCachingAllocator::takeActions() {
    std::vector<AllocatorAction> out;
    out.swap(actions_);
    return out;
}

ReservedGap CudaCachingAllocator::gap() const {
    ReservedGap g;
    for (const Segment& s : segments_) {
        if (!s.alive) continue;
        ++g.segments;
        g.reserved += s.size;
        const bool whole = s.blocks.size() == 1 && blocks_[static_cast<std::size_t>(s.blocks.begin()->second)].state == BlockState::Free;
        if (whole) {
            g.cachedSegments += s.size;
            ++g.cachedSegmentCount;
        }
        for (const auto& [address, id] : s.blocks) {
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
            }
        }
    }
    g.rounding = g.allocated - g.requested;
    return g;
}

} // namespace memviz::costmodel

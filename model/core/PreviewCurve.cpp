// SPDX-License-Identifier: MIT
#include "core/PreviewCurve.h"

#include <algorithm>

namespace memviz {

// A point is a bucket of one.
void PreviewBucket::add(const PreviewPoint& p) { merge(PreviewBucket{p, p, 1}); }

void PreviewBucket::merge(const PreviewBucket& later) {
    if (later.count == 0) return;
    if (count == 0) {
        *this = later;
        return;
    }
    const std::int64_t reserved = std::max(atMax.reserved, later.atMax.reserved);
    if (later.atMax.allocated > atMax.allocated) atMax = later.atMax;
    atMax.reserved = reserved;
    last = later.last;
    count += later.count;
}

void PreviewBucket::appendPoints(std::vector<PreviewPoint>& out) const {
    if (count == 0) return;
    if (!(atMax == last)) out.push_back(atMax);
    out.push_back(last);
}

// Phase 0: maxBuckets buckets of one value; then phases of maxBuckets / 2 buckets, each of
// twice the previous size (so each phase covers as many values as all before it).
void PreviewStream::add(const PreviewPoint& p) {
    if (nextDoubling_ == 0) nextDoubling_ = static_cast<std::int64_t>(maxBuckets_);
    open_.add(p);
    if (open_.count < bucketSize_) return;
    close();
}

void PreviewStream::close() {
    if (open_.count == 0) return;
    open_.appendPoints(ready_);
    open_ = {};
    if (++closed_ == nextDoubling_) {
        bucketSize_ *= 2;
        nextDoubling_ += static_cast<std::int64_t>(maxBuckets_ / 2);
    }
}

std::vector<PreviewPoint> PreviewStream::takeClosed() {
    std::vector<PreviewPoint> out;
    out.swap(ready_);
    return out;
}

void PreviewCurve::add(const PreviewPoint& p) {
    if (empty()) {
        x0_ = p.x;
        maxAllocated_ = p.allocated;
    }
    maxAllocated_ = std::max(maxAllocated_, p.allocated);
    lastPoint_ = p;
    // x does not go back; should it, the point joins the last cell. Unsigned: no overflow.
    const std::uint64_t offset = p.x > x0_ ? static_cast<std::uint64_t>(p.x) - static_cast<std::uint64_t>(x0_) : 0;
    const std::uint64_t index = offset / width_;
    if (cells_.empty() || cells_.back().index < index) cells_.push_back({index, {}});
    cells_.back().bucket.add(p);
    // Too many cells: twice as wide, neighbours merged (cells in the same wider cell).
    while (cells_.size() > maxBuckets_) {
        width_ *= 2;
        std::size_t kept = 0;
        for (std::size_t i = 0; i < cells_.size(); ++i) {
            const std::uint64_t wider = cells_[i].index / 2;
            if (kept > 0 && cells_[kept - 1].index == wider) {
                cells_[kept - 1].bucket.merge(cells_[i].bucket);
            } else {
                cells_[kept] = {wider, cells_[i].bucket};
                ++kept;
            }
        }
        cells_.resize(kept);
    }
}

std::vector<PreviewPoint> PreviewCurve::points() const {
    std::vector<PreviewPoint> out;
    out.reserve(2 * cells_.size());
    for (const Cell& c : cells_) c.bucket.appendPoints(out);
    return out;
}

void PreviewCurve::clear() { *this = PreviewCurve(maxBuckets_); }

} // namespace memviz

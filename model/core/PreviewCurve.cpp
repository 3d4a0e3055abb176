// SPDX-License-Identifier: MIT
#include "core/PreviewCurve.h"

#include <algorithm>

namespace memviz {

void PreviewBucket::add(const PreviewPoint& p) {
    if (count == 0 || p.allocated > atMax.allocated) {
        const std::int64_t reserved = count == 0 ? p.reserved : std::max(atMax.reserved, p.reserved);
        atMax = p;
        atMax.reserved = reserved;
    } else {
        atMax.reserved = std::max(atMax.reserved, p.reserved);
    }
    last = p;
    ++count;
}

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
    if (empty() || p.allocated > maxAllocated_) maxAllocated_ = p.allocated;
    lastPoint_ = p;
    open_.add(p);
    if (open_.count < bucketSize_) return;
    buckets_.push_back(open_);
    open_ = {};
    if (buckets_.size() < maxBuckets_) return;
    // Full: neighbours merge pairwise (an odd one out becomes the open bucket's start).
    std::size_t kept = 0;
    for (std::size_t i = 0; i + 1 < buckets_.size(); i += 2) {
        PreviewBucket b = buckets_[i];
        b.merge(buckets_[i + 1]);
        buckets_[kept++] = b;
    }
    if (buckets_.size() % 2) open_ = buckets_.back();
    buckets_.resize(kept);
    bucketSize_ *= 2;
}

std::vector<PreviewPoint> PreviewCurve::points() const {
    std::vector<PreviewPoint> out;
    out.reserve(2 * buckets_.size() + 2);
    for (const PreviewBucket& b : buckets_) b.appendPoints(out);
    open_.appendPoints(out);
    return out;
}

void PreviewCurve::clear() { *this = PreviewCurve(maxBuckets_); }

} // namespace memviz

// SPDX-License-Identifier: MIT
// Downsampling of a preview curve (PreviewSink.h) so that memory and drawing stay bounded by a
// few thousand points however many values come in. Values are grouped into buckets of equal
// count; a bucket keeps its largest allocated value (with that value's x and the bucket's
// largest reserved value) and its last value, so the curve's maximum and its last point are
// exact, and each bucket draws as at most two points.
// - PreviewStream (the importer's side): buckets are handed out when they close and forgotten;
//   O(1) memory. The bucket size doubles as the count grows (see bucketsBeforeDoubling()), so
//   n values give about maxBuckets * (1 + log2(n / maxBuckets) / 2) buckets in all.
// - PreviewCurve (the receiver's side): buckets are cells of equal width on the x axis (from
//   the first x), so the drawn curve has the same resolution everywhere whatever the sender's
//   buckets were; when there are more than maxBuckets cells, the width doubles and neighbours
//   merge.
#pragma once
#include <cstddef>
#include <cstdint>
#include <vector>

#include "core/PreviewSink.h"

namespace memviz {

struct PreviewBucket {
    PreviewPoint atMax; // the largest allocated value (first one on ties); reserved: the largest
    PreviewPoint last;
    std::int64_t count = 0;

    void add(const PreviewPoint& p);
    void merge(const PreviewBucket& later);
    // One point when the maximum is the last value, else two, in x order.
    void appendPoints(std::vector<PreviewPoint>& out) const;
};

class PreviewStream {
public:
    explicit PreviewStream(std::size_t maxBuckets = 1024) : maxBuckets_(maxBuckets < 2 ? 2 : maxBuckets) {}
    void add(const PreviewPoint& p);
    // Closes the open bucket (the end of the input: its last value is then handed out).
    void close();
    // The points of the buckets closed since the last call.
    std::vector<PreviewPoint> takeClosed();
    std::int64_t bucketSize() const { return bucketSize_; }
    std::int64_t closedBuckets() const { return closed_; }

private:
    std::size_t maxBuckets_;
    std::int64_t bucketSize_ = 1, closed_ = 0, nextDoubling_ = 0;
    PreviewBucket open_;
    std::vector<PreviewPoint> ready_;
};

class PreviewCurve {
public:
    explicit PreviewCurve(std::size_t maxBuckets = 1024) : maxBuckets_(maxBuckets < 2 ? 2 : maxBuckets) {}
    void add(const PreviewPoint& p);
    // At most 2 * maxBuckets points, x not decreasing.
    std::vector<PreviewPoint> points() const;
    bool empty() const { return cells_.empty(); }
    // The largest allocated value and the last point added (relative values, as added).
    std::int64_t maxAllocated() const { return maxAllocated_; }
    const PreviewPoint& last() const { return lastPoint_; }
    // Of a cell on the x axis.
    std::uint64_t cellWidth() const { return width_; }
    std::size_t maxBuckets() const { return maxBuckets_; }
    void clear();

private:
    struct Cell {
        std::uint64_t index = 0; // (x - x0) / width
        PreviewBucket bucket;
    };
    std::size_t maxBuckets_;
    std::int64_t x0_ = 0;
    std::uint64_t width_ = 1;
    std::vector<Cell> cells_;
    std::int64_t maxAllocated_ = 0;
    PreviewPoint lastPoint_;
};

} // namespace memviz

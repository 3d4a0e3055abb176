// SPDX-License-Identifier: MIT
#include "store/SeriesWriter.h"

#include <algorithm>

#include "store/Database.h"

namespace memviz {

void LodBucket::add(std::int64_t t, std::int64_t v) {
    if (count == 0) {
        tFirst = t;
        vFirst = v;
    }
    tLast = t;
    vLast = v;
    if (v < vMin) {
        vMin = v;
        tMin = t;
    }
    if (v > vMax) {
        vMax = v;
        tMax = t;
    }
    ++count;
}

void LodBucket::merge(const LodBucket& b) {
    if (b.count == 0) return;
    if (count == 0) {
        *this = b;
        return;
    }
    tLast = b.tLast;
    vLast = b.vLast;
    if (b.vMin < vMin) {
        vMin = b.vMin;
        tMin = b.tMin;
    }
    if (b.vMax > vMax) {
        vMax = b.vMax;
        tMax = b.tMax;
    }
    count += b.count;
}

SeriesWriter::SeriesWriter(std::int64_t seriesId, Statement& insertChunk, Statement& insertLod)
    : id_(seriesId), insertChunk_(insertChunk), insertLod_(insertLod) {
    // No chunk_.reserve(kPointsPerChunk): 1 MiB per series, most of which hold a few points.
    // After the first full chunk, chunk_.clear() keeps the grown capacity.
}

void SeriesWriter::add(std::int64_t t, std::int64_t v) {
    chunk_.push_back({t, v});
    total_.add(t, v);
    if (chunk_.size() == kPointsPerChunk) flushChunk();
    if (levels_.empty()) levels_.emplace_back();
    Level& l0 = levels_[0];
    l0.current.add(t, v);
    if (l0.current.count == kLodBase) {
        const LodBucket full = l0.current;
        l0.current = {};
        emitBucket(0, full);
    }
}

void SeriesWriter::writeBucket(std::size_t level, const LodBucket& b) {
    insertLod_.bind(1, id_)
        .bind(2, static_cast<std::int64_t>(level + 1))
        .bind(3, b.tLast)
        .bind(4, levels_[level].emitted++)
        .bind(5, b.tFirst)
        .bind(6, b.vFirst)
        .bind(7, b.vLast)
        .bind(8, b.vMin)
        .bind(9, b.tMin)
        .bind(10, b.vMax)
        .bind(11, b.tMax)
        .run();
}

bool SeriesWriter::stored(std::size_t level) { return static_cast<int>(level) + 1 >= kLodFirstStoredLevel; }

void SeriesWriter::emitBucket(std::size_t level, const LodBucket& b) {
    if (stored(level)) writeBucket(level, b);
    push(level + 1, b);
}

void SeriesWriter::push(std::size_t level, const LodBucket& b) {
    if (level >= levels_.size()) levels_.emplace_back();
    Level& l = levels_[level];
    l.current.merge(b);
    std::int64_t capacity = kLodBase;
    for (std::size_t i = 0; i < level; ++i) capacity *= kLodFactor;
    if (l.current.count >= capacity) {
        const LodBucket full = l.current;
        l.current = {};
        emitBucket(level, full);
    }
}

void SeriesWriter::flushChunk() {
    if (chunk_.empty()) return;
    const auto blob = encodePoints(chunk_);
    insertChunk_.bind(1, id_)
        .bind(2, chunks_++)
        .bind(3, static_cast<std::int64_t>(chunk_.size()))
        .bind(4, chunk_.front().t)
        .bind(5, chunk_.back().t)
        .bind(6, kCodecZstdNarrowColumns)
        .bindBlob(7, blob)
        .run();
    chunk_.clear();
}

void SeriesWriter::finish() {
    flushChunk();
    // Flush partial buckets bottom-up; a level stops the climb when nothing above it exists,
    // except that points always reach the first stored level (a short series has a bucket).
    for (std::size_t level = 0; level < levels_.size(); ++level) {
        if (levels_[level].current.count == 0) continue;
        const LodBucket partial = levels_[level].current;
        levels_[level].current = {};
        if (stored(level)) writeBucket(level, partial);
        if (level + 1 == levels_.size() && !stored(level)) levels_.emplace_back();
        if (level + 1 < levels_.size()) levels_[level + 1].current.merge(partial);
    }
}

} // namespace memviz

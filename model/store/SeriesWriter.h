// SPDX-License-Identifier: MIT
#pragma once
// Streams the points of one series into compressed chunks and builds its min/max
// level-of-detail pyramid on the fly, so a series of tens of millions of points is written
// in one pass with bounded memory.
#include <cstdint>
#include <limits>
#include <vector>

#include "store/ChunkCodec.h"

namespace memviz {

class Database;
class Statement;

// One bucket of the pyramid: the first, last, lowest and highest point of a run of points.
struct LodBucket {
    std::int64_t count = 0;
    std::int64_t tFirst = 0, tLast = 0;
    std::int64_t vFirst = 0, vLast = 0;
    std::int64_t vMin = std::numeric_limits<std::int64_t>::max(), tMin = 0;
    std::int64_t vMax = std::numeric_limits<std::int64_t>::min(), tMax = 0;

    void add(std::int64_t t, std::int64_t v);
    void merge(const LodBucket& b);
};

// Level L (1-based) buckets hold kLodBase * kLodFactor^(L-1) points. Since schema version 9
// the pyramid is stored from level kLodFirstStoredLevel up: level 1 was three quarters of its
// rows (and of the writer thread's time on a big import, issue 33), and a window that fine is
// read from the point chunks as quickly. Stores written before keep their level 1.
constexpr std::int64_t kLodBase = 16;
constexpr std::int64_t kLodFactor = 4;
constexpr int kLodFirstStoredLevel = 2;

class SeriesWriter {
public:
    SeriesWriter(std::int64_t seriesId, Statement& insertChunk, Statement& insertLod);

    void add(std::int64_t t, std::int64_t v);
    // Writes the partial chunk and the partial buckets of every level.
    void finish();

    std::int64_t id() const { return id_; }
    const LodBucket& total() const { return total_; }
    // First time at which the maximum value was reached.
    std::int64_t peakTime() const { return total_.tMax; }

private:
    struct Level {
        LodBucket current;
        std::int64_t emitted = 0; // buckets written
    };
    void flushChunk();
    void push(std::size_t level, const LodBucket& b);
    void emitBucket(std::size_t level, const LodBucket& b);
    void writeBucket(std::size_t level, const LodBucket& b);
    // Whether buckets of `level` (0-based) go into the store.
    static bool stored(std::size_t level);

    std::int64_t id_;
    Statement& insertChunk_;
    Statement& insertLod_;
    std::vector<SeriesPoint> chunk_;
    std::int64_t chunks_ = 0;
    std::vector<Level> levels_;
    LodBucket total_;
};

} // namespace memviz

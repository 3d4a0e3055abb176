// SPDX-License-Identifier: MIT
#include "workshop/ShapeGuesses.h"

#include <algorithm>
#include <cmath>

namespace memviz::workshop {

namespace {

// Image sides in rough order of how often they appear in tutorials and models.
constexpr std::int64_t kImageSides[] = {224, 256, 512, 128, 32,  28,  64,  96,  384, 1024, 40,
                                        299, 448, 48,  80,  160, 192, 320, 640, 768, 2048, 4096};
constexpr std::int64_t kChannels[] = {3, 1};
constexpr std::int64_t kHidden[] = {768, 1024, 4096, 512, 2048, 5120, 8192};
constexpr std::int64_t kSequence[] = {512, 1024, 2048, 4096, 128, 256, 8192};
constexpr std::int64_t kHeads[] = {12, 16, 32};
constexpr std::int64_t kMaxBatch = 10'000'000;

struct Candidate {
    const char* dtype;
    int bytes;
};
constexpr Candidate kDTypes[] = {{"float32", 4}, {"float16", 2}, {"float64", 8}, {"uint8", 1}};

// A batch B with B * perSample elements in [lo, hi] (elements), preferring an exact fit;
// 0 when none.
std::int64_t batchFor(std::int64_t lo, std::int64_t hi, std::int64_t perSample) {
    if (perSample <= 0 || hi < perSample) return 0;
    const std::int64_t b = hi / perSample; // the largest batch within the range
    if (b < 1 || b > kMaxBatch || b * perSample < lo) return 0;
    return b;
}

} // namespace

std::string dimsText(const Dims& dims) {
    std::string s = "[";
    for (std::size_t i = 0; i < dims.size(); ++i) s += (i ? ", " : "") + std::to_string(dims[i]);
    return s + "]";
}

std::vector<ShapeGuess> guessShapes(std::int64_t low, std::int64_t high, std::size_t limit) {
    std::vector<ShapeGuess> out;
    if (low <= 0 || high < low) return out;
    for (const Candidate& c : kDTypes) {
        // Whole elements only: [lo, hi] in elements.
        const std::int64_t lo = (low + c.bytes - 1) / c.bytes, hi = high / c.bytes;
        if (lo > hi) continue;
        const auto add = [&](Dims dims, ShapeFamily family) {
            std::int64_t n = 1;
            for (std::int64_t d : dims) n *= d;
            out.push_back({std::move(dims), c.dtype, c.bytes, n * c.bytes, family});
        };
        // Images: the two most common sides that fit, and the largest side that fits (the
        // fewest, biggest images: "1000 photos of 4096x4096").
        std::vector<Dims> images;
        for (std::int64_t channels : kChannels)
            for (std::int64_t side : kImageSides)
                if (std::int64_t b = batchFor(lo, hi, channels * side * side)) images.push_back({b, channels, side, side});
        for (std::size_t i = 0; i < images.size() && i < 2; ++i) add(images[i], ShapeFamily::ImageBatch);
        if (images.size() > 2) {
            auto largest = std::max_element(images.begin() + 2, images.end(),
                                            [](const Dims& a, const Dims& b) { return a[2] < b[2]; });
            if ((*largest)[2] > std::max(images[0][2], images[1][2])) add(*largest, ShapeFamily::ImageBatch);
        }
        bool tokens = false;
        for (std::int64_t hidden : kHidden) {
            for (std::int64_t seq : kSequence)
                if (std::int64_t b = batchFor(lo, hi, seq * hidden)) {
                    add({b, seq, hidden}, ShapeFamily::TokenActivations);
                    tokens = true;
                    break;
                }
            if (tokens) break;
        }
        bool scores = false;
        for (std::int64_t seq : kSequence) {
            for (std::int64_t heads : kHeads)
                if (std::int64_t b = batchFor(lo, hi, heads * seq * seq)) {
                    add({b, heads, seq, seq}, ShapeFamily::AttentionScores);
                    scores = true;
                    break;
                }
            if (scores) break;
        }
        const auto side = static_cast<std::int64_t>(std::llround(std::sqrt(static_cast<double>(hi))));
        for (std::int64_t n : {side, side - 1})
            if (n > 1 && n * n >= lo && n * n <= hi) {
                add({n, n}, ShapeFamily::SquareMatrix);
                break;
            }
        if (lo == hi && c.bytes == 4 && out.empty()) add({lo}, ShapeFamily::Vector);
    }
    if (out.size() > limit) out.resize(limit);
    return out;
}

} // namespace memviz::workshop

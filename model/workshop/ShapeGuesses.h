// SPDX-License-Identifier: MIT
#pragma once
// Plausible tensors of a given size: for the common dtypes, image batches [B, C, H, W],
// token activations [B, S, H], attention scores [B, heads, S, S] and square matrices whose
// bytes fall in [low, high] (low == high: exactly that many bytes). Used by the OOM decoder to
// make "you tried to allocate 717574400 bytes" concrete: [112121, 1, 40, 40] float32.
#include <cstdint>
#include <string>
#include <vector>

#include "workshop/TensorSize.h"

namespace memviz::workshop {

enum class ShapeFamily { ImageBatch, TokenActivations, AttentionScores, SquareMatrix, Vector };

struct ShapeGuess {
    Dims dims;
    std::string dtype; // "float32"; "float16" also stands for bfloat16
    int elementBytes = 4;
    std::int64_t bytes = 0;
    ShapeFamily family = ShapeFamily::Vector;
};

// At most `limit` guesses, float32 first; within a dtype one to three per family, the most
// common sizes first. Empty when nothing plausible fits (e.g. an odd byte count).
std::vector<ShapeGuess> guessShapes(std::int64_t low, std::int64_t high, std::size_t limit = 8);

std::string dimsText(const Dims& dims); // "[112121, 1, 40, 40]"

} // namespace memviz::workshop

// SPDX-License-Identifier: MIT
#pragma once
// Lesson 1's formula: a tensor's memory is its element count times the element size, and the
// same byte count reads differently in MB (10^6) and MiB (2^20). Also reads the shape a
// learner types: "torch.ones((112121, 1, 40, 40))", "1000x3x4096x4096", "(2, 3), dtype=torch.half".
#include <cstdint>
#include <optional>
#include <string_view>
#include <vector>

#include "workshop/TorchDTypes.h"

namespace memviz::workshop {

using Dims = std::vector<std::int64_t>;

struct TensorSize {
    std::int64_t elements = 0;
    std::int64_t bytes = 0;
    double megabytes() const { return static_cast<double>(bytes) / 1e6; }
    double mebibytes() const { return static_cast<double>(bytes) / 1048576.0; }
    double gigabytes() const { return static_cast<double>(bytes) / 1e9; }
    double gibibytes() const { return static_cast<double>(bytes) / 1073741824.0; }
};

// nullopt when a dimension is negative or the product overflows int64.
std::optional<TensorSize> tensorSize(const Dims& dims, int elementBytes);

// The memory of one batch of `batch` samples when dims[0] is the dataset's sample count: what a
// DataLoader holds at a time instead of the whole tensor. nullopt for a 0-d shape or overflow.
std::optional<TensorSize> batchSize(const Dims& dims, int elementBytes, std::int64_t batch);

struct TensorExpression {
    Dims dims;
    std::optional<TorchDType> dtype; // when the text names one
};

// The integers of the text are the dimensions; a dtype word (torch.float16, "half", "bf16")
// anywhere sets the dtype. nullopt when the text has no dimension or a dimension over int64.
std::optional<TensorExpression> parseTensorExpression(std::string_view text);

} // namespace memviz::workshop

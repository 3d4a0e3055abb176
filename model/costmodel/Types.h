// SPDX-License-Identifier: MIT
#pragma once
// Plain value types shared by the cost model: element types, shapes, the breakdown categories
// and the phases of a training step. No Qt, no I/O.
#include <array>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace memviz::costmodel {

using Shape = std::vector<std::int64_t>;

std::int64_t numel(const Shape& shape);
std::string shapeText(const Shape& shape); // "[3, 32, 32]"

// Element types of tensors. Bool and U8 are masks; I64 holds indices and class targets.
enum class DType { F32, F16, BF16, F64, I8, I64, Bool, U8 };

int elementSize(DType dtype);
const char* dtypeName(DType dtype); // "fp32", "bf16", "int64", ...
bool isFloating(DType dtype);

// Where a live byte belongs, for the breakdown at the peak and the stacked timeline.
enum class Category {
    Parameters,     // weights and buffers (BatchNorm running statistics)
    Gradients,      // .grad of parameters (and of an input batch that requires grad)
    OptimizerState, // momentum buffers, Adam moments, LBFGS history, ...
    Activations,    // forward outputs: saved for backward, or alive until the next layer returns
    Input,          // the batch: inputs and targets
    Temporaries,    // gradients of activations, loss and optimizer scratch
    KvCache,        // inference: the keys and values of past tokens kept per attention layer
    Overhead,       // allocator rounding, cached-but-free memory, runtime caches, CUDA context
};
inline constexpr int kCategoryCount = 8;
const char* categoryName(Category c); // "optimizer state"
const char* categoryKey(Category c);  // "optimizer_state_bytes" (JSON field)
using CategoryBytes = std::array<std::int64_t, kCategoryCount>;

enum class Phase { Forward, Backward, Optimizer };
const char* phaseName(Phase p); // "forward", "backward", "optimizer"

} // namespace memviz::costmodel

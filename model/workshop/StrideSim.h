// SPDX-License-Identifier: MIT
#pragma once
// Lesson 7's model of views and copies: a tensor is a shape, strides and an offset into a
// storage. view/reshape/transpose/slicing make new tensors over the same storage; contiguous()
// copies only when the strides are not already row-major, clone() always copies, reshape()
// copies when no view is possible (PyTorch's computeStride rule). A program of such statements
// is run step by step, reporting the bytes each step allocates and the storage bytes alive.
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "workshop/TensorSize.h"

namespace memviz::workshop {

// Row-major strides of `shape`.
Dims contiguousStrides(const Dims& shape);
bool isContiguous(const Dims& shape, const Dims& strides);
// The strides of old viewed as newShape without a copy, or nullopt when no view exists
// (ATen's computeStride). Precondition: same number of elements.
std::optional<Dims> viewStrides(const Dims& oldShape, const Dims& oldStrides, const Dims& newShape);

struct TensorMeta {
    Dims shape, strides;
    std::int64_t offset = 0;
    int storage = -1;
};

enum class StrideOp {
    Create,     // name = torch.empty(shape)
    View,       // name = src.view(shape): error when not viewable
    Reshape,    // name = src.reshape(shape): a view when possible, else a copy
    Transpose,  // name = src.transpose(dim0, dim1)
    Slice,      // name = src[start:stop:step] along dim
    Contiguous, // name = src.contiguous()
    Clone,      // name = src.clone()
    Delete,     // del name
};

struct StrideStatement {
    StrideOp op = StrideOp::Create;
    std::string name, source;
    Dims shape;                                 // Create, View, Reshape
    int dim0 = 0, dim1 = 1;                     // Transpose; Slice uses dim0
    std::int64_t start = 0, stop = 0, step = 1; // Slice
};

// Statement builders, so programs read like the Python they stand for.
namespace stmt {
inline StrideStatement create(std::string name, Dims shape) { return {StrideOp::Create, std::move(name), {}, std::move(shape)}; }
inline StrideStatement view(std::string name, std::string src, Dims shape) {
    return {StrideOp::View, std::move(name), std::move(src), std::move(shape)};
}
inline StrideStatement reshape(std::string name, std::string src, Dims shape) {
    return {StrideOp::Reshape, std::move(name), std::move(src), std::move(shape)};
}
inline StrideStatement transpose(std::string name, std::string src, int dim0, int dim1) {
    return {StrideOp::Transpose, std::move(name), std::move(src), {}, dim0, dim1};
}
inline StrideStatement slice(std::string name, std::string src, int dim, std::int64_t start, std::int64_t stop,
                             std::int64_t step = 1) {
    return {StrideOp::Slice, std::move(name), std::move(src), {}, dim, 0, start, stop, step};
}
inline StrideStatement contiguous(std::string name, std::string src) {
    return {StrideOp::Contiguous, std::move(name), std::move(src), {}};
}
inline StrideStatement clone(std::string name, std::string src) { return {StrideOp::Clone, std::move(name), std::move(src), {}}; }
inline StrideStatement del(std::string name) { return {StrideOp::Delete, std::move(name), {}, {}}; }
} // namespace stmt

struct StrideStep {
    std::string code;                 // the statement in PyTorch syntax
    std::optional<TensorMeta> result; // absent for del and errors
    bool sharesStorage = false;       // the result is a view of `source`'s storage
    bool contiguous = false;
    std::int64_t allocatedBytes = 0; // new storage this step allocated
    std::int64_t freedBytes = 0;     // storage released (del of the last reference)
    std::int64_t liveBytes = 0;      // all storages alive after the step
    std::string error;               // "view size is not compatible with input tensor's size and stride"
};

// Runs `program` on tensors with `elementBytes`-byte elements. A bad statement (unknown name,
// dimension out of range, impossible view) gives a step with `error` and changes nothing.
std::vector<StrideStep> runStrideProgram(const std::vector<StrideStatement>& program, int elementBytes);

// "x.view(6)"-style text of a statement.
std::string statementCode(const StrideStatement& s);

} // namespace memviz::workshop

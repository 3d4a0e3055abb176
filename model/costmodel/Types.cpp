// SPDX-License-Identifier: MIT
#include "costmodel/Types.h"

namespace memviz::costmodel {

std::int64_t numel(const Shape& shape) {
    std::int64_t n = 1;
    for (std::int64_t d : shape) n *= d;
    return n;
}

std::string shapeText(const Shape& shape) {
    std::string s = "[";
    for (std::size_t i = 0; i < shape.size(); ++i) {
        if (i) s += ", ";
        s += std::to_string(shape[i]);
    }
    return s + "]";
}

int elementSize(DType dtype) {
    switch (dtype) {
    case DType::F32: return 4;
    case DType::F16:
    case DType::BF16: return 2;
    case DType::F64:
    case DType::I64: return 8;
    case DType::I8:
    case DType::Bool:
    case DType::U8: return 1;
    }
    return 4;
}

const char* dtypeName(DType dtype) {
    switch (dtype) {
    case DType::F32: return "fp32";
    case DType::F16: return "fp16";
    case DType::BF16: return "bf16";
    case DType::F64: return "fp64";
    case DType::I8: return "int8";
    case DType::I64: return "int64";
    case DType::Bool: return "bool";
    case DType::U8: return "uint8";
    }
    return "?";
}

bool isFloating(DType dtype) { return dtype == DType::F32 || dtype == DType::F16 || dtype == DType::BF16 || dtype == DType::F64; }

const char* categoryName(Category c) {
    switch (c) {
    case Category::Parameters: return "parameters";
    case Category::Gradients: return "gradients";
    case Category::OptimizerState: return "optimizer state";
    case Category::Activations: return "activations";
    case Category::Input: return "input batch";
    case Category::Temporaries: return "temporaries";
    case Category::KvCache: return "kv cache";
    case Category::Overhead: return "allocator overhead";
    }
    return "?";
}

const char* categoryKey(Category c) {
    switch (c) {
    case Category::Parameters: return "parameters_bytes";
    case Category::Gradients: return "gradients_bytes";
    case Category::OptimizerState: return "optimizer_state_bytes";
    case Category::Activations: return "activations_bytes";
    case Category::Input: return "input_bytes";
    case Category::Temporaries: return "temporaries_bytes";
    case Category::KvCache: return "kv_cache_bytes";
    case Category::Overhead: return "allocator_overhead_bytes";
    }
    return "?";
}

const char* phaseName(Phase p) {
    switch (p) {
    case Phase::Forward: return "forward";
    case Phase::Backward: return "backward";
    case Phase::Optimizer: return "optimizer";
    }
    return "?";
}

} // namespace memviz::costmodel

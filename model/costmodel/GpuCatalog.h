// SPDX-License-Identifier: MIT
#pragma once
// The GPUs people plan for, with their memory and the CUDA context a PyTorch process pays on
// them: a built-in list (T4 … MI300X) that a user's JSON file overrides and extends. Names are
// ids such as "a100-80g"; lookups ignore case, spaces and underscores and accept "gb" for "g".
// File format and the sources of the sizes: docs/costmodel.md ("GPU catalog").
#include <cstdint>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

namespace memviz::costmodel {

struct GpuInfo {
    std::string id;            // "a100-80g"
    std::string name;          // "NVIDIA A100 80GB"
    std::int64_t memoryBytes = 0;
    std::int64_t contextBytes = 0; // the CUDA (or ROCm) context outside PyTorch's allocator
    std::string source;        // where the size comes from ("nvidia-smi total", "nominal", a user file)
};

class GpuCatalogError : public std::runtime_error {
public:
    using std::runtime_error::runtime_error;
};

class GpuCatalog {
public:
    static GpuCatalog builtin();
    // Merges a user catalog: {"gpus": [{"id": "my-gpu", "name": "...", "memory": "24GiB" | bytes,
    // "cuda_context": "400MiB" | bytes}]}. An id that exists is overridden (fields given replace
    // those of the entry), a new id is added. Errors name the entry and the key.
    void merge(std::string_view json, const std::string& where);
    void mergeFile(const std::string& path);

    const GpuInfo* find(std::string_view id) const; // nullptr when unknown
    const std::vector<GpuInfo>& gpus() const { return gpus_; } // by memory, then id
    std::string knownIds() const;                   // "t4, l4, ..." for messages

private:
    void sort();
    std::vector<GpuInfo> gpus_;
};

// "A100_80GB" -> "a100-80g": the form ids are compared in.
std::string normalizeGpuId(std::string_view text);

} // namespace memviz::costmodel

// SPDX-License-Identifier: MIT
#pragma once
// Reads ONLY the header of a `.safetensors` file (8-byte little-endian length, then a JSON
// object: tensor name -> dtype, shape, data_offsets; "__metadata__") or a
// `model.safetensors.index.json` (metadata.total_size, weight_map, and the shard headers beside
// it when they are there), and counts the tensors exactly, by dtype. The tensor data is never
// read. Hostile headers (a length past the file, over 100 MB, bad JSON, bad shapes, products
// that overflow, offsets out of order) are refused with a SafetensorsError naming the byte or
// the key. See docs/costmodel.md ("Model input people already have").
#include <cstdint>
#include <map>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

namespace memviz::costmodel {

class SafetensorsError : public std::runtime_error {
public:
    using std::runtime_error::runtime_error;
};

// The largest header the reader accepts (the safetensors library's own limit is 100 MB).
inline constexpr std::int64_t kMaxSafetensorsHeaderBytes = 100'000'000;

struct SafetensorsCount {
    std::int64_t tensors = 0;
    std::int64_t elements = 0;         // every tensor
    std::int64_t bufferElements = 0;   // tensors that are buffers, not parameters (rotary inv_freq, GPT-2's attn.bias masks)
    std::int64_t parameterCount = 0;   // elements - bufferElements
    std::int64_t dataBytes = 0;        // the bytes the tensors take (what index.json calls total_size)
    std::map<std::string, std::int64_t> elementsByDtype; // "BF16" -> elements
    std::int64_t largestTensorElements = 0;
    std::string largestTensor;
    std::map<std::string, std::string> metadata; // "__metadata__" (single file only)
    bool dataPresent = true;       // false when the file ends before the data the header describes
    std::int64_t declaredTotalSize = -1; // index.json's metadata.total_size (-1: single file)
    int shardsRead = 0, shardsMissing = 0;
    std::vector<std::string> warnings;
};

// Bytes per element of a safetensors dtype ("F32" 4, "BF16" 2, "F8_E4M3" 1, ...); 0 if unknown.
int safetensorsDtypeSize(std::string_view dtype);

// True for a tensor name that holds a buffer rather than a trainable parameter.
bool isSafetensorsBufferName(std::string_view name);

// `data` is the start of a .safetensors file (at least its 8 + header bytes); `fileSize` its
// whole size. `where` names the file in messages.
SafetensorsCount readSafetensorsHeader(std::string_view data, std::int64_t fileSize, const std::string& where);
// Reads the first 8 bytes, then only the header, of the file at `path`.
SafetensorsCount readSafetensorsFile(const std::string& path);
// An index.json: its text, and the folder its shards are in (empty: do not look for shards).
SafetensorsCount readSafetensorsIndex(std::string_view json, const std::string& where, const std::string& folder);
// A path ending in ".json" is read as an index, anything else as a .safetensors file.
SafetensorsCount readSafetensors(const std::string& path);

} // namespace memviz::costmodel

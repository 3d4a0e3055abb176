// SPDX-License-Identifier: MIT
#include "costmodel/Safetensors.h"

#include <simdjson.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <set>
#include <sstream>

#include "io/JsonError.h"
#include "io/JsonLocate.h"

namespace memviz::costmodel {

namespace {

namespace dom = simdjson::dom;

constexpr std::int64_t kMaxElements = std::int64_t{1} << 48; // 1 PiB of fp32: not a real tensor

[[noreturn]] void fail(const std::string& where, const std::string& what) { throw SafetensorsError(where + ": " + what); }

std::int64_t nonNegative(dom::element e, const std::string& where, const std::string& what) {
    std::int64_t v = 0;
    if (e.get_int64().get(v) || v < 0) {
        std::uint64_t big = 0;
        if (!e.get_uint64().get(big)) fail(where, what + " is " + std::to_string(big) + ", too large");
        fail(where, what + " must be a non-negative integer, got " + simdjson::to_string(e));
    }
    return v;
}

dom::element parseJson(dom::parser& parser, const simdjson::padded_string& padded, std::string_view json,
                       const std::string& where) {
    dom::element root;
    if (const auto error = parser.parse(padded).get(root)) {
        const std::string located = describeJsonSyntaxError(where, json, error);
        throw SafetensorsError(located.empty() ? describeJsonError(where, json, nullptr, error) : located);
    }
    return root;
}

struct Span {
    std::int64_t begin, end;
    std::string name;
};

void addTensor(SafetensorsCount& c, const std::string& name, const std::string& dtype, std::int64_t elements) {
    c.tensors += 1;
    c.elements += elements;
    if (isSafetensorsBufferName(name)) c.bufferElements += elements;
    c.elementsByDtype[dtype] += elements;
    if (elements > c.largestTensorElements) {
        c.largestTensorElements = elements;
        c.largestTensor = name;
    }
}

std::string readPrefix(const std::string& path, std::int64_t& fileSize) {
    std::error_code ec;
    const auto size = std::filesystem::file_size(path, ec);
    if (ec) throw SafetensorsError(path + ": cannot read the file (" + ec.message() + ")");
    fileSize = static_cast<std::int64_t>(size);
    std::ifstream in(path, std::ios::binary);
    if (!in) throw SafetensorsError(path + ": cannot open the file");
    std::string prefix(static_cast<std::size_t>(std::min<std::int64_t>(fileSize, 8)), '\0');
    in.read(prefix.data(), static_cast<std::streamsize>(prefix.size()));
    if (fileSize < 8) return prefix; // readSafetensorsHeader says what is wrong
    std::uint64_t n = 0;
    for (int i = 7; i >= 0; --i) n = (n << 8) | static_cast<unsigned char>(prefix[static_cast<std::size_t>(i)]);
    if (n > static_cast<std::uint64_t>(kMaxSafetensorsHeaderBytes) || n > static_cast<std::uint64_t>(fileSize - 8))
        return prefix; // refused with the numbers by readSafetensorsHeader
    std::string all(8 + static_cast<std::size_t>(n), '\0');
    std::copy(prefix.begin(), prefix.end(), all.begin());
    in.read(all.data() + 8, static_cast<std::streamsize>(n));
    if (in.gcount() != static_cast<std::streamsize>(n)) throw SafetensorsError(path + ": the file ended while its header was read");
    return all;
}

} // namespace

int safetensorsDtypeSize(std::string_view d) {
    if (d == "F64" || d == "I64" || d == "U64") return 8;
    if (d == "F32" || d == "I32" || d == "U32") return 4;
    if (d == "F16" || d == "BF16" || d == "I16" || d == "U16") return 2;
    if (d == "I8" || d == "U8" || d == "BOOL" || d == "F8_E4M3" || d == "F8_E5M2" || d == "F8_E8M0") return 1;
    return 0;
}

bool isSafetensorsBufferName(std::string_view name) {
    const auto endsWith = [name](std::string_view s) {
        return name.size() >= s.size() && name.substr(name.size() - s.size()) == s;
    };
    return endsWith(".inv_freq") || endsWith(".attn.bias") || endsWith(".attn.masked_bias") || endsWith("position_ids");
}

namespace {

SafetensorsCount readHeader(std::string_view data, std::int64_t fileSize, const std::string& where,
                            std::set<std::string>* namesOut) {
    if (fileSize < 8 || data.size() < 8)
        fail(where, "byte 0: the file has " + std::to_string(fileSize) + " bytes, fewer than the 8-byte header length");
    std::uint64_t n = 0;
    for (int i = 7; i >= 0; --i) n = (n << 8) | static_cast<unsigned char>(data[static_cast<std::size_t>(i)]);
    if (n > static_cast<std::uint64_t>(kMaxSafetensorsHeaderBytes))
        fail(where, "byte 0: the header length " + std::to_string(n) + " is over the 100 MB limit (not a safetensors file?)");
    if (n > static_cast<std::uint64_t>(fileSize - 8))
        fail(where, "byte 0: the header length " + std::to_string(n) + " runs past the end of the file (" +
                        std::to_string(fileSize) + " bytes)");
    if (n < 2) fail(where, "byte 8: a header of " + std::to_string(n) + " bytes cannot hold a JSON object");
    if (data.size() < 8 + n) fail(where, "byte 8: the header was not read whole");
    const std::string_view json = data.substr(8, static_cast<std::size_t>(n));
    const std::string jsonWhere = where + " (header JSON, from byte 8)";
    dom::parser parser;
    const simdjson::padded_string padded(json);
    dom::object top;
    if (parseJson(parser, padded, json, jsonWhere).get_object().get(top))
        fail(where, "byte 8: the header must be a JSON object");

    SafetensorsCount c;
    std::vector<Span> spans;
    std::set<std::string> names;
    for (auto [keyView, value] : top) {
        const std::string name(keyView);
        if (!names.insert(name).second) fail(where, "tensor '" + name + "' appears twice in the header");
        if (name == "__metadata__") {
            dom::object meta;
            if (value.get_object().get(meta)) fail(where, "'__metadata__' must be an object of strings");
            for (auto [k, v] : meta) {
                std::string_view s;
                if (v.get_string().get(s)) fail(where, "'__metadata__." + std::string(k) + "' must be a string");
                c.metadata[std::string(k)] = std::string(s);
            }
            continue;
        }
        const std::string at = "tensor '" + name + "'";
        dom::object t;
        if (value.get_object().get(t)) fail(where, at + " must be an object with dtype, shape and data_offsets");
        std::string_view dtype;
        dom::array shape, offsets;
        if (t["dtype"].get_string().get(dtype)) fail(where, at + ": 'dtype' is missing or not a string");
        const int size = safetensorsDtypeSize(dtype);
        if (!size) fail(where, at + ": unknown dtype '" + std::string(dtype) + "'");
        dom::element shapeElement;
        if (t["shape"].get(shapeElement) || shapeElement.get_array().get(shape)) fail(where, at + ": 'shape' is missing or not an array");
        if (t["data_offsets"].get_array().get(offsets) || offsets.size() != 2)
            fail(where, at + ": 'data_offsets' must be an array [begin, end]");
        std::int64_t elements = 1;
        std::size_t dim = 0;
        for (dom::element d : shape) {
            const std::int64_t v = nonNegative(d, where, at + ": shape[" + std::to_string(dim) + "]");
            if (v != 0 && elements > kMaxElements / v)
                fail(where, at + ": shape " + simdjson::to_string(shapeElement) + " has more than 2^48 elements");
            elements *= v;
            ++dim;
        }
        const std::int64_t begin = nonNegative(offsets.at(0).value_unsafe(), where, at + ": data_offsets[0]");
        const std::int64_t end = nonNegative(offsets.at(1).value_unsafe(), where, at + ": data_offsets[1]");
        if (end < begin)
            fail(where, at + ": data_offsets [" + std::to_string(begin) + ", " + std::to_string(end) + "] end before they begin");
        const std::int64_t bytes = elements * size;
        if (end - begin != bytes)
            fail(where, at + ": data_offsets [" + std::to_string(begin) + ", " + std::to_string(end) + "] hold " +
                            std::to_string(end - begin) + " bytes, but " + std::string(dtype) + " " +
                            simdjson::to_string(shapeElement) + " needs " + std::to_string(bytes));
        spans.push_back({begin, end, name});
        addTensor(c, name, std::string(dtype), elements);
        c.dataBytes += bytes;
    }
    // The data must be contiguous from 0, in some order of the tensors (the library's rule).
    std::sort(spans.begin(), spans.end(), [](const Span& a, const Span& b) {
        return a.begin != b.begin ? a.begin < b.begin : a.end < b.end;
    });
    std::int64_t expected = 0;
    std::string previous;
    for (const Span& s : spans) {
        if (s.begin != expected)
            fail(where, "tensor '" + s.name + "': data_offsets begin at " + std::to_string(s.begin) + ", expected " +
                            std::to_string(expected) +
                            (previous.empty() ? std::string(" (the first tensor)") : " (where '" + previous + "' ends)") +
                            (s.begin < expected ? ": the tensors overlap" : ": a hole in the data"));
        expected = s.end;
        previous = s.name;
    }
    c.parameterCount = c.elements - c.bufferElements;
    if (namesOut) {
        names.erase("__metadata__");
        *namesOut = std::move(names);
    }
    const std::int64_t dataStart = 8 + static_cast<std::int64_t>(n);
    if (fileSize - dataStart < expected) {
        c.dataPresent = false;
        c.warnings.push_back(where + ": the file ends before the tensor data (" + std::to_string(expected) +
                             " bytes from byte " + std::to_string(dataStart) +
                             "): a header-only or truncated file; only the header was read");
    }
    return c;
}

} // namespace

SafetensorsCount readSafetensorsHeader(std::string_view data, std::int64_t fileSize, const std::string& where) {
    return readHeader(data, fileSize, where, nullptr);
}

SafetensorsCount readSafetensorsFile(const std::string& path) {
    std::int64_t fileSize = 0;
    const std::string prefix = readPrefix(path, fileSize);
    return readSafetensorsHeader(prefix, fileSize, path);
}

SafetensorsCount readSafetensorsIndex(std::string_view json, const std::string& where, const std::string& folder) {
    dom::parser parser;
    const simdjson::padded_string padded(json);
    dom::object top, meta, map;
    if (parseJson(parser, padded, json, where).get_object().get(top)) fail(where, "an index must be a JSON object");
    if (top["weight_map"].get_object().get(map))
        fail(where, "'weight_map' is missing or not an object of tensor name -> shard file");
    SafetensorsCount c;
    if (!top["metadata"].get_object().get(meta)) {
        dom::element total;
        if (!meta["total_size"].get(total)) c.declaredTotalSize = nonNegative(total, where, "'metadata.total_size'");
    }
    std::map<std::string, std::set<std::string>> byShard; // shard file -> tensor names
    for (auto [k, v] : map) {
        std::string_view file;
        if (v.get_string().get(file)) fail(where, "'weight_map." + std::string(k) + "' must be a shard file name");
        const std::string shard(file);
        if (shard.empty() || shard.find('/') != std::string::npos || shard.find('\\') != std::string::npos || shard == "." ||
            shard == "..")
            fail(where, "'weight_map." + std::string(k) + "': '" + shard + "' is not a file name beside the index");
        if (!byShard[shard].insert(std::string(k)).second) fail(where, "tensor '" + std::string(k) + "' appears twice");
    }
    for (const auto& [shard, tensors] : byShard) {
        const std::filesystem::path shardPath = std::filesystem::path(folder) / shard;
        std::error_code ec;
        if (folder.empty() || !std::filesystem::is_regular_file(shardPath, ec)) {
            ++c.shardsMissing;
            continue;
        }
        std::int64_t fileSize = 0;
        const std::string prefix = readPrefix(shardPath.string(), fileSize);
        std::set<std::string> inHeader;
        SafetensorsCount s = readHeader(prefix, fileSize, shardPath.string(), &inHeader);
        // Every tensor the index puts in this shard must be in its header, and nothing else.
        for (const std::string& t : tensors)
            if (!inHeader.count(t)) fail(where, "'weight_map." + t + "' names shard '" + shard + "', whose header lacks it");
        for (const std::string& t : inHeader)
            if (!tensors.count(t)) fail(where, "shard '" + shard + "' holds tensor '" + t + "', which the weight_map does not name");
        ++c.shardsRead;
        c.tensors += s.tensors;
        c.elements += s.elements;
        c.bufferElements += s.bufferElements;
        c.dataBytes += s.dataBytes;
        for (const auto& [d, e] : s.elementsByDtype) c.elementsByDtype[d] += e;
        if (s.largestTensorElements > c.largestTensorElements) {
            c.largestTensorElements = s.largestTensorElements;
            c.largestTensor = s.largestTensor;
        }
        c.dataPresent = c.dataPresent && s.dataPresent;
    }
    c.parameterCount = c.elements - c.bufferElements;
    if (c.shardsMissing) {
        c.warnings.push_back(where + ": " + std::to_string(c.shardsMissing) + " of " + std::to_string(byShard.size()) +
                             " shard(s) are not beside the index: the counts are of the shards that are");
    } else if (c.declaredTotalSize >= 0 && c.declaredTotalSize != c.dataBytes) {
        c.warnings.push_back(where + ": metadata.total_size is " + std::to_string(c.declaredTotalSize) +
                             " but the shards' headers describe " + std::to_string(c.dataBytes) + " bytes");
    }
    return c;
}

SafetensorsCount readSafetensors(const std::string& path) {
    const bool index = path.size() >= 5 && path.compare(path.size() - 5, 5, ".json") == 0;
    if (!index) return readSafetensorsFile(path);
    std::ifstream in(path, std::ios::binary);
    if (!in) throw SafetensorsError(path + ": cannot open the file");
    std::ostringstream text;
    text << in.rdbuf();
    const std::string json = text.str();
    if (json.size() > static_cast<std::size_t>(kMaxSafetensorsHeaderBytes))
        throw SafetensorsError(path + ": an index of " + std::to_string(json.size()) + " bytes is over the 100 MB limit");
    return readSafetensorsIndex(json, path, std::filesystem::path(path).parent_path().string());
}

} // namespace memviz::costmodel

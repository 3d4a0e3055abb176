// SPDX-License-Identifier: MIT
#include "costmodel/GpuCatalog.h"

#include <simdjson.h>

#include <algorithm>
#include <cctype>
#include <fstream>
#include <sstream>

#include "costmodel/CostModel.h"
#include "costmodel/OptionNames.h"
#include "io/JsonError.h"

namespace memviz::costmodel {

namespace {

constexpr std::int64_t MiB = std::int64_t{1} << 20;
constexpr std::int64_t GiB = std::int64_t{1} << 30;

std::int64_t sizeValue(simdjson::dom::element e, const std::string& where, const std::string& key) {
    std::int64_t v = 0;
    std::string_view text;
    if (!e.get_int64().get(v)) {
        if (v < 1) throw GpuCatalogError(where + ": '" + key + "' must be positive, got " + std::to_string(v));
        return v;
    }
    if (!e.get_string().get(text)) {
        try {
            v = parseByteSize(std::string(text));
        } catch (const std::invalid_argument& err) {
            throw GpuCatalogError(where + ": '" + key + "': " + err.what());
        }
        if (v < 1) throw GpuCatalogError(where + ": '" + key + "' must be positive");
        return v;
    }
    throw GpuCatalogError(where + ": '" + key + "' must be a size in bytes or a text such as \"24GiB\", got " +
                          simdjson::to_string(e));
}

} // namespace

std::string normalizeGpuId(std::string_view text) {
    std::string s;
    for (const char c : text) {
        const auto u = static_cast<unsigned char>(c);
        if (c == ' ' || c == '_') s += '-';
        else s += static_cast<char>(std::tolower(u));
    }
    // "80gb" -> "80g" at a word's end
    std::string out;
    for (std::size_t i = 0; i < s.size(); ++i) {
        if (s[i] == 'g' && i + 1 < s.size() && s[i + 1] == 'b' && i > 0 && std::isdigit(static_cast<unsigned char>(s[i - 1])) &&
            (i + 2 == s.size() || s[i + 2] == '-')) {
            out += 'g';
            ++i;
            continue;
        }
        out += s[i];
    }
    return out;
}

GpuCatalog GpuCatalog::builtin() {
    GpuCatalog c;
    const std::int64_t ctx = kDefaultCudaContextBytes;
    const char* smi = "nvidia-smi's total";
    c.gpus_ = {
        {"t4", "NVIDIA T4 16GB", 15360 * MiB, ctx, smi},
        {"v100-16g", "NVIDIA V100 16GB", 16 * GiB, ctx, "nominal"},
        {"v100-32g", "NVIDIA V100 32GB", 32 * GiB, ctx, "nominal"},
        {"l4", "NVIDIA L4 24GB", 23034 * MiB, ctx, smi},
        {"a10g", "NVIDIA A10G 24GB (AWS)", 23028 * MiB, ctx, smi},
        {"rtx-3090", "NVIDIA GeForce RTX 3090 24GB", 24576 * MiB, ctx, smi},
        {"rtx-4090", "NVIDIA GeForce RTX 4090 24GB", 24564 * MiB, ctx, smi},
        {"a100-40g", "NVIDIA A100 40GB (SXM4)", 40960 * MiB, ctx, smi},
        {"l40s", "NVIDIA L40S 48GB", 46068 * MiB, ctx, smi},
        {"rtx-a6000", "NVIDIA RTX A6000 48GB", 48 * GiB, ctx, "nominal"},
        {"a100-80g", "NVIDIA A100 80GB", 81920 * MiB, ctx, smi},
        {"h100-80g", "NVIDIA H100 80GB", 81559 * MiB, ctx, smi},
        {"h200", "NVIDIA H200 141GB", 143771 * MiB, ctx, smi},
        {"mi300x", "AMD Instinct MI300X 192GB", 192 * GiB, ctx, "nominal"},
    };
    c.sort();
    return c;
}

void GpuCatalog::sort() {
    std::stable_sort(gpus_.begin(), gpus_.end(), [](const GpuInfo& a, const GpuInfo& b) {
        return a.memoryBytes != b.memoryBytes ? a.memoryBytes < b.memoryBytes : a.id < b.id;
    });
}

void GpuCatalog::merge(std::string_view json, const std::string& where) {
    namespace dom = simdjson::dom;
    dom::parser parser;
    const simdjson::padded_string padded(json);
    dom::element root;
    if (const auto error = parser.parse(padded).get(root)) throw GpuCatalogError(describeJsonError(where, json, nullptr, error));
    dom::array list;
    if (root["gpus"].get_array().get(list)) throw GpuCatalogError(where + ": 'gpus' is missing or not a list");
    std::size_t index = 0;
    for (dom::element e : list) {
        const std::string at = where + ": gpus[" + std::to_string(index++) + "]";
        dom::object o;
        if (e.get_object().get(o)) throw GpuCatalogError(at + " must be an object");
        std::string_view id, name;
        if (o["id"].get_string().get(id) || normalizeGpuId(id).empty()) throw GpuCatalogError(at + ": 'id' is missing or not a string");
        for (auto [key, value] : o)
            if (key != "id" && key != "name" && key != "memory" && key != "cuda_context")
                throw GpuCatalogError(at + ": unknown key '" + std::string(key) + "' (known: id, name, memory, cuda_context)");
        const std::string nid = normalizeGpuId(id);
        auto it = std::find_if(gpus_.begin(), gpus_.end(), [&](const GpuInfo& g) { return g.id == nid; });
        GpuInfo g = it != gpus_.end() ? *it : GpuInfo{nid, std::string(id), 0, kDefaultCudaContextBytes, where};
        g.source = where;
        dom::element v;
        if (!o["name"].get(v)) {
            if (v.get_string().get(name)) throw GpuCatalogError(at + ": 'name' must be a string");
            g.name = std::string(name);
        }
        if (!o["memory"].get(v)) g.memoryBytes = sizeValue(v, at, "memory");
        else if (it == gpus_.end()) throw GpuCatalogError(at + ": 'memory' is missing for the new GPU '" + nid + "'");
        if (!o["cuda_context"].get(v)) {
            std::int64_t zero = 0;
            g.contextBytes = !v.get_int64().get(zero) && zero == 0 ? 0 : sizeValue(v, at, "cuda_context");
        }
        if (it != gpus_.end()) *it = g;
        else gpus_.push_back(g);
    }
    sort();
}

void GpuCatalog::mergeFile(const std::string& path) {
    std::ifstream in(path, std::ios::binary);
    if (!in) throw GpuCatalogError(path + ": cannot open the file");
    std::ostringstream text;
    text << in.rdbuf();
    merge(text.str(), path);
}

const GpuInfo* GpuCatalog::find(std::string_view id) const {
    const std::string nid = normalizeGpuId(id);
    for (const GpuInfo& g : gpus_)
        if (g.id == nid) return &g;
    return nullptr;
}

std::string GpuCatalog::knownIds() const {
    std::string s;
    for (const GpuInfo& g : gpus_) s += (s.empty() ? "" : ", ") + g.id;
    return s;
}

} // namespace memviz::costmodel

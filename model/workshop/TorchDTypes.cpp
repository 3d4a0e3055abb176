// SPDX-License-Identifier: MIT
#include "workshop/TorchDTypes.h"

#include <algorithm>
#include <cctype>

namespace memviz::workshop {

const std::vector<TorchDType>& torchDTypes() {
    static const std::vector<TorchDType> types = {
        {"float32", "float", 4, true},  {"float16", "half", 2, true},     {"bfloat16", "", 2, true},
        {"float64", "double", 8, true}, {"int64", "long", 8, false},      {"int32", "int", 4, false},
        {"int16", "short", 2, false},   {"int8", "", 1, false},           {"uint8", "", 1, false},
        {"bool", "", 1, false},         {"complex64", "cfloat", 8, true},
    };
    return types;
}

namespace {

std::string lower(std::string_view s) {
    std::string out(s);
    std::transform(out.begin(), out.end(), out.begin(), [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
    return out;
}

} // namespace

std::optional<TorchDType> findTorchDType(std::string_view word) {
    std::string w = lower(word);
    if (w.rfind("torch.", 0) == 0) w.erase(0, 6);
    // The short names people type in papers and configs.
    static const std::pair<const char*, const char*> shorthands[] = {
        {"fp32", "float32"}, {"fp16", "float16"}, {"bf16", "bfloat16"}, {"fp64", "float64"},
        {"f32", "float32"},  {"f16", "float16"},  {"f64", "float64"},   {"i64", "int64"},
        {"i32", "int32"},    {"i8", "int8"},      {"u8", "uint8"},
    };
    for (const auto& [from, to] : shorthands)
        if (w == from) w = to;
    for (const TorchDType& t : torchDTypes())
        if (w == t.name || (*t.alias && w == t.alias)) return t;
    return std::nullopt;
}

} // namespace memviz::workshop

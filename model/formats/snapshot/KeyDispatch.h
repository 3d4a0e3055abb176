// SPDX-License-Identifier: MIT
#pragma once
// Maps the str keys (or enum-like str values) of a pickle to small enums quickly. Python's
// pickler memoises strings, so the thousands of trace entries of a snapshot share a handful
// of key objects: they are recognised by their position in the pickle first and compared as
// text only the first time.
#include <array>
#include <cstdint>
#include <string_view>
#include <utility>
#include <vector>

#include "pickle/PickleValue.h"

namespace memviz::snapshot {

template <typename E, std::size_t N>
class KeyDispatch {
public:
    constexpr KeyDispatch(std::array<std::pair<std::string_view, E>, N> names, E unknown) : names_(names), unknown_(unknown) {}

    // `unknown` for anything that is not one of the names (or not a str).
    E operator()(const pickle::Document& doc, const pickle::Value& v) {
        if (v.kind != pickle::Kind::Str) return unknown_;
        for (const auto& [offset, e] : cache_)
            if (offset == v.payload) return e;
        const std::string_view text = doc.text(v);
        E found = unknown_;
        for (const auto& [name, e] : names_)
            if (name == text) {
                found = e;
                break;
            }
        if (cache_.size() < kCacheSize) cache_.emplace_back(v.payload, found);
        return found;
    }

private:
    static constexpr std::size_t kCacheSize = 32;
    std::array<std::pair<std::string_view, E>, N> names_;
    E unknown_;
    std::vector<std::pair<std::int64_t, E>> cache_;
};

} // namespace memviz::snapshot

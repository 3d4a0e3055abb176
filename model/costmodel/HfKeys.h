// SPDX-License-Identifier: MIT
#pragma once
// The reading helpers of the Hugging Face config reader (HfConfig.cpp, HfFamilies.cpp,
// HfParams.cpp): a config object's keys read with errors that name the key, and parameter
// arithmetic that refuses absurd sizes instead of overflowing. Internal to model/costmodel.
#include <simdjson.h>

#include <cstdint>
#include <initializer_list>
#include <optional>
#include <string>
#include <string_view>

#include "costmodel/HfConfig.h"

namespace memviz::costmodel::hf {

namespace dom = simdjson::dom;

inline constexpr std::int64_t kLimit = std::int64_t{1} << 48; // no real model has 2^48 parameters

// The config's keys, read with errors that name them.
class Keys {
public:
    Keys(dom::object o, std::string where, std::string prefix = {}) : o_(o), where_(std::move(where)), prefix_(std::move(prefix)) {}
    [[noreturn]] void fail(std::string_view key, const std::string& what) const {
        throw HfConfigError(where_ + ": '" + prefix_ + std::string(key) + "': " + what);
    }
    std::optional<dom::element> find(std::string_view key) const {
        dom::element e;
        if (o_[key].get(e) || e.is_null()) return std::nullopt;
        return e;
    }
    std::int64_t integer(std::string_view key, std::optional<std::int64_t> fallback = std::nullopt,
                         std::int64_t min = 1) const {
        const auto e = find(key);
        if (!e) {
            if (fallback) return *fallback;
            fail(key, "missing");
        }
        std::int64_t v = 0;
        double d = 0;
        if (e->get_int64().get(v)) {
            if (!e->get_double().get(d)) {
                if (d > static_cast<double>(kLimit)) fail(key, simdjson::to_string(*e) + " is absurd (more than 2^48)");
                fail(key, "must be an integer, got " + simdjson::to_string(*e));
            }
            std::uint64_t u = 0;
            if (!e->get_uint64().get(u)) fail(key, std::to_string(u) + " is absurd (more than 2^48)");
            fail(key, "must be an integer, got " + simdjson::to_string(*e));
        }
        if (v < min) fail(key, "must be at least " + std::to_string(min) + ", got " + std::to_string(v));
        if (v > kLimit) fail(key, std::to_string(v) + " is absurd (more than 2^48)");
        return v;
    }
    bool boolean(std::string_view key, bool fallback) const {
        const auto e = find(key);
        if (!e) return fallback;
        bool b = false;
        if (e->get_bool().get(b)) fail(key, "must be true or false, got " + simdjson::to_string(*e));
        return b;
    }
    double probability(std::string_view key, double fallback) const {
        const auto e = find(key);
        if (!e) return fallback;
        double d = 0;
        if (e->get_double().get(d) || !(d >= 0 && d <= 1)) fail(key, "must be a number from 0 to 1, got " + simdjson::to_string(*e));
        return d;
    }
    std::string text(std::string_view key, const std::string& fallback) const {
        const auto e = find(key);
        if (!e) return fallback;
        std::string_view s;
        if (e->get_string().get(s)) fail(key, "must be a string, got " + simdjson::to_string(*e));
        return std::string(s);
    }
    // Entries of an object (id2label), -1 when absent.
    std::int64_t objectSize(std::string_view key) const {
        const auto e = find(key);
        if (!e) return -1;
        dom::object o;
        if (e->get_object().get(o)) fail(key, "must be an object, got " + simdjson::to_string(*e));
        return static_cast<std::int64_t>(o.size());
    }
    bool has(std::string_view key) const { return find(key).has_value(); }
    // The first of `keys` the config has (the same knob is spelt differently across families).
    std::string_view firstOf(std::initializer_list<std::string_view> keys) const {
        for (std::string_view key : keys)
            if (has(key)) return key;
        return *keys.begin();
    }
    std::int64_t integerOf(std::initializer_list<std::string_view> keys, std::optional<std::int64_t> fallback = std::nullopt,
                           std::int64_t min = 1) const {
        return integer(firstOf(keys), fallback, min);
    }
    double real(std::string_view key, double fallback, double min, double max) const {
        const auto e = find(key);
        if (!e) return fallback;
        double d = 0;
        if (e->get_double().get(d) || !(d >= min && d <= max))
            fail(key, "must be a number from " + std::to_string(min) + " to " + std::to_string(max) + ", got " + simdjson::to_string(*e));
        return d;
    }
    // A nested object (CLIP's text_config), with messages naming "text_config.hidden_size".
    std::optional<Keys> object(std::string_view key) const {
        const auto e = find(key);
        if (!e) return std::nullopt;
        dom::object o;
        if (e->get_object().get(o)) fail(key, "must be an object, got " + simdjson::to_string(*e));
        return Keys(o, where_, prefix_ + std::string(key) + ".");
    }
    const std::string& where() const { return where_; }

private:
    dom::object o_;
    std::string where_;
    std::string prefix_;
};

// Parameter arithmetic that refuses absurd models instead of overflowing.
struct Count {
    const Keys& keys;
    std::int64_t mul(std::int64_t a, std::int64_t b, std::string_view key) const {
        if (a != 0 && b > kLimit / a) keys.fail(key, "gives a weight of more than 2^48 elements: not a real model");
        return a * b;
    }
    std::int64_t add(std::int64_t a, std::int64_t b, std::string_view key) const {
        if (a > kLimit - b) keys.fail(key, "gives more than 2^48 parameters: not a real model");
        return a + b;
    }
};

// Refuses a configuration whose `key` does not divide `ofKey`, naming both.
inline void requireDivides(const Keys& k, std::string_view key, std::int64_t divisor, std::string_view ofKey, std::int64_t dividend) {
    if (dividend % divisor)
        k.fail(key, std::to_string(divisor) + " does not divide " + std::string(ofKey) + " " + std::to_string(dividend));
}


} // namespace memviz::costmodel::hf

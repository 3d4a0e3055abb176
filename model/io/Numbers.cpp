// SPDX-License-Identifier: MIT
#include "io/Numbers.h"

#include <charconv>
#include <cmath>

namespace memviz {

std::optional<std::int64_t> parseInt64(std::string_view s) {
    if (!s.empty() && s.front() == '+') s.remove_prefix(1);
    if (s.empty()) return std::nullopt;
    std::int64_t v = 0;
    const auto [p, ec] = std::from_chars(s.data(), s.data() + s.size(), v, 10);
    if (ec != std::errc() || p != s.data() + s.size()) return std::nullopt;
    return v;
}

std::optional<std::uint64_t> parseHex(std::string_view s) {
    if (s.empty() || s.size() > 16) return std::nullopt;
    std::uint64_t v = 0;
    const auto [p, ec] = std::from_chars(s.data(), s.data() + s.size(), v, 16);
    if (ec != std::errc() || p != s.data() + s.size()) return std::nullopt;
    return v;
}

std::optional<std::int64_t> parseAddress(std::string_view s) {
    if (s.size() > 2 && s[0] == '0' && (s[1] == 'x' || s[1] == 'X')) {
        const auto v = parseHex(s.substr(2));
        if (!v) return std::nullopt;
        return static_cast<std::int64_t>(*v);
    }
    if (s.empty()) return std::nullopt;
    std::uint64_t v = 0;
    const auto [p, ec] = std::from_chars(s.data(), s.data() + s.size(), v, 10);
    if (ec != std::errc() || p != s.data() + s.size()) return std::nullopt;
    return static_cast<std::int64_t>(v);
}

std::optional<std::int64_t> parseTimeNs(std::string_view s, std::int64_t nsPerUnit) {
    if (s.find_first_of(".eE") == std::string_view::npos) {
        const auto v = parseInt64(s);
        if (!v) return std::nullopt;
        std::int64_t ns = 0;
        if (__builtin_mul_overflow(*v, nsPerUnit, &ns)) return std::nullopt;
        return ns;
    }
    if (!s.empty() && s.front() == '+') s.remove_prefix(1);
    double d = 0;
    const auto [p, ec] = std::from_chars(s.data(), s.data() + s.size(), d);
    if (ec != std::errc() || p != s.data() + s.size() || !std::isfinite(d)) return std::nullopt;
    const double ns = std::round(d * static_cast<double>(nsPerUnit));
    if (!(std::fabs(ns) < 9.2e18)) return std::nullopt;
    return static_cast<std::int64_t>(ns);
}

std::optional<std::int64_t> timeUnitNs(std::string_view unit) {
    if (unit == "ns") return 1;
    if (unit == "us") return 1000;
    if (unit == "ms") return 1000000;
    if (unit == "s") return 1000000000;
    return std::nullopt;
}

} // namespace memviz

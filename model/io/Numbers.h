// SPDX-License-Identifier: MIT
#pragma once
// Strict number parsing for text formats: the whole field must be the number.
#include <cstdint>
#include <optional>
#include <string_view>

namespace memviz {

// Decimal integer with optional sign; nullopt on junk or overflow.
std::optional<std::int64_t> parseInt64(std::string_view s);
// "0x7f00..." (hex, up to 64 bits) or an unsigned decimal; returns the unsigned bit pattern.
std::optional<std::int64_t> parseAddress(std::string_view s);
// Lowercase/uppercase hex without prefix, up to 64 bits (heaptrack-style numbers).
std::optional<std::uint64_t> parseHex(std::string_view s);
// A time in some unit (integer or decimal, e.g. "12.5") converted to nanoseconds, rounded;
// nullopt on junk or when it does not fit in int64 nanoseconds.
std::optional<std::int64_t> parseTimeNs(std::string_view s, std::int64_t nsPerUnit);
// Nanoseconds per unit for "ns", "us", "ms", "s"; nullopt for anything else.
std::optional<std::int64_t> timeUnitNs(std::string_view unit);

} // namespace memviz

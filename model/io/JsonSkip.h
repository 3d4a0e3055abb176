// SPDX-License-Identifier: MIT
#pragma once
// Finding where a JSON object or array ends without parsing it: the step that splits a huge
// event array into whole events. Strings are skipped (with their escapes), brackets counted.
// 64 bytes at a time with SSE2 (AVX2 where the processor has it) bit masks (quotes, backslashes, brackets; the inside of
// strings from a prefix XOR of the quotes), byte by byte only in blocks with a backslash.
#include <cstddef>

namespace memviz {

// Containers nested deeper than this are refused (simdjson's own default limit): a real trace
// nests a few levels, a damaged or hostile one can nest 100,000.
inline constexpr int kMaxJsonDepth = 1024;
// What skipJsonContainer returns for a container nested deeper than kMaxJsonDepth.
inline constexpr std::size_t kJsonTooDeep = ~std::size_t{0};

// One past the '}' or ']' that closes the container opening at data[from] ('{' or '['), 0
// when data[0, size) ends first, or kJsonTooDeep when the nesting passes kMaxJsonDepth first.
// At least 64 readable bytes must follow data[size - 1] (they are never taken as part of the
// value).
std::size_t skipJsonContainer(const char* data, std::size_t from, std::size_t size);

} // namespace memviz

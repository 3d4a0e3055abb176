#pragma once
// Finding where a JSON object or array ends without parsing it: the step that splits a huge
// event array into whole events. Strings are skipped (with their escapes), brackets counted.
// 64 bytes at a time with SSE2 bit masks (quotes, backslashes, brackets; the inside of
// strings from a prefix XOR of the quotes), byte by byte only in blocks with a backslash.
#include <cstddef>

namespace memviz {

// One past the '}' or ']' that closes the container opening at data[from] ('{' or '['), or 0
// when data[0, size) ends first. At least 64 readable bytes must follow data[size - 1] (they
// are never taken as part of the value).
std::size_t skipJsonContainer(const char* data, std::size_t from, std::size_t size);

} // namespace memviz

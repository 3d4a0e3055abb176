// SPDX-License-Identifier: MIT
#pragma once
// UTF-8 validation for binary formats that carry text (pickle strings), and for naming the
// byte where a JSON file stops being UTF-8.
#include <cstddef>
#include <string_view>

namespace memviz {

// True when `s` is well-formed UTF-8 (no overlong forms, nothing above U+10FFFF). With
// allowSurrogates, encoded UTF-16 surrogates (U+D800..U+DFFF) pass too, as Python's pickle
// writes them ('surrogatepass').
bool isValidUtf8(std::string_view s, bool allowSurrogates = false);

// Offset of the first byte of the first ill-formed sequence; s.size() when `s` is well-formed.
std::size_t firstInvalidUtf8(std::string_view s, bool allowSurrogates = false);

} // namespace memviz

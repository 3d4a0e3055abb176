#pragma once
// UTF-8 validation for binary formats that carry text (pickle strings).
#include <string_view>

namespace memviz {

// True when `s` is well-formed UTF-8 (no overlong forms, nothing above U+10FFFF). With
// allowSurrogates, encoded UTF-16 surrogates (U+D800..U+DFFF) pass too, as Python's pickle
// writes them ('surrogatepass').
bool isValidUtf8(std::string_view s, bool allowSurrogates = false);

} // namespace memviz

// SPDX-License-Identifier: MIT
#pragma once
// Escaping text for XML and HTML (the JUnit output of `memviz check`, the HTML report).
#include <string>
#include <string_view>

namespace memviz {

// &, <, >, " and ' as entities; control characters other than tab and newline dropped (XML 1.0
// cannot carry them); invalid UTF-8 is left to the caller (names come from the store, UTF-8).
std::string escapeMarkup(std::string_view text);

} // namespace memviz

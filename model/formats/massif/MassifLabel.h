// SPDX-License-Identifier: MIT
#pragma once
// The label of a massif heap-tree node, split into its parts:
//   "(heap allocation functions) malloc/new/new[], --alloc-fns, etc."   the root
//   "0x4005D4: main (prog.c:12)"                                         code, with file:line
//   "0x4E5B1B0: ??? (in /usr/lib/libstdc++.so.6)"                         code, with a module
//   "in 3 places, all below massif's threshold (1.00%)"                  aggregated small entries
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace memviz {

struct MassifLabel {
    enum class Kind { Root, Code, BelowThreshold, Other };
    Kind kind = Kind::Other;
    std::optional<std::int64_t> address;
    std::string function;    // for code; "???" when massif did not know it
    std::string location;    // what the trailing parentheses hold: "prog.c:12" or "in /lib/x.so"
    std::int64_t places = 0; // for BelowThreshold
};

MassifLabel parseMassifLabel(std::string_view label);

} // namespace memviz

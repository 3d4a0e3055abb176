// SPDX-License-Identifier: MIT
#pragma once
// A budgets file kept in the repository (`memviz check --budgets memviz-budgets.json`): JSON
// whose keys are the command line's options and whose values are what those options take, one
// string (or a whole number of bytes) or an array of them:
//   {"max-peak": ["cuda:0=12GiB"], "max-growth": "5%",
//    "max": ["category=activation:4GiB", "op=aten::mm:1GiB"], "max-leaked": 0}
// JSON only: no TOML parser is in Debian's C++ libraries the project already uses, and a second
// syntax for four keys is not worth a parser of our own.
#include <string>
#include <string_view>
#include <vector>

#include "budget/Budget.h"

namespace memviz {

// Throws BudgetError naming `fileName` and the byte offset (malformed JSON) or the key and
// index (unknown key, wrong type, bad budget).
std::vector<Budget> parseBudgetFile(std::string_view json, const std::string& fileName);

} // namespace memviz

// SPDX-License-Identifier: MIT
#pragma once
// `memviz check --junit FILE`: the results as JUnit XML, one <testcase> per budget (a
// <failure> naming each device, category, operator or site over it), so CI systems show a
// budget as a test.
#include <string>
#include <vector>

#include "budget/BudgetCheck.h"

namespace memviz {

// `suite`: the testsuite's name ("memviz check FILE").
std::string budgetJUnit(const std::vector<BudgetResult>& results, const std::string& suite);
// One measure as a line: "cuda:0: 12.50 GiB > 12.00 GiB (baseline 11.00 GiB)".
std::string measureText(const BudgetMeasure& m);

} // namespace memviz

// SPDX-License-Identifier: MIT
#pragma once
// Budgets checked against a trace's figures (TraceFacts.h), and its baseline's for growth:
// one result per budget, with one measure per device, category, operator or site it covers.
// Plain functions over plain structs, tested without a store (tst_budget).
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "budget/Budget.h"
#include "budget/TraceFacts.h"

namespace memviz {

struct BudgetMeasure {
    std::string subject;  // "cuda:0", "aten::mm", "activation on cuda:0", a site's label
    std::int64_t value = 0;
    std::int64_t limit = 0;                // bytes (growth: the largest allowed peak)
    std::optional<std::int64_t> baseline;  // growth: the baseline's peak
    bool over = false;
};

struct BudgetResult {
    Budget budget;
    std::string what; // what was measured: "peak of live bytes", ...
    std::vector<BudgetMeasure> measures;
    bool passed() const;
};

// Throws BudgetError for what cannot be checked (exit 2 in `memviz check`): no budgets, an
// empty trace, a growth budget without baseline, a baseline whose devices differ, a device,
// category or operator the trace does not have, a category budget on a format without
// categories, a site budget on a format without sites, a site pattern that matches nothing.
std::vector<BudgetResult> checkBudgets(const std::vector<Budget>& budgets, const TraceFacts& trace,
                                       const TraceFacts* baseline);

// Glob match (* and ?), used for site patterns.
bool globMatch(const std::string& pattern, const std::string& text);

} // namespace memviz

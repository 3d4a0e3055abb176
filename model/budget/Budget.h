// SPDX-License-Identifier: MIT
#pragma once
// Memory budgets for `memviz check` (docs/cli.md, "check"): what a budget says and how it is
// written, on the command line (`--max-peak cuda:0=12GiB`, `--max-growth 5%`,
// `--max category=activation:4GiB`, `--max op=aten::mm:1GiB`, `--max site=parse*:1GiB`,
// `--max-leaked 0`) and in a budgets file (BudgetFile.h). Parsing only; BudgetCheck.h
// evaluates them against a trace.
#include <cstdint>
#include <stdexcept>
#include <string>

namespace memviz {

enum class BudgetKind { Peak, Growth, Category, Op, Site, Leaked };

// A budget that cannot be read or cannot be checked against the trace given (unknown unit,
// missing baseline, a category the format does not have, ...): a usage or input error, never
// a pass.
class BudgetError : public std::runtime_error {
public:
    using std::runtime_error::runtime_error;
};

struct Budget {
    BudgetKind kind = BudgetKind::Peak;
    std::string device;      // Peak, Growth, Leaked: that device only ("" = every device)
    std::string name;        // Category: its name; Op: the operator; Site: a glob (*, ?)
    std::int64_t maxBytes = 0; // every kind but Growth
    double maxPercent = 0;     // Growth: peak over the baseline's peak, in percent
    std::string value;       // as written after the option, for messages: "cuda:0=12GiB"
};

// The option a kind is written with: "max-peak", "max-growth", "max", "max-leaked".
const char* budgetOption(BudgetKind kind);
// "--max-peak cuda:0=12GiB": the budget as the command line writes it.
std::string budgetText(const Budget& b);
// A short name for reports and JUnit test cases: "peak cuda:0", "op aten::mm", "growth".
std::string budgetName(const Budget& b);

// One --max-peak / --max-growth / --max-leaked value ([DEVICE=]SIZE, [DEVICE=]N%).
// Throws BudgetError naming `where` and the text.
Budget parseBudget(BudgetKind kind, const std::string& value, const std::string& where);
// One --max value: category=NAME:SIZE, op=NAME:SIZE or site=PATTERN:SIZE (the size follows the
// last ':', so operator names with "::" need no quoting).
Budget parseMaxBudget(const std::string& value, const std::string& where);

} // namespace memviz

// SPDX-License-Identifier: MIT
// The budgets file (see BudgetFile.h).
#include "budget/BudgetFile.h"

#include <simdjson.h>

namespace memviz {

namespace {

namespace dom = simdjson::dom;

// One value: a string, or a whole number of bytes for sizes.
std::string valueText(dom::element e, const std::string& where) {
    std::string_view s;
    if (e.get_string().get(s) == simdjson::SUCCESS) return std::string(s);
    std::int64_t n = 0;
    if (e.get_int64().get(n) == simdjson::SUCCESS) return std::to_string(n);
    std::uint64_t u = 0;
    if (e.get_uint64().get(u) == simdjson::SUCCESS) return std::to_string(u);
    throw BudgetError(where + ": expected a string such as \"12GiB\" or a whole number of bytes");
}

} // namespace

std::vector<Budget> parseBudgetFile(std::string_view json, const std::string& fileName) {
    dom::parser parser;
    simdjson::padded_string padded(json);
    dom::element root;
    if (auto error = parser.parse(padded).get(root))
        throw BudgetError(fileName + ": not valid JSON (" + simdjson::error_message(error) + ")");
    dom::object top;
    if (root.get_object().get(top) != simdjson::SUCCESS)
        throw BudgetError(fileName + ": expected a JSON object with keys max-peak, max-growth, max, max-leaked");
    std::vector<Budget> out;
    for (const auto field : top) {
        const std::string key(field.key);
        const std::string where = fileName + ": " + key;
        auto one = [&](dom::element e, const std::string& at) {
            const std::string text = valueText(e, at);
            if (key == "max-peak") out.push_back(parseBudget(BudgetKind::Peak, text, at));
            else if (key == "max-growth") out.push_back(parseBudget(BudgetKind::Growth, text, at));
            else if (key == "max-leaked") out.push_back(parseBudget(BudgetKind::Leaked, text, at));
            else out.push_back(parseMaxBudget(text, at));
        };
        if (key != "max-peak" && key != "max-growth" && key != "max-leaked" && key != "max")
            throw BudgetError(where + ": unknown key (use max-peak, max-growth, max, max-leaked)");
        dom::array items;
        if (field.value.get_array().get(items) == simdjson::SUCCESS) {
            std::size_t i = 0;
            for (const dom::element e : items) one(e, where + "[" + std::to_string(i++) + "]");
        } else {
            one(field.value, where);
        }
    }
    return out;
}

} // namespace memviz

// SPDX-License-Identifier: MIT
// Reading the budgets' words (see Budget.h).
#include "budget/Budget.h"

#include <cmath>

#include "words/Units.h"

namespace memviz {

namespace {

std::int64_t sizeOf(const std::string& text, const std::string& where, const std::string& whole) {
    try {
        return parseByteSize(text);
    } catch (const std::invalid_argument& e) {
        throw BudgetError(where + " \"" + whole + "\": " + e.what());
    }
}

// "[DEVICE=]REST" -> (DEVICE, REST).
std::pair<std::string, std::string> splitDevice(const std::string& value) {
    const std::size_t eq = value.find('=');
    if (eq == std::string::npos) return {"", value};
    return {value.substr(0, eq), value.substr(eq + 1)};
}

} // namespace

const char* budgetOption(BudgetKind kind) {
    switch (kind) {
    case BudgetKind::Peak: return "max-peak";
    case BudgetKind::Growth: return "max-growth";
    case BudgetKind::Leaked: return "max-leaked";
    case BudgetKind::Category:
    case BudgetKind::Op:
    case BudgetKind::Site: return "max";
    }
    return "max";
}

std::string budgetText(const Budget& b) { return std::string("--") + budgetOption(b.kind) + " " + b.value; }

std::string budgetName(const Budget& b) {
    auto withDevice = [&](const char* word) { return b.device.empty() ? std::string(word) : std::string(word) + " " + b.device; };
    switch (b.kind) {
    case BudgetKind::Peak: return withDevice("peak");
    case BudgetKind::Growth: return withDevice("growth");
    case BudgetKind::Leaked: return withDevice("leaked");
    case BudgetKind::Category: return "category " + b.name;
    case BudgetKind::Op: return "op " + b.name;
    case BudgetKind::Site: return "site " + b.name;
    }
    return b.value;
}

Budget parseBudget(BudgetKind kind, const std::string& value, const std::string& where) {
    Budget b;
    b.kind = kind;
    b.value = value;
    auto [device, rest] = splitDevice(value);
    if (value.find('=') != std::string::npos && device.empty())
        throw BudgetError(where + " \"" + value + "\": the device before '=' is empty");
    b.device = device;
    if (kind == BudgetKind::Growth) {
        std::string number = rest;
        if (!number.empty() && number.back() == '%') number.pop_back();
        else throw BudgetError(where + " \"" + value + "\": a growth is a percentage such as 5%");
        std::size_t used = 0;
        double pct = -1;
        try {
            pct = std::stod(number, &used);
        } catch (const std::exception&) {
            used = 0;
        }
        if (used == 0 || used != number.size() || !(pct >= 0) || !std::isfinite(pct))
            throw BudgetError(where + " \"" + value + "\": a growth is a percentage >= 0 such as 5%");
        b.maxPercent = pct;
        return b;
    }
    if (kind != BudgetKind::Peak && kind != BudgetKind::Leaked)
        throw BudgetError(where + ": categories, operators and sites are budgeted with --max KIND=NAME:SIZE");
    b.maxBytes = sizeOf(rest, where, value);
    return b;
}

Budget parseMaxBudget(const std::string& value, const std::string& where) {
    const std::size_t eq = value.find('=');
    const std::size_t colon = value.rfind(':');
    if (eq == std::string::npos || colon == std::string::npos || colon < eq)
        throw BudgetError(where + " \"" + value + "\": expected category=NAME:SIZE, op=NAME:SIZE or site=PATTERN:SIZE");
    const std::string kind = value.substr(0, eq);
    Budget b;
    b.value = value;
    if (kind == "category") b.kind = BudgetKind::Category;
    else if (kind == "op") b.kind = BudgetKind::Op;
    else if (kind == "site") b.kind = BudgetKind::Site;
    else
        throw BudgetError(where + " \"" + value + "\": unknown budget kind \"" + kind + "\" (use category, op or site)");
    b.name = value.substr(eq + 1, colon - eq - 1);
    if (b.name.empty()) throw BudgetError(where + " \"" + value + "\": the " + kind + " name is empty");
    b.maxBytes = sizeOf(value.substr(colon + 1), where, value);
    return b;
}

} // namespace memviz

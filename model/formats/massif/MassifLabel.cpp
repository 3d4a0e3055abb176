// SPDX-License-Identifier: MIT
#include "formats/massif/MassifLabel.h"

#include "io/Numbers.h"

namespace memviz {

namespace {

std::string_view trim(std::string_view s) {
    while (!s.empty() && (s.front() == ' ' || s.front() == '\t')) s.remove_prefix(1);
    while (!s.empty() && (s.back() == ' ' || s.back() == '\t')) s.remove_suffix(1);
    return s;
}

// Splits "name (location)" at the parenthesis that matches the final ')'; C++ names may
// hold parentheses of their own ("f(int) (a.cpp:3)").
void splitTrailingParens(std::string_view text, std::string& name, std::string& location) {
    text = trim(text);
    if (text.empty() || text.back() != ')') {
        name = std::string(text);
        return;
    }
    int depth = 0;
    for (std::size_t i = text.size(); i-- > 0;) {
        if (text[i] == ')') ++depth;
        else if (text[i] == '(' && --depth == 0) {
            if (i == 0 || text[i - 1] != ' ') break; // part of the name, e.g. "f(int)"
            name = std::string(trim(text.substr(0, i)));
            location = std::string(text.substr(i + 1, text.size() - i - 2));
            return;
        }
    }
    name = std::string(text);
}

} // namespace

MassifLabel parseMassifLabel(std::string_view label) {
    MassifLabel out;
    label = trim(label);
    if (label.starts_with("(heap allocation functions)") || label.starts_with("(page allocation syscalls)")) {
        out.kind = MassifLabel::Kind::Root;
        out.function = std::string(label);
        return out;
    }
    if (label.starts_with("in ") && label.find("below massif's threshold") != std::string_view::npos) {
        out.kind = MassifLabel::Kind::BelowThreshold;
        std::string_view rest = label.substr(3);
        const std::size_t space = rest.find(' ');
        out.places = parseInt64(rest.substr(0, space)).value_or(0);
        out.function = std::string(label);
        return out;
    }
    if (label.starts_with("0x")) {
        const std::size_t colon = label.find(':');
        if (colon != std::string_view::npos) {
            if (const auto address = parseAddress(label.substr(0, colon))) {
                out.kind = MassifLabel::Kind::Code;
                out.address = address;
                splitTrailingParens(label.substr(colon + 1), out.function, out.location);
                return out;
            }
        }
    }
    out.function = std::string(label);
    return out;
}

} // namespace memviz

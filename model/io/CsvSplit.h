// SPDX-License-Identifier: MIT
#pragma once
// Splits one CSV record (RFC 4180 quoting: "a, b" and "" for a quote) into fields.
#include <string>
#include <string_view>
#include <vector>

namespace memviz {

class CsvSplitter {
public:
    explicit CsvSplitter(char separator = ',') : sep_(separator) {}
    // Fills `fields` with views into `line` (or into internal storage for quoted fields,
    // valid until the next call). Returns false for malformed quoting (an unterminated quote,
    // or text between a closing quote and the separator).
    bool split(std::string_view line, std::vector<std::string_view>& fields);

private:
    char sep_;
    std::string unquoted_;
};

std::string_view trimmed(std::string_view s);

} // namespace memviz

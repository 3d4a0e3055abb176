// SPDX-License-Identifier: MIT
#include "io/CsvSplit.h"

namespace memviz {

std::string_view trimmed(std::string_view s) {
    while (!s.empty() && (s.front() == ' ' || s.front() == '\t')) s.remove_prefix(1);
    while (!s.empty() && (s.back() == ' ' || s.back() == '\t')) s.remove_suffix(1);
    return s;
}

bool CsvSplitter::split(std::string_view line, std::vector<std::string_view>& fields) {
    fields.clear();
    {
        // Fast path: one pass that gives up at the first quote.
        const char* start = line.data();
        const char* const end = start + line.size();
        bool quoted = false;
        for (const char* p = start; p < end; ++p) {
            if (*p == sep_) {
                fields.emplace_back(start, static_cast<std::size_t>(p - start));
                start = p + 1;
            } else if (*p == '"') {
                quoted = true;
                break;
            }
        }
        if (!quoted) {
            fields.emplace_back(start, static_cast<std::size_t>(end - start));
            return true;
        }
        fields.clear();
    }
    // Quoted fields are copied without their quotes; reserve so views stay valid.
    unquoted_.clear();
    unquoted_.reserve(line.size());
    std::size_t i = 0;
    for (;;) {
        if (i < line.size() && line[i] == '"') {
            const std::size_t begin = unquoted_.size();
            ++i;
            for (;;) {
                if (i >= line.size()) return false;
                if (line[i] == '"') {
                    if (i + 1 < line.size() && line[i + 1] == '"') {
                        unquoted_.push_back('"');
                        i += 2;
                        continue;
                    }
                    ++i;
                    break;
                }
                unquoted_.push_back(line[i++]);
            }
            fields.emplace_back(unquoted_.data() + begin, unquoted_.size() - begin);
            if (i < line.size() && line[i] != sep_) return false; // text after a closing quote
        } else {
            const std::size_t start = i;
            while (i < line.size() && line[i] != sep_) ++i;
            fields.push_back(line.substr(start, i - start));
        }
        if (i >= line.size()) return true;
        ++i; // separator
        if (i == line.size()) {
            fields.emplace_back();
            return true;
        }
    }
}

} // namespace memviz

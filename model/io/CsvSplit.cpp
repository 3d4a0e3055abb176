#include "io/CsvSplit.h"

#include <cstring>

namespace memviz {

std::string_view trimmed(std::string_view s) {
    while (!s.empty() && (s.front() == ' ' || s.front() == '\t')) s.remove_prefix(1);
    while (!s.empty() && (s.back() == ' ' || s.back() == '\t')) s.remove_suffix(1);
    return s;
}

bool CsvSplitter::split(std::string_view line, std::vector<std::string_view>& fields) {
    fields.clear();
    if (std::memchr(line.data(), '"', line.size()) == nullptr) {
        // Fast path: no quotes anywhere.
        std::size_t start = 0;
        for (;;) {
            const void* hit = std::memchr(line.data() + start, sep_, line.size() - start);
            if (!hit) {
                fields.push_back(line.substr(start));
                return true;
            }
            const auto pos = static_cast<std::size_t>(static_cast<const char*>(hit) - line.data());
            fields.push_back(line.substr(start, pos - start));
            start = pos + 1;
        }
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

// SPDX-License-Identifier: MIT
#pragma once
// A sortable HTML table for the report: cells carry their number in data-v (bytes, counts), so
// the page's few lines of script sort numerically while showing "1.50 MiB".
#include <cstdint>
#include <string>
#include <vector>

namespace memviz {

struct HtmlCell {
    std::string text;
    bool numeric = false;
    std::int64_t value = 0;
};

HtmlCell textCell(std::string text);
HtmlCell bytesCell(std::int64_t bytes);
HtmlCell signedBytesCell(std::int64_t bytes); // "+1.50 MiB"
HtmlCell countCell(std::int64_t n);

struct HtmlColumn {
    std::string title;
    std::string key; // data-key of its <th>, for the page's script and tests
};

// `<table class="sortable" id=ID>`; `note` under it (e.g. "300 of 1,234 operators").
std::string htmlTable(const std::string& id, const std::vector<HtmlColumn>& columns,
                      const std::vector<std::vector<HtmlCell>>& rows, const std::string& note = {});

} // namespace memviz

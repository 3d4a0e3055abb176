// SPDX-License-Identifier: MIT
// Report tables (see HtmlTable.h).
#include "report/HtmlTable.h"

#include "words/Units.h"
#include "report/Markup.h"

namespace memviz {

HtmlCell textCell(std::string text) { return {std::move(text), false, 0}; }
HtmlCell bytesCell(std::int64_t bytes) { return {formatBytes(static_cast<double>(bytes)), true, bytes}; }
HtmlCell signedBytesCell(std::int64_t bytes) {
    return {(bytes > 0 ? "+" : "") + formatBytes(static_cast<double>(bytes)), true, bytes};
}
HtmlCell countCell(std::int64_t n) { return {std::to_string(n), true, n}; }

std::string htmlTable(const std::string& id, const std::vector<HtmlColumn>& columns,
                      const std::vector<std::vector<HtmlCell>>& rows, const std::string& note) {
    std::string s = "<table class=\"sortable\" id=\"" + escapeMarkup(id) + "\">\n<thead><tr>";
    for (const HtmlColumn& c : columns) s += "<th data-key=\"" + escapeMarkup(c.key) + "\">" + escapeMarkup(c.title) + "</th>";
    s += "</tr></thead>\n<tbody>\n";
    for (const auto& row : rows) {
        s += "<tr>";
        for (const HtmlCell& c : row)
            s += c.numeric ? "<td class=\"n\" data-v=\"" + std::to_string(c.value) + "\">" + escapeMarkup(c.text) + "</td>"
                           : "<td>" + escapeMarkup(c.text) + "</td>";
        s += "</tr>\n";
    }
    s += "</tbody>\n</table>\n";
    if (!note.empty()) s += "<p class=\"note\">" + escapeMarkup(note) + "</p>\n";
    return s;
}

} // namespace memviz

// SPDX-License-Identifier: MIT
// Markup escaping (see Markup.h).
#include "report/Markup.h"

namespace memviz {

std::string escapeMarkup(std::string_view text) {
    std::string out;
    out.reserve(text.size() + 16);
    for (const char c : text) {
        switch (c) {
        case '&': out += "&amp;"; break;
        case '<': out += "&lt;"; break;
        case '>': out += "&gt;"; break;
        case '"': out += "&quot;"; break;
        case '\'': out += "&#39;"; break;
        default:
            if (static_cast<unsigned char>(c) < 0x20 && c != '\t' && c != '\n') break;
            out += c;
        }
    }
    return out;
}

} // namespace memviz

// SPDX-License-Identifier: MIT
// FILE | STORE#ID (see TraceRef.h).
#include "store/TraceRef.h"

#include <cctype>
#include <filesystem>
#include <stdexcept>

namespace memviz {

TraceRef parseTraceRef(const std::string& arg) {
    const std::size_t hash = arg.rfind('#');
    std::error_code ec;
    if (hash == std::string::npos || hash == 0 || std::filesystem::exists(arg, ec)) return {arg, 0};
    const std::string idText = arg.substr(hash + 1);
    std::int64_t id = 0;
    bool digits = !idText.empty() && idText.size() <= 18;
    for (const char c : idText) digits = digits && std::isdigit(static_cast<unsigned char>(c));
    if (digits) id = std::stoll(idText);
    if (id <= 0) throw std::invalid_argument("\"" + arg + "\": the part after # must be a positive trace id");
    return {arg.substr(0, hash), id};
}

} // namespace memviz
